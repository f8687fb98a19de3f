import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
// The worker's script exists only in the built package (`npm test` builds first), so this suite drives dist/.
import * as built from '../../dist/emit/type-compiler.js';
import * as sources from '../../generator/emit/type-compiler.js';

const schemas: object[] = [
  { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer', minimum: 0 } }, required: ['id'], additionalProperties: false },
  { type: 'array', items: { enum: ['a', 'b', "it's"] } },
  { anyOf: [{ type: 'string' }, { type: 'object', properties: { deep: { type: 'array', items: { type: 'boolean' } } } }] },
  { type: 'object', properties: { tags: { type: 'array', items: { tsType: 'Tag' } } } },
  { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' },
  // The worker compiles schemas without `$ref` through the library's stages directly: the same output.
  { type: 'object', properties: { kind: { const: 'a' }, n: { type: ['integer', 'null'] }, e: { enum: [1, 'two', null, true] } }, required: ['kind'] },
  { oneOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }] },
  { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: { type: 'object', properties: { deep: { allOf: [{ type: 'object' }, { properties: { z: { type: 'boolean' } } }] } } } },
  { type: 'object', properties: { 'needs quotes': { type: 'string', description: 'A */ tricky "doc" with `backticks`.' }, nested: { type: 'object', title: 'Inner', properties: { x: { type: 'number' } } } } },
  { type: 'string', format: 'date-time', minLength: 1 },
  { tsType: 'Shared', description: 'A named schema, as types.gen.ts refers to it' },
];

/** What json-schema-to-typescript's own `compile` writes (it clones what it is given). */
const libraryCompile = (schema: object): Promise<string> =>
  (createRequire(import.meta.url)('json-schema-to-typescript') as typeof import('json-schema-to-typescript')).compile(schema as never, sources.PLACEHOLDER, sources.JSTT_OPTIONS as never);

describe('type compiler', () => {
  let compiler = new built.TypeCompiler();
  afterEach(() => {
    compiler.stop();
    compiler = new built.TypeCompiler();
  });

  it('has its worker script in the built package, and none beside the sources (they compile in their own thread)', () => {
    const fromSources = new sources.TypeCompiler();
    fromSources.start();
    expect(fromSources.onWorker).toBe(false);
    expect(existsSync(fileURLToPath(new URL('../../dist/emit/type-worker.js', import.meta.url)))).toBe(true);
    expect(existsSync(fileURLToPath(new URL('../../generator/emit/type-worker.js', import.meta.url)))).toBe(false);
  });

  it('compiles on the worker exactly what json-schema-to-typescript writes in this thread', async () => {
    const here = await Promise.all(schemas.map((s) => sources.compileHere(s)));
    compiler.start();
    expect(compiler.onWorker).toBe(true);
    const onWorker = await Promise.all(schemas.map((s) => compiler.compile(s)));
    expect(compiler.onWorker).toBe(true); // answered by the worker, not by a fallback
    expect(onWorker).toEqual(here);
    expect(here[0]).toContain(`export interface ${sources.PLACEHOLDER}`);
  });

  it("finds the library's stages, and they write what compile writes for every schema without $ref", async () => {
    const { directCompile } = await import('../../dist/emit/type-library.js');
    const direct = directCompile();
    expect(direct).toBeDefined();
    for (const s of schemas.filter((x) => !JSON.stringify(x).includes('"$ref"'))) {
      expect(direct!(structuredClone(s)), JSON.stringify(s)).toBe(await libraryCompile(s));
    }
  });

  it('compiles in this thread exactly what the library\'s compile writes, and leaves the schema it is given as it was', async () => {
    for (const s of schemas) {
      const before = structuredClone(s);
      expect(await sources.compileHere(s), JSON.stringify(s)).toBe(await libraryCompile(s));
      expect(s).toEqual(before);
    }
  });

  it('compiles what the worker still owed in this thread when the worker is stopped', async () => {
    compiler.start();
    const owed = schemas.map((s) => compiler.compile(s));
    compiler.stop();
    expect(compiler.onWorker).toBe(false);
    expect(await Promise.all(owed)).toEqual(await Promise.all(schemas.map((s) => sources.compileHere(s))));
  });

  it('stays up until every holder has stopped it (a watch loop keeps it warm across runs)', async () => {
    compiler.start(); // the loop
    compiler.start(); // one run
    compiler.stop(); // the run ends
    expect(compiler.onWorker).toBe(true);
    expect(await compiler.compile(schemas[0]!)).toBe(await sources.compileHere(schemas[0]!));
    compiler.stop(); // the loop ends
    expect(compiler.onWorker).toBe(false);
    compiler.stop(); // an extra stop is harmless
    compiler.start();
    expect(compiler.onWorker).toBe(true);
  });

  it('started when needed, compiles a few types in this thread without starting its worker', async () => {
    const lazy = new built.TypeCompiler();
    lazy.start({ whenNeeded: true });
    expect(lazy.onWorker).toBe(false); // a run whose types all come from the cache never starts it
    const codes = await Promise.all(schemas.slice(0, 3).map((s) => lazy.compile(s)));
    expect(lazy.onWorker).toBe(false); // nobody said many types are coming: compiled here
    expect(lazy.waiting).toBe(true);
    expect(codes).toEqual(await Promise.all(schemas.slice(0, 3).map((s) => sources.compileHere(s))));
    lazy.stop();
    expect(lazy.onWorker).toBe(false);
  });

  it('started when needed, starts its worker when told a type will be compiled, and only then', async () => {
    const lazy = new built.TypeCompiler();
    lazy.need(); // not started: nothing to start
    expect(lazy.onWorker).toBe(false);
    lazy.start({ whenNeeded: true });
    expect(lazy.waiting).toBe(true);
    lazy.need(); // the pipeline found a type the cache lacks: loading starts before the first compile
    expect(lazy.onWorker).toBe(true);
    expect(lazy.waiting).toBe(false);
    expect(await lazy.compile(schemas[0]!)).toBe(await sources.compileHere(schemas[0]!));
    lazy.stop();
    expect(lazy.onWorker).toBe(false);
    lazy.need(); // released: nothing left to start
    expect(lazy.onWorker).toBe(false);
  });

  it('rejects a schema json-schema-to-typescript cannot compile with the error this thread would throw', async () => {
    const bad = { $ref: 'missing-file.json' };
    const here = await sources.compileHere(bad).then(() => 'compiled', (e: Error) => e.message);
    expect(here).not.toBe('compiled');
    compiler.start();
    await expect(compiler.compile(bad)).rejects.toThrow(here);
  });
});
