import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
// @ts-expect-error the benchmark's generator is plain JavaScript
import { manifestYaml } from '../../bench/synth.mjs';
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

  it('reports a manifest written on one line (minified JSON) with its positions, a window of the line in text and no copy of it in JSON or SARIF', async () => {
    // Each finding copied the whole line into the JSON and SARIF reports: at 1,000 primitives past what a string can hold.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-lint-min-'));
    try {
      const file = join(dir, 'mcp.manifest.json');
      const text = JSON.stringify(parse(manifestYaml(60) as string));
      writeFileSync(file, text);
      const json = await run(['lint', '--json', file]);
      expect(json.code).toBe(0);
      const diagnostics = (JSON.parse(json.stdout) as { manifests: { diagnostics: Record<string, unknown>[] }[] }).manifests[0]!.diagnostics;
      expect(diagnostics.length).toBeGreaterThan(30);
      for (const d of diagnostics) {
        expect(d['line']).toBe(1);
        expect(d).not.toHaveProperty('sourceLine');
      }
      // A finding on an entry's key is at the key's quote, found in the line by its path.
      const keyed = diagnostics.find((d) => String(d['path']).split('.').length === 2 && d['code'] === 'MG728');
      expect(keyed).toBeDefined();
      const name = String(keyed!['path']).slice(String(keyed!['path']).indexOf('.') + 1);
      expect(text.slice(Number(keyed!['column']) - 1).startsWith(`${JSON.stringify(name)}:`)).toBe(true);
      expect(json.stdout.length).toBeLessThan(diagnostics.length * 2000);
      const sarif = await run(['lint', '--format', 'sarif', file]);
      expect(sarif.stdout).not.toContain('"snippet"');
      expect(JSON.parse(sarif.stdout).runs[0].results.length).toBeGreaterThan(0);
      const shown = await run(['lint', file]);
      const excerpts = shown.stderr.split('\n').filter((l) => /^ +1 \| /.test(l));
      expect(excerpts.length).toBeGreaterThan(0);
      for (const l of excerpts) expect(l.length).toBeLessThanOrEqual('    1 | '.length + 122);
      // `generate --json` lists the same findings, as the JSON report does.
      const generated = await run(['generate', file, '--out', join(dir, 'out'), '--json']);
      expect(generated.code).toBe(0);
      const listed = (JSON.parse(generated.stdout) as { diagnostics: Record<string, unknown>[] }[])[0]!.diagnostics;
      expect(listed.length).toBe(diagnostics.length);
      for (const d of listed) expect(d).not.toHaveProperty('sourceLine');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when a manifest has no findings', async () => {
    const r = await run(['lint', CLEAN]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${CLEAN}: no findings.`);
  });
});
