/**
 * The named gates, proven by faulty servers. The case-desk fixture is generated once, with the CLI, into
 * a scratch folder; its handlers are the fixture's, and each copy of the output gets one fault injected
 * into its handlers (`test/fixtures/gates/case-desk/faults/`). The generated contract suites then run
 * in one vitest process, as a user runs them: the handlers as written pass every suite in both eras, and
 * in each faulty copy the gates suite fails exactly the gate the fault breaks, whose name the failure
 * summary prints.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/paths.js';

const fixture = join(repoRoot, 'test/fixtures/gates/case-desk');

/** Each fault folder and the gate it must fail. */
const FAULTS = [
  ['stale-revision', 'quality gate · stale revision'],
  ['resource-write', 'hard gate · hidden side effect'],
  ['prompt-write', 'hard gate · hidden side effect'],
  ['retry-duplicate', 'recovery gate · retry after an ambiguous timeout'],
  ['read-tool-write', 'hard gate · unauthorized write'],
  ['cross-tenant-read', 'hard gate · cross-tenant canary'],
] as const;

const ERAS = ['2025-11-25', '2026-07-28'];

interface Assertion {
  readonly ancestorTitles: string[];
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages: string[];
}

interface Report {
  readonly testResults: { readonly name: string; readonly assertionResults: Assertion[] }[];
}

describe('named gates against servers with injected faults', () => {
  const root = join(repoRoot, `.tmp-gate-faults-${randomBytes(4).toString('hex')}`);
  let report: Report;
  let summary: string;

  beforeAll(async () => {
    const generated = spawnSync(process.execPath, [binPath, 'generate', join(fixture, 'mcp.manifest.yaml'), '--out', join(root, 'clean')], { cwd: repoRoot, encoding: 'utf8' });
    expect(generated.status, generated.stderr).toBe(0);
    await cp(join(fixture, 'handlers'), join(root, 'clean/handlers'), { recursive: true });
    for (const [fault] of FAULTS) {
      await cp(join(root, 'clean'), join(root, fault), { recursive: true });
      await cp(join(fixture, 'faults', fault, 'handlers'), join(root, fault, 'handlers'), { recursive: true });
    }
    // Its own config: the repository's excludes scratch folders like this one.
    const config = join(root, 'vitest.config.mjs');
    // Every suite of the clean copy; only the gates suite of each faulty one (the fault is in its handlers, not its listings).
    await writeFile(config, `export default { test: { include: ['clean/contract/*.test.ts', '*/contract/gates.gen.test.ts'], testTimeout: 60000, hookTimeout: 60000 } };\n`);
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))), NO_COLOR: '1', FORCE_COLOR: '0' };
    const out = join(root, 'report.json');
    const args = [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root, '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
    const run = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.error).toBeUndefined();
    summary = `${run.stdout}\n${run.stderr}`;
    report = JSON.parse(await readFile(out, 'utf8')) as Report;
  }, 600_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const results = (folder: string, suite?: string) =>
    report.testResults.filter((r) => r.name.includes(`/${folder}/contract/${suite ?? ''}`)).flatMap((r) => r.assertionResults);
  const inGate = (a: Assertion, gate: string) => a.ancestorTitles.includes(gate);

  it('passes every contract suite with the handlers as written, in both eras, the gate checks included', () => {
    const all = results('clean');
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((a) => a.status === 'failed').map((a) => a.fullName)).toEqual([]);
    for (const [, gate] of FAULTS) {
      for (const era of ERAS) {
        const ran = results('clean', 'gates.gen.test.ts').filter((a) => inGate(a, gate) && a.ancestorTitles.some((t) => t.includes(era)));
        expect(ran.map((a) => a.status), `${gate} (${era})`).not.toHaveLength(0);
        expect(new Set(ran.map((a) => a.status)), `${gate} (${era})`).toEqual(new Set(['passed']));
      }
    }
  });

  it.each(FAULTS)('%s: fails the %s gate and no other gate, in both eras', (fault, gate) => {
    const failed = results(fault, 'gates.gen.test.ts').filter((a) => a.status === 'failed');
    expect(failed.filter((a) => !inGate(a, gate)).map((a) => a.fullName)).toEqual([]);
    for (const era of ERAS) expect(failed.filter((a) => a.ancestorTitles.some((t) => t.includes(era))).length, era).toBeGreaterThan(0);
    // The assertion message names the gate too, not only the title.
    for (const a of failed) expect(a.failureMessages.join('\n')).toContain(`${gate}:`);
  });

  it.each(FAULTS)('%s: the run summary names the failed gate', (fault, gate) => {
    for (const era of ERAS) expect(summary).toContain(`FAIL  ${fault}/contract/gates.gen.test.ts > gates contract ('${era}') > ${gate} > `);
  });
});
