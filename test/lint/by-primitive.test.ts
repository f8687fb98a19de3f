/**
 * The rules marked `reads: 'primitive'` really read one primitive at a time: run on the whole manifest
 * (as a `manifest` rule) each gives exactly the diagnostics it gives when the engine runs it one
 * primitive at a time, on every lint fixture, the example manifests and a synthetic catalog.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { lintManifest, RULES, type LintRule } from '../../generator/lint/index.js';
import { InputFiles, checkShape, parseManifest, resolveRefs, runChecks } from '../../generator/manifest/index.js';
// @ts-expect-error the benchmark's generator is plain JavaScript
import { manifestYaml } from '../../bench/synth.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'mcp-gen-byprim-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const synthetic = join(tmp, 'mcp.manifest.yaml');
writeFileSync(synthetic, manifestYaml(60) as string);

const fixtures = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? fixtures(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : []));
const manifests = [...fixtures(join('test', 'fixtures', 'lint')), ...readdirSync('manifests').map((d) => join('manifests', d, 'mcp.manifest.yaml')), synthetic];

/** The lint input of a valid manifest, as the pipeline builds it. */
async function lintInput(file: string) {
  const inputs = new InputFiles();
  const parsed = await parseManifest(resolve(file), inputs);
  const raw = parsed.value === undefined ? undefined : checkShape(parsed);
  if (raw === undefined) return undefined;
  const resolved = resolveRefs(raw, parsed, inputs);
  const built = runChecks(resolved, parsed, inputs, !parsed.reporter.failed, undefined);
  if (parsed.reporter.failed) return undefined;
  return { manifest: resolved.manifest, ir: buildIr(built), file: parsed.reporter.file, map: parsed.reporter.map };
}

const shown = (ds: readonly object[]) => ds.map((d) => ({ ...d }));
const perPrimitive = RULES.filter((r) => r.reads === 'primitive');

describe('per-primitive lint rules', () => {
  it('are most of the rules, and the cross-primitive ones are the four that compare primitives', () => {
    expect(RULES.filter((r) => r.reads !== 'primitive').map((r) => r.code)).toEqual(['MG714', 'MG715', 'MG723', 'MG726']);
  });

  it.each(manifests)('give on the whole of %s what they give one primitive at a time', async (file) => {
    const input = await lintInput(file);
    if (input === undefined) return expect(file).toMatch(/unknown-code/); // the one fixture the manifest schema refuses
    let found = 0;
    for (const rule of perPrimitive) {
      const whole: LintRule = { ...rule, reads: 'manifest' };
      const one = lintManifest({ ...input!, rules: [rule] });
      expect(shown(one), rule.code).toEqual(shown(lintManifest({ ...input!, rules: [whole] })));
      found += one.length;
    }
    if (/fail/.test(file) || file === synthetic) expect(found).toBeGreaterThan(0);
  });
});
