import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../generator/lint/index.js';
import { loadManifest } from '../../generator/pipeline.js';
import { manifestSchema } from '../../generator/manifest/shape.js';

const dir = join('test', 'fixtures', 'lint', '_config');
const codesAt = (r: Awaited<ReturnType<typeof loadManifest>>) => r.diagnostics.map((d) => `${d.code}:${d.severity}`);

describe('lint configuration', () => {
  it('changes a severity or turns a rule off per manifest (`lint.rules`)', async () => {
    const r = await loadManifest(join(dir, 'override.yaml'));
    expect(codesAt(r)).toEqual(['MG708:error']);
    expect(r.ir).toBeUndefined();
  });

  it('disables a rule per primitive with a reason, and keeps the reason on the IR', async () => {
    const r = await loadManifest(join(dir, 'waiver.yaml'));
    expect(r.diagnostics).toEqual([]);
    expect(r.ir!.tools[0]!.lintWaivers).toEqual([
      { code: 'MG703', reason: 'the order service deduplicates by order id, so a repeated cancel is harmless' },
      { code: 'MG718', reason: 'reason is kept, trimmed' },
    ]);
  });

  it('leaves lintWaivers off primitives that have none', async () => {
    const r = await loadManifest(join('manifests', 'support-desk', 'mcp.manifest.yaml'));
    for (const p of [...r.ir!.tools, ...r.ir!.resources, ...r.ir!.prompts]) expect('lintWaivers' in p).toBe(false);
  });

  it('rejects a waiver without a reason (MG700 error, which blocks generation)', async () => {
    const r = await loadManifest(join(dir, 'empty-reason.yaml'));
    expect(r.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}:${d.severity}`)).toEqual(['MG700@9:16:error']);
    expect(r.diagnostics[0]!.message).toContain('has no reason');
    expect(r.ir).toBeUndefined();
  });

  it('rejects an unknown rule code with a suggestion (MG100)', async () => {
    const r = await loadManifest(join(dir, 'unknown-code.yaml'));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['MG100']);
    expect(r.diagnostics[0]!.message).toContain('did you mean `MG708`');
  });

  it('can be skipped by the loader (`{ lint: false }`)', async () => {
    const r = await loadManifest(join(dir, 'override.yaml'), { lint: false });
    expect(r.diagnostics).toEqual([]);
    expect(r.ir).toBeDefined();
  });

  it('is described by the manifest schema: every rule code, with titles and descriptions', () => {
    const defs = (manifestSchema() as { $defs: Record<string, any> }).$defs;
    const ruleCodes = RULES.map((r) => r.code);
    expect(Object.keys(defs.lint.properties.rules.properties)).toEqual(ruleCodes);
    expect(Object.keys(defs.primitiveLint.properties.disable.properties)).toEqual(ruleCodes);
    for (const c of ruleCodes) {
      expect(defs.lint.properties.rules.properties[c].title).toContain(c);
      expect(defs.primitiveLint.properties.disable.properties[c].description).toBeTruthy();
    }
    for (const k of ['tool', 'resource', 'prompt']) expect(defs[k].properties.lint).toEqual({ $ref: '#/$defs/primitiveLint' });
  });
});

describe('example manifests', () => {
  it.each(['support-desk', 'clinic', 'code-host'])('%s lints clean', async (name) => {
    const r = await loadManifest(join('manifests', name, 'mcp.manifest.yaml'));
    expect(r.diagnostics).toEqual([]);
    expect(r.ir).toBeDefined();
  });
});
