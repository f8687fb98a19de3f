import { describe, expect, it } from 'vitest';
import { Project } from 'ts-morph';
import { compileHere, PLACEHOLDER } from '../../generator/emit/type-compiler.js';
import { layoutTypes } from '../../generator/emit/type-printer.js';

// Schemas whose compiled types use every construct json-schema-to-typescript writes, and text that
// would fool a printer reading lines: braces, brackets and comment markers inside strings and docs.
const schemas: Record<string, object> = {
  Plain: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } }, required: ['id'], additionalProperties: false },
  Union: { type: 'object', properties: { b: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
  NestedArray: { type: 'object', properties: { c: { type: 'array', items: { type: 'object', properties: { x: { enum: ['a', 'b'] } } }, maxItems: 3 } } },
  Tuple: { type: 'object', properties: { d: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 1, additionalItems: { type: 'boolean' } } } },
  Literals: { type: 'object', properties: { k: { enum: [-1, 2.5, 'two', null, true] }, c: { const: '} { ] [ */ /* "' } } },
  Quoted: { type: 'object', properties: { 'we-ird': { type: 'string', description: 'A */ tricky "doc" with { braces } and [brackets].' }, 'has "quote"': { type: 'number' } } },
  AllOf: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object', properties: { deep: { type: 'boolean' } } }] } } } }] },
  Index: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: { type: 'object', properties: { z: { type: 'boolean' } } } },
  Empty: { type: 'object', properties: {}, additionalProperties: false },
  Alias: { type: 'string', format: 'date-time' },
  Named: { type: 'object', properties: { t: { tsType: 'Shared' }, list: { type: 'array', items: { tsType: 'Shared' } } } },
  NullableArrayOfUnions: { type: ['array', 'null'], items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
};

