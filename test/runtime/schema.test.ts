import { describe, expect, it } from 'vitest';
import {
  coerceString,
  compilationCount,
  dialectOf,
  jsonSchema,
  paramsValidator,
  parseMainArgs,
  promptArgsSchema,
  renderTemplate,
} from '../../generator/runtime/index.js';

describe('jsonSchema', () => {
  it('is a Standard Schema that returns the schema object unchanged', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const s = jsonSchema(schema);
    expect(s['~standard']).toMatchObject({ version: 1, vendor: 'mcp-gen' });
    expect(s['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toBe(schema);
    expect(s['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toBe(schema);
  });

  it('compiles on first validate, once', () => {
    const s = jsonSchema({ type: 'string', minLength: 2 });
    const before = compilationCount();
    expect(s.check('ab')).toEqual({ value: 'ab' });
    expect(s.check('a')).toEqual({ issues: [{ message: '(root) must NOT have fewer than 2 characters' }] });
    expect(compilationCount()).toBe(before + 1);
  });

  it('picks the dialect from $schema', () => {
    expect(dialectOf({})).toBe('2020-12');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07');
    const d7 = jsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { X: { type: 'integer' } }, properties: { x: { $ref: '#/definitions/X' } } });
    expect(d7.check({ x: 'no' }).issues?.[0]?.message).toBe('/x must be integer');
    const d19 = jsonSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false });
    expect(d19.check({ a: 'x', b: 1 }).issues?.[0]?.message).toBe('/b is not allowed (unevaluated property)');
  });

  it('enforces formats', () => {
    const s = jsonSchema({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } });
    expect(s.check({ when: 'yesterday' }).issues?.[0]?.message).toBe('/when must match format "date-time"');
    expect(s.check({ when: '2026-09-01T10:00:00Z' }).issues).toBeUndefined();
  });

  it('tolerates two equal schemas with the same $id', () => {
    const a = jsonSchema({ $id: 'urn:mcp-gen:Ticket', type: 'string' });
    const b = jsonSchema({ $id: 'urn:mcp-gen:Ticket', type: 'string' });
    expect(a.check('x').issues).toBeUndefined();
    expect(b.check(1).issues?.[0]?.message).toBe('(root) must be string');
  });
});

describe('paramsValidator', () => {
  const v = paramsValidator<{ id: string; n: number; on: boolean }>({ id: { type: 'string', maxLength: 20 }, n: { type: 'integer' }, on: { type: 'boolean' } });
  it('decodes and converts', () => {
    expect(v.parse({ id: 'a%20b', n: '12', on: 'true' })).toEqual({ ok: true, value: { id: 'a b', n: 12, on: true } });
  });
  it.each([
    [{ id: '..', n: '1', on: 'true' }, "'id' must not contain a \".\" or \"..\" path segment"],
    [{ id: 'a%2Fb', n: '1', on: 'true' }, "'id' must not contain \"/\""],
    [{ id: 'javascript:x', n: '1', on: 'true' }, "'id' must not look like a URI scheme"],
    [{ id: 'a%0Ab', n: '1', on: 'true' }, "'id' must not contain control characters"],
    [{ id: '%', n: '1', on: 'true' }, "'id' has malformed percent-encoding"],
    [{ id: 'a', n: '1.5', on: 'true' }, "Invalid template variable 'n': /n must be integer"],
    [{ id: 'a', n: '1', on: 'yes' }, "Invalid template variable 'on': /on must be boolean"],
    [{ id: 'a', n: '1' }, "Missing template variable 'on'"],
  ])('refuses %j', (vars, message) => {
    const r = v.parse(vars);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
  });
  it('allows slashes only for multi-segment variables', () => {
    const p = paramsValidator({ path: { type: 'string' } });
    expect(p.parse({ path: 'a/b' }).ok).toBe(false);
    expect(p.parse({ path: 'a/b' }, { multiSegment: new Set(['path']) })).toEqual({ ok: true, value: { path: 'a/b' } });
    expect(p.parse({ path: 'a/../b' }, { multiSegment: new Set(['path']) }).ok).toBe(false);
  });

  // Raw values as they appear in a URI (the SDK does not decode); each would escape a path-style handler.
  const multi = { multiSegment: new Set(['path']) };
  const path = paramsValidator({ path: { type: 'string' } });
  it.each([
    ['/etc/passwd', 'must not be an absolute path'],
    ['%2Fetc%2Fpasswd', 'must not be an absolute path'],
    ['//evil.example/x', 'must not start with an authority'],
    ['%5C%5Cevil.example%5Cx', 'must not start with an authority'],
    ['%252e%252e%252fsecret', 'double encoding'],
    ['%252fetc', 'double encoding'],
    ['%EF%BC%8E%EF%BC%8E/secret', 'look like'],
    ['%EF%BC%8E%EF%BC%8E%EF%BC%8Fsecret', 'look like'],
    ['a/%E2%80%A5/b', 'look like'],
    ['..%20/secret', 'path segment'],
    ['a/%20..%20/b', 'path segment'],
    ['a/./b', 'path segment'],
    ['C:%5Cwindows', 'drive letter'],
    ['file:///etc/passwd', 'URI scheme'],
    ['a%E2%80%AEb', 'invisible format characters'],
  ])('refuses the traversal value %s even in a {+path} variable', (raw, message) => {
    const r = path.parse({ path: raw }, multi);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
  });

  it('accepts ordinary relative paths and names, normalized', () => {
    expect(path.parse({ path: 'guides/intro.md' }, multi)).toEqual({ ok: true, value: { path: 'guides/intro.md' } });
    expect(path.parse({ path: 'v1.2...final' }, multi)).toEqual({ ok: true, value: { path: 'v1.2...final' } });
    expect(path.parse({ path: '%EF%BD%86oo' }, multi)).toEqual({ ok: true, value: { path: 'foo' } });
  });

  it('lets a schema that says x-mcp-gen-allow-paths take such values (control characters still refused)', () => {
    const open = paramsValidator({ path: { type: 'string', 'x-mcp-gen-allow-paths': true } });
    expect(open.parse({ path: '/etc/passwd' }, multi)).toEqual({ ok: true, value: { path: '/etc/passwd' } });
    expect(open.parse({ path: '..%2F..%2Fx' }, multi)).toEqual({ ok: true, value: { path: '../../x' } });
    expect(open.parse({ path: 'a%00b' }, multi).ok).toBe(false);
  });
});

