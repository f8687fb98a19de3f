import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Runs the built CLI (`npm run build` first) with colour off. */
function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = fileURLToPath(new URL('../../bin/mcp-gen.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FAIL = 'test/fixtures/lint/MG704/fail.yaml';
const WARN = 'test/fixtures/lint/MG718/fail.yaml';
const CLEAN = 'manifests/support-desk/mcp.manifest.yaml';

describe('mcp-gen lint', () => {
  it('--json reports every finding with its rule and docs, and exits 1 on errors', async () => {
    const r = await run(['lint', '--json', FAIL, CLEAN]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ errors: 1, warnings: 0, hints: 0 });
    expect(report.manifests.map((m: { manifest: string; ok: boolean }) => [m.manifest, m.ok])).toEqual([[FAIL, false], [CLEAN, true]]);
    expect(report.manifests[0].diagnostics).toEqual([
      expect.objectContaining({
        code: 'MG704', severity: 'error', rule: 'irreversible-without-approval', docs: 'docs/rules/MG704.md',
        file: FAIL, line: 4, column: 3, path: 'tools.accounts.close', sourceLine: '  accounts.close:',
        hint: expect.stringContaining('approval: required'),
      }),
    ]);
  });

  it('exits 0 when findings are only warnings, and prints them with the source line and docs', async () => {
    const r = await run(['lint', WARN]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${WARN}:11:9 warning MG718 tools.issues.create.input.properties.title:`);
    expect(r.stderr).toContain('  docs: docs/rules/MG718.md');
    expect(r.stdout).toContain(`${WARN}: 0 errors, 2 warnings, 0 hints.`);
  });

  it('says so when a manifest has no findings', async () => {
    const r = await run(['lint', CLEAN]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${CLEAN}: no findings.`);
  });
});