describe('the layout of compiled types', () => {
  it('prints the same types json-schema-to-typescript wrote, under the real name, in the house layout', async () => {
    const compiled = await Promise.all(Object.entries(schemas).map(async ([name, s]) => [name, await compileHere(s)] as const));
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    const checks: string[] = ['export type Shared = { shared: true };', 'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;'];
    for (const [name, raw] of compiled) {
      const laid = layoutTypes(raw, new Map([[PLACEHOLDER, name]]));
      expect(laid).not.toContain(PLACEHOLDER);
      // Members and aliases end in `;`; every line is indented by a whole number of units.
      for (const line of laid.split('\n')) {
        expect(line.length - line.trimStart().length, line).toSatisfy((n: number) => n % 2 === 0 || line.trimStart().startsWith('*'));
      }
      checks.push(laid, raw.replaceAll(PLACEHOLDER, `${name}Original`), `export const same${name}: Same<${name}, ${name}Original> = true;`);
    }
    project.createSourceFile('types.ts', checks.join('\n\n'));
    const errors = project.getPreEmitDiagnostics().map((d) => `${d.getLineNumber()}: ${String(d.getMessageText())}`);
    expect(errors).toEqual([]);
  }, 120_000); // type-checks every case with ts-morph: well within it alone, not always within the default on a loaded machine

  it('keeps strings and comments exactly and renames every use of the placeholder', () => {
    const raw = [
      '/**',
      ' * Has { braces } and a "quote"',
      ' */',
      `export interface ${PLACEHOLDER} {`,
      '/**',
      ' * ] [ ) (',
      ' */',
      '"a } b"?: ("x {" | "y ]")',
      `self?: ${PLACEHOLDER}[]`,
      'pair: [string, ...(number)[]]',
      'obj: {',
      'inner: -5',
      '}[]',
      '[k: string]: unknown',
      '}',
    ].join('\n');
    expect(layoutTypes(raw, new Map([[PLACEHOLDER, 'Thing']]))).toBe(
      [
        '/**',
        ' * Has { braces } and a "quote"',
        ' */',
        'export interface Thing {',
        '  /**',
        '   * ] [ ) (',
        '   */',
        '  "a } b"?: "x {" | "y ]";',
        '  self?: Thing[];',
        '  pair: [string, ...(number)[]];',
        '  obj: {',
        '    inner: -5;',
        '  }[];',
        '  [k: string]: unknown;',
        '}',
      ].join('\n'),
    );
  });

  it('prints an empty body as {} and an alias with its semicolon', () => {
    expect(layoutTypes(`export interface ${PLACEHOLDER} {\n\n}\n`, new Map([[PLACEHOLDER, 'E']]))).toBe('export interface E {}');
    expect(layoutTypes(`export type ${PLACEHOLDER} = (string | null)\n`, new Map([[PLACEHOLDER, 'A']]))).toBe('export type A = string | null;');
  });

  it('keeps a comment that stands before a closing brace, in an empty body or after the last member', () => {
    const raw = [
      '/**',
      ' * The root',
      ' */',
      `export interface ${PLACEHOLDER} {`,
      'a?: {',
      '/** only a note */',
      '}',
      'b: {',
      'x: string',
      '/**',
      ' * after x',
      ' */',
      '}',
      '/** after b */',
      '}',
      '',
      'export interface Second {',
      '// nothing declared yet',
      '}',
    ].join('\n');
    expect(layoutTypes(raw, new Map([[PLACEHOLDER, 'Noted']]))).toBe(
      [
        '/**',
        ' * The root',
        ' */',
        'export interface Noted {',
        '  a?: {',
        '    /** only a note */',
        '  };',
        '  b: {',
        '    x: string;',
        '    /**',
        '     * after x',
        '     */',
        '  };',
        '  /** after b */',
        '}',
        '',
        'export interface Second {',
        '  // nothing declared yet',
        '}',
      ].join('\n'),
    );
  });

  it('keeps a comment written inside a type, and one after the last declaration', () => {
    const raw = `export interface ${PLACEHOLDER} {\nc?: /* lead */ string\nd: Array</* of */ number>\n}\n/** the end */\n`;
    expect(layoutTypes(raw, new Map([[PLACEHOLDER, 'Inline']]))).toBe(
      ['export interface Inline {', '  c?: /* lead */ string;', '  d: Array</* of */ number>;', '}', '', '/** the end */'].join('\n'),
    );
  });

  it('keeps the comments of a schema whose tsType carries them, through json-schema-to-typescript', async () => {
    const raw = await compileHere({
      type: 'object',
      properties: { a: { tsType: '{\n/** only a note */\n}' }, b: { tsType: '{\nx: string\n/** after x */\n}' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    const laid = layoutTypes(raw, new Map([[PLACEHOLDER, 'Carried']]));
    expect(laid).toContain('    /** only a note */\n  };');
    expect(laid).toContain('    x: string;\n    /** after x */\n  };');
  });

  it('renames every placeholder it is given as a whole identifier, in types and in notes, longest first', () => {
    const raw = `/**\n * Uses ${PLACEHOLDER}NodeList and ${PLACEHOLDER}Node.\n */\nexport interface ${PLACEHOLDER} {\nhead: ${PLACEHOLDER}Node\nrest: ${PLACEHOLDER}NodeList\n}\n`;
    const names = new Map([
      [PLACEHOLDER, 'Tree'],
      [`${PLACEHOLDER}Node`, 'TreeNode2'],
      [`${PLACEHOLDER}NodeList`, 'TreeNodeList'],
    ]);
    expect(layoutTypes(raw, names)).toBe('/**\n * Uses TreeNodeList and TreeNode2.\n */\nexport interface Tree {\n  head: TreeNode2;\n  rest: TreeNodeList;\n}');
  });

  it('says what it could not read instead of printing something else', () => {
    expect(() => layoutTypes(`export interface ${PLACEHOLDER} {\na: string\n`, new Map([[PLACEHOLDER, 'X']]))).toThrow(/expected/);
    expect(() => layoutTypes(`export interface ${PLACEHOLDER} {\na: // why\nstring\n}`, new Map([[PLACEHOLDER, 'X']]))).toThrow(/line comment inside a type/);
  });
});
