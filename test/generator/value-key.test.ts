import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract } from '../../generator/contract/index.js';
import { createContext } from '../../generator/emit/context.js';
import { emitTypes } from '../../generator/emit/types.js';
import type { TypeCompiler } from '../../generator/emit/type-compiler.js';
import { valueKey } from '../../generator/emit/value-key.js';
import { analyseManifest } from '../../generator/pipeline.js';
import { tempDir } from '../helpers/tree.js';

describe('the key of a schema body', () => {
  it('tells apart every value JSON spells alike', () => {
    const values: unknown[] = [null, Infinity, -Infinity, NaN, 0, -0, undefined, 'null', '0', 'Infinity', 1n, false];
    const keys = values.map((v) => valueKey({ enum: [v] }));
    expect(new Set(keys).size).toBe(values.length);
    const shapes: unknown[] = [{}, { a: undefined }, { a: null }, [1], [, 1], [undefined, 1], [null, 1], { a: 1, b: 2 }, { b: 2, a: 1 }];
    expect(new Set(shapes.map(valueKey)).size).toBe(shapes.length);
  });

  it('is the JSON text of a value JSON can hold exactly', () => {
    const plain = { type: 'object', properties: { 'a "b"': { enum: ['\u2028', 'é', 1.5e300, -3, true, null] }, n: { items: [{}, []] } }, required: ['a "b"'] };
    expect(valueKey(plain)).toBe(JSON.stringify(plain));
  });

  it('has none for what is not plain data, so nothing is shared under it', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    for (const v of [new Date(0), new Map(), { at: new Uint8Array(1) }, cycle, { f: () => 1 }, { [Symbol('s')]: 1 }]) expect(valueKey(v)).toBeUndefined();
  });
});

describe('compiled type bodies in one run', () => {
  it('compiles a schema holding Infinity apart from one holding null, and a repeated one once', async () => {
    // The manifest checks refuse `.inf` in a schema (MG600), so the values are put into the IR directly:
    // the key must not rely on what reaches it.
    const dir = await tempDir('mcp-gen-value-key-');
    const tool = (name: string) =>
      [`  ${name}:`, '    description: Reads one value of the kind its input names, for this test.', '    sideEffect: read', '    input:', '      type: object', '      properties:', '        v: { enum: [0] }'];
    const manifest = ['mcpgen: 1', 'server:', '  name: keys', '  version: 1.0.0', 'tools:', ...['a.get', 'b.get', 'c.get', 'd.get'].flatMap(tool)].join('\n');
    await writeFile(join(dir, 'mcp.manifest.yaml'), `${manifest}\n`);
    const { ir, diagnostics } = await analyseManifest(join(dir, 'mcp.manifest.yaml'), { lint: false }).finally(() => rm(dir, { recursive: true, force: true }));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const values = [Infinity, null, Infinity, -Infinity];
    const tools = ir!.tools.map((t, i) => ({ ...t, input: { ...(t.input as object), properties: { v: { enum: [values[i]] } } } }));
    const next = { ...ir!, tools };
    const asked: unknown[] = [];
    const types = { compile: (body: object) => (asked.push((body as { properties: { v: { enum: unknown[] } } }).properties.v.enum[0]), Promise.resolve(`export type McpGenTypeNamePlaceholder = ${asked.length}\n`)) };
    await emitTypes(createContext(next, buildContract(next), types as unknown as TypeCompiler));
    expect(asked).toEqual([Infinity, null, -Infinity]);
  });
});
