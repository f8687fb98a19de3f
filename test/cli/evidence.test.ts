/**
 * `mcp-gen evidence`: runs the support-desk scenarios and publishes one pack per scenario and era; a
 * manifest without scenarios, or a generated folder that is not up to date, is refused before anything runs.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-gen-evidence-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('mcp-gen evidence', () => {
  it('writes a pack per scenario and era and says which passed', async () => {
    const out = join(scratch, 'packs');
    const r = await runCli(['evidence', 'manifests/support-desk/mcp.manifest.yaml', '--out', out], repoRoot);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['declined-submission.2025-11-25.json', 'declined-submission.2026-07-28.json', 'refund-review.2025-11-25.json', 'refund-review.2026-07-28.json']);
    expect(r.stdout).toMatch(/✓ refund-review \(2026-07-28\): passed/);
    const pack = JSON.parse(readFileSync(join(out, 'refund-review.2025-11-25.json'), 'utf8'));
    expect(pack).toMatchObject({ evidence: 'mcp-gen/scenario@1', scenario: 'refund-review', protocolVersion: '2025-11-25', verdict: { passed: true } });
    expect(readdirSync(scratch).filter((f) => f.startsWith('.mcp-gen-evidence-'))).toEqual([]);
  }, 120_000);

  it('refuses a manifest without scenarios and leaves the folder alone', async () => {
    const out = join(scratch, 'none');
    const r = await runCli(['evidence', 'manifests/clinic/mcp.manifest.yaml', '--out', out], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/declares no scenarios/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a generated folder that is not up to date with the manifest', async () => {
    const copy = join(scratch, 'stale');
    cpSync(join(repoRoot, 'generated/support-desk'), copy, { recursive: true });
    writeFileSync(join(copy, 'contract/scenarios.gen.test.ts'), '// edited\n');
    const r = await runCli(['evidence', 'manifests/support-desk/mcp.manifest.yaml', '--generated', copy, '--out', join(scratch, 'stale-packs')], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not up to date with .*run `mcp-gen generate` first/);
  });
});
