/**
 * The shape checked piece by piece answers "valid" exactly when the whole manifest is valid: on the
 * example manifests with random damage to one entry or to the skeleton (a key set to another value, a
 * key removed, an unknown key added), with a fresh cache and with one that judged the undamaged pieces.
 */
import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { validInPieces } from '../../generator/manifest/shape-pieces.js';
import { definitionValidator, manifestValidator } from '../../generator/manifest/shape.js';
import { repoRoot } from '../helpers/paths.js';

const validators = { whole: manifestValidator, definition: definitionValidator };
const examples = readdirSync(join(repoRoot, 'manifests')).map((d) => load(readFileSync(join(repoRoot, 'manifests', d, 'mcp.manifest.yaml'), 'utf8')) as Record<string, unknown>);

type Damage = { readonly where: number; readonly key: number; readonly how: 'set' | 'remove' | 'add'; readonly value: unknown };
const damage: fc.Arbitrary<Damage> = fc.record({
  where: fc.nat(), key: fc.nat(), how: fc.constantFrom('set' as const, 'remove' as const, 'add' as const),
  value: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.array(fc.string(), { maxLength: 2 }), fc.constantFrom('read', 'write', 'tool', 1.5)),
});

/** The objects of a manifest one may damage: the top level, every entry and the objects inside them. */
function objects(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(v)) v.forEach((x) => objects(x, out));
  else if (v !== null && typeof v === 'object') {
    out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) objects(x, out);
  }
  return out;
}

function damaged(m: Record<string, unknown>, d: Damage): Record<string, unknown> {
  const copy = structuredClone(m);
  const all = objects(copy);
  const target = all[d.where % all.length]!;
  const keys = Object.keys(target);
  if (d.how === 'add' || keys.length === 0) target[`unknownKey${d.key % 3}`] = d.value;
  else if (d.how === 'remove') delete target[keys[d.key % keys.length]!];
  else target[keys[d.key % keys.length]!] = d.value;
  return copy;
}

describe('the manifest shape checked in pieces', () => {
  it('is valid exactly when the whole manifest is', () => {
    let invalid = 0;
    fc.assert(
      fc.property(fc.nat(), fc.array(damage, { minLength: 0, maxLength: 2 }), (at, ds) => {
        const base = examples[at % examples.length]!;
        const m = ds.reduce(damaged, base);
        const whole = manifestValidator()(m) === true;
        if (!whole) invalid++;
        expect(validInPieces(m, { cache: new GenerationCache('test') }, validators)).toBe(whole);
        // A cache that judged the undamaged manifest's pieces answers the same.
        const warm = new GenerationCache('test');
        expect(validInPieces(base, { cache: warm }, validators)).toBe(true);
        expect(validInPieces(m, { cache: warm }, validators)).toBe(whole);
        // Entries known by the text they were read from (here their JSON, which determines them as YAML does).
        const texts = (v: Record<string, unknown>) => {
          const pieces = new WeakMap<object, string>();
          for (const section of ['tools', 'resources', 'prompts']) {
            for (const [name, entry] of Object.entries((v[section] ?? {}) as Record<string, unknown>)) if (entry !== null && typeof entry === 'object') pieces.set(entry, `${name}: ${JSON.stringify(entry)}`);
          }
          return pieces;
        };
        const byText = new GenerationCache('test');
        expect(validInPieces(base, { cache: byText, pieces: texts(base) }, validators)).toBe(true);
        expect(validInPieces(m, { cache: byText, pieces: texts(m) }, validators)).toBe(whole);
      }),
      { numRuns: 300, seed: 4242 },
    );
    expect(invalid).toBeGreaterThan(50);
  });
});
