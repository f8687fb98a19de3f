/**
 * `npm run build` precompiles the JSON Schema 2020-12 meta-schema (dist/manifest/meta-validator), which the
 * built CLI uses to check a manifest's schemas instead of loading Ajv. It must judge every schema exactly as
 * Ajv's own meta-validation does: same verdict, same errors.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../generator/manifest/load.js';

const root = join(import.meta.dirname, '..', '..');
const built = join(root, 'dist', 'manifest', 'meta-validator', 'index.js');

/** Every object that may be a schema in a manifest (tools' input/output, resources' schema/params, prompts' args, named schemas). */
function schemasOf(manifest: unknown): unknown[] {
  const out: unknown[] = [];
  const m = (manifest ?? {}) as Record<string, Record<string, Record<string, unknown>> | undefined>;
  for (const s of Object.values(m['schemas'] ?? {})) out.push(s);
  for (const t of Object.values(m['tools'] ?? {})) out.push(t?.['input'], t?.['output']);
  for (const r of Object.values(m['resources'] ?? {})) {
    out.push(r?.['schema']);
    for (const p of Object.values((r?.['params'] ?? {}) as Record<string, unknown>)) out.push(p);
  }
  for (const p of Object.values(m['prompts'] ?? {})) for (const a of Object.values((p?.['arguments'] ?? {}) as Record<string, { schema?: unknown }>)) out.push(a?.schema);
  // The precompiled validator serves schemas without `$schema` (the default dialect); the rest go to Ajv.
  return out.filter((s) => s !== undefined && s !== null && typeof s === 'object' && !('$schema' in (s as object)) && !('$ref' in (s as object) && Object.keys(s as object).length === 1));
}

/** Every manifest file under a folder. */
function manifestsIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)[^/]*manifest[^/]*\.ya?ml$/.test(f)).map((f) => join(dir, f));
}
const manifests = [...manifestsIn(join(root, 'manifests')), ...manifestsIn(join(root, 'test', 'fixtures'))];

const handMade: unknown[] = [
  { type: 'strin' },
  { type: ['string', 'nul'] },
  { properties: { a: { minimum: 'one' } } },
  { required: 'a' },
  { enum: [] },
  { items: [{ type: 'string' }] },
  { $defs: { a: { type: 'object', properties: { b: { $ref: '#/$defs/a' } } } }, $ref: '#/$defs/a' },
  { pattern: '^[a-z]+$', maxLength: -1 },
  { additionalProperties: 'no' },
  { $ref: 'not a uri' },
  { format: 'date-time', minItems: 1.5 },
  { oneOf: [{ type: 'string' }, { const: 1 }], unevaluatedProperties: false },
];

describe('the precompiled 2020-12 meta-schema validator', () => {
  it('exists after the build (npm test builds first)', () => {
    expect(existsSync(built), `${built} is missing: run \`npm run build\``).toBe(true);
  });

  it.runIf(existsSync(built))('agrees with Ajv on every schema of the example and invalid-fixture manifests and on hand-made broken ones', () => {
    const precompiled = createRequire(import.meta.url)(built) as ValidateFunction;
    const ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
    addFormats.default(ajv);
    const schemas = [...manifests.flatMap((p) => { try { return schemasOf(parseYaml(readFileSync(p, 'utf8'), p).value); } catch { return []; } }), ...handMade];
    expect(schemas.length).toBeGreaterThan(100);
    let invalid = 0;
    for (const schema of schemas) {
      const expected = ajv.validateSchema(schema as object) as boolean;
      const errors = (ajv.errors ?? null) as ErrorObject[] | null;
      const actual = precompiled(schema);
      expect(actual, JSON.stringify(schema)).toBe(expected);
      if (!expected) {
        invalid++;
        expect(precompiled.errors, JSON.stringify(schema)).toEqual(errors);
      }
    }
    expect(invalid).toBeGreaterThanOrEqual(8); // errors compared, not only verdicts
  });
});
