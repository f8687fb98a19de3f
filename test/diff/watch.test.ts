/**
 * `mcp-gen generate --watch`: the loop with injected I/O (events, debounce,
 * failed runs, the watched set), then the real command in a child process.
 */
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchGenerate, type WatchDeps } from '../../generator/cli/watch.js';
import { Findings, UserError } from '../../generator/diagnostics.js';
import type { GenerateResult } from '../../generator/pipeline.js';
import { binPath } from '../helpers/paths.js';
import { contentsOf, snapshotTree, tempDir } from '../helpers/tree.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ok` until it holds or `ms` pass. */
async function until(ok: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('the watch loop (injected I/O)', () => {
  function harness(results: (GenerateResult | Error)[]) {
    const out: string[] = [];
    const err: string[] = [];
    const dirs = new Map<string, (name: string | null) => void>();
    const closed: string[] = [];
    let stop!: () => void;
    let runs = 0;
    const deps: WatchDeps = {
      generate: async () => {
        const r = results[Math.min(runs++, results.length - 1)]!;
        if (r instanceof Error) throw r;
        return r;
      },
      inputsOf: async () => ['/p/mcp.manifest.yaml'],
      watchDir: (dir, onEvent) => {
        dirs.set(dir, onEvent);
        return { close: () => closed.push(dir) };
      },
      stopped: () => new Promise<void>((r) => (stop = r)),
      now: () => new Date(2026, 0, 1, 12, 0, 0),
      debounceMs: 5,
    };
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), color: false };
    return { deps, io, out, err, dirs, closed, stop: () => stop(), runs: () => runs };
  }

  const result = (created: string[], written: string[], inputs: string[]): GenerateResult =>
    ({ outDir: `${process.cwd()}/out`, inputs, diagnostics: [], findings: new Findings([]), notes: [], report: { created, written, edited: [], removed: [], unchanged: 0 } }) as unknown as GenerateResult;

  it('runs once, watches the folders of every input, reruns on a save of one of them only, and survives a failed run', async () => {
    const h = harness([
      result(['server.gen.ts', 'handlers/tools/a.ts'], [], ['/p/mcp.manifest.yaml', '/p/schemas/a.json']),
      result([], ['server.gen.ts'], ['/p/mcp.manifest.yaml']),
      new UserError('mcp.manifest.yaml: 1 error; nothing was written.'),
      result([], [], ['/p/mcp.manifest.yaml']),
    ]);
    const done = watchGenerate('mcp.manifest.yaml', {}, h.io, h.deps);
    await until(() => h.out.some((l) => l.startsWith('Watching')), 2000, 'first run');
    expect(h.out.slice(0, 3)).toEqual([
      '[12:00:00] mcp.manifest.yaml → out: 2 created, 0 updated, 0 handler files edited, 0 removed',
      '  new handler stub: out/handlers/tools/a.ts',
      'Watching 2 files for changes; press Ctrl-C to stop.',
    ]);
    expect([...h.dirs.keys()].sort()).toEqual(['/p', '/p/schemas']);

    h.dirs.get('/p')!('notes.txt'); // not an input
    await sleep(50);
    expect(h.runs()).toBe(1);

    h.dirs.get('/p/schemas')!('a.json');
    h.dirs.get('/p/schemas')!('a.json'); // one save, several events: one run
    await until(() => h.runs() === 2, 2000, 'second run');
    await sleep(50);
    expect(h.runs()).toBe(2);
    expect(h.out.at(-1)).toBe('[12:00:00] mcp.manifest.yaml → out: 0 created, 1 updated, 0 handler files edited, 0 removed');
    expect(h.closed).toEqual(['/p/schemas']); // the schema file is no longer read

    h.dirs.get('/p')!('mcp.manifest.yaml');
    await until(() => h.err.some((l) => l.includes('kept the last good output')), 2000, 'failed run');
    expect(h.err).toContain('[12:00:00] error: mcp.manifest.yaml: 1 error; nothing was written.');

    h.dirs.get('/p')!('mcp.manifest.yaml');
    await until(() => h.runs() === 4, 2000, 'recovery run');
    await sleep(20);
    expect(h.out.at(-1)).toBe('[12:00:00] mcp.manifest.yaml → out: no changes');

    h.stop();
    expect(await done).toBe(0);
    expect(h.closed).toContain('/p');
  });
});

const manifest = (tools: string[]) => `mcpgen: 1
server:
  name: notes
  version: 1.0.0
tools:
${tools
  .map((t) => `  notes.${t}:
    title: ${t} notes
    description: Look up notes (${t}). Read only. Not for writing notes.
    sideEffect: read
    input:
      type: object
      properties:
        text: { type: string, maxLength: 100 }
      additionalProperties: false
`)
  .join('')}`;

describe('mcp-gen generate --watch', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('mcp-gen-watch-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('regenerates on save, keeps the last good output on a broken save, and exits 0 on Ctrl-C', { timeout: 120_000 }, async () => {
    const file = join(dir, 'mcp.manifest.yaml');
    const out = join(dir, 'out');
    const server = join(out, 'server.gen.ts');
    await writeFile(file, manifest(['get']));
    const child = spawn(process.execPath, [binPath, 'generate', file, '--out', out, '--watch'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const has = (needle: string) => async () => (await readFile(server, 'utf8').catch(() => '')).includes(needle);
    try {
      await until(() => stdout.includes('Watching'), 60_000, `the first run (stderr: ${stderr})`);
      expect(stdout).toMatch(/: \d+ created, 0 updated/);

      await writeFile(file, manifest(['get', 'find']));
      await until(has("'notes.find'"), 60_000, 'notes.find in server.gen.ts');
      await until(() => /1 created, \d+ updated/.test(stdout), 10_000, 'the second run line');

      const good = contentsOf(await snapshotTree(out));
      await writeFile(file, `${manifest(['get', 'find'])}  notes.bad:\n    sideEffect: sometimes\n`);
      await until(() => stderr.includes('kept the last good output'), 60_000, 'the error report');
      expect(stderr).toContain('error');
      expect(stderr).toContain('sometimes');
      await sleep(300);
      expect(contentsOf(await snapshotTree(out))).toEqual(good);

      await writeFile(file, manifest(['get', 'find', 'list']));
      await until(has("'notes.list'"), 60_000, 'notes.list in server.gen.ts after the fix');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