describe('promptArgsSchema', () => {
  const s = promptArgsSchema([
    { name: 'id', description: 'The id', required: true, schema: { type: 'string' } },
    { name: 'level', required: false, schema: { enum: [1, 2, 3] } },
  ]);
  it('advertises every argument as a string', () => {
    expect(s['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'The id' }, level: { type: 'string' } },
      required: ['id'],
    });
  });
  it('converts enums of non-strings and treats blank optional arguments as absent', () => {
    expect(s.check({ id: 'x', level: '2' })).toEqual({ value: { id: 'x', level: 2 } });
    expect(s.check({ id: 'x', level: '' })).toEqual({ value: { id: 'x' } });
    expect(s.check({ id: 'x', level: '4' }).issues?.[0]?.message).toBe('/level must be one of 1, 2, 3');
  });
});

describe('coerceString', () => {
  it.each([
    ['42', { type: 'integer' }, 42],
    ['-1.5e2', { type: 'number' }, -150],
    ['false', { type: 'boolean' }, false],
    ['42', { type: 'string' }, '42'],
    ['0x10', { type: 'integer' }, '0x10'],
    ['null', { type: ['integer', 'null'] }, null],
  ])('%s as %j → %j', (raw, schema, expected) => {
    expect(coerceString(raw, schema)).toEqual(expected);
  });
});

describe('renderTemplate', () => {
  it('substitutes in one pass and leaves values literal', () => {
    const declared = new Set(['a', 'b']);
    expect(renderTemplate('{{a}}|{{ b }}|{{c}}', { a: '{{b}}', b: 'x' }, declared)).toBe('{{b}}|x|{{c}}');
    expect(renderTemplate('[{{a}}]', { a: '$& $1 $$' }, declared)).toBe('[$& $1 $$]');
  });
});

describe('parseMainArgs', () => {
  it.each([
    [[], { mode: 'stdio' }],
    [['--help'], { mode: 'help' }],
    [['--http'], { mode: 'http', port: 3000, host: '127.0.0.1', allowedHosts: [] }],
    [['--http', '--port', '0', '--host', '0.0.0.0', '--allowed-host', 'a', '--allowed-host', 'b'], { mode: 'http', port: 0, host: '0.0.0.0', allowedHosts: ['a', 'b'] }],
    [['--port', 'x'], { mode: 'error', message: '--port needs a number from 0 to 65535, got x' }],
    [['--bogus'], { mode: 'error', message: 'unknown option --bogus' }],
  ])('%j', (argv, expected) => {
    expect(parseMainArgs(argv)).toEqual(expected);
  });
});
