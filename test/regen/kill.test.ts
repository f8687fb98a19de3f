/**
 * Killed at any moment, `mcp-gen generate` leaves the previous output or the
 * new one, never a mix. The output folder holds an older generation (with
 * author edits); `node bin/mcp-gen.js generate <v2> --out <dir>` is killed
 * with SIGKILL:
 *   - right before each of the run's changes to the folder (a preloaded hook,
 *     test/regen/kill-hook.cjs, counts the fs calls and kills the
 *     process itself; generator code is unchanged), and
 *   - after timed delays spread over the run's measured duration, with every
 *     change slowed down a little so that the write phase spans the run.
 * Then: without a journal the tree is exactly all-old or all-new; after
 * `recover()` (what the next run starts with) it is all-old or all-new (all-new
 * when the journal had committed), no staging folder or journal remains, and
 * the next `generate` produces exactly the all-new tree.
 * More points: REGEN_KILL_POINTS=all (every change) and REGEN_KILL_TIMED=<n>.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/paths.js';
import { snapshotTree } from '../helpers/tree.js';
import { Rng, editHandler, emptyUses } from './author.js';
import { type Model, type Primitive, handlerPathOf, render } from './model.js';

const root = join(repoRoot, 'test', `.tmp-kill-${process.pid}`);
const hook = join(repoRoot, 'test', 'regen', 'kill-hook.cjs');
const STAGING = '.mcp-gen-staging';
const JOURNAL = '.mcp-gen-journal.json';

const obj = (names: string[], required: string[] = []): NonNullable<Model['tools'][number]['input']> => ({
  props: names.map((name, i) => ({ name, type: i % 3 === 0 ? { t: 'string' } : i % 3 === 1 ? { t: 'integer' } : { t: 'enum', values: ['low', 'high'] }, required: required.includes(name) })),
  closed: true,
});

/** The older manifest: 8 tools, 3 resources, 2 prompts. */
const v1: Model = {
  tools: ['tickets.get', 'tickets.list', 'tickets.close', 'orders.get', 'orders.refund', 'users.find', 'notes.add', 'tags.sync'].map((name, i) => ({
    kind: 'tool' as const,
    name,
    sideEffect: (['read', 'write', 'irreversible'] as const)[i % 3]!,
    input: obj(['id', 'limit', 'level'], ['id']),
    ...(i % 2 === 0 ? { output: obj(['id', 'count'], ['id']) } : {}),
  })),
  resources: [
    { kind: 'resource', name: 'policy', vars: [], list: false, complete: [] },
    { kind: 'resource', name: 'ticket', vars: ['id'], list: false, complete: [] },
    { kind: 'resource', name: 'day', vars: ['owner', 'day'], list: true, complete: ['owner'] },
  ],
  prompts: [
    { kind: 'prompt', name: 'triage', args: [{ name: 'topic', required: true, complete: false, type: 'string' }], messages: false },
    { kind: 'prompt', name: 'summary', args: [{ name: 'query', required: true, complete: true, type: 'string' }], messages: true },
  ],
};

/** The newer one: tools removed, added, renamed and retyped; list and complete added; prompts gone. */
const v2: Model = {
  tools: [
    ...v1.tools
      .filter((t) => !['tags.sync', 'notes.add'].includes(t.name))
      .map((t) => (t.name === 'users.find' ? { ...t, name: 'users.search', renamedFrom: 'users.find' } : { ...t, input: obj(['id', 'limit', 'level', 'when'], ['id', 'when']) })),
    { kind: 'tool', name: 'invoices.send', sideEffect: 'irreversible', input: obj(['id'], ['id']) },
  ],
  resources: [v1.resources[0]!, { ...(v1.resources[1] as Extract<Primitive, { kind: 'resource' }>), list: true, complete: ['id'] }, v1.resources[2]!],
  prompts: [],
};

interface Tree {
  readonly files: Record<string, string>;
}

/** The output folder's files (contents), without the journal and the staging folder. */
async function tree(dir: string): Promise<Tree> {
  const snap = await snapshotTree(dir);
  return { files: Object.fromEntries([...snap].filter(([p]) => p !== JOURNAL && !p.startsWith(`${STAGING}/`)).map(([p, f]) => [p, f.content])) };
}

function cli(manifest: string, out: string, env: Record<string, string>, killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', hook, binPath, 'generate', manifest, '--out', out], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', MCPGEN_KILL_DIR: out, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: performance.now() - started, stderr });
    });
  });
}

const m1 = join(root, 'v1.manifest.yaml');
const m2 = join(root, 'v2.manifest.yaml');
const base = join(root, 'base');
let oldTree: Tree;
let newTree: Tree;
let ops: string[] = [];
let runMs = 0;
let slowMs = 0;
const SLOW = 25;

beforeAll(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await writeFile(m1, render(v1));
  await writeFile(m2, render(v2));
  // The older generation, with author edits in its handlers.
  const first = await cli(m1, base, {});
  expect(first.code, first.stderr).toBe(0);
  const rng = new Rng(7);
  for (const p of [...v1.tools, ...v1.resources, ...v1.prompts]) {
    const file = join(base, handlerPathOf(p));
    if (!existsSync(file)) continue;
    const edit = editHandler(await readFile(file, 'utf8'), p, emptyUses(), rng, { unparseable: false });
    await writeFile(file, edit.content);
  }
  oldTree = await tree(base);
  // The all-new reference, and the run's changes to the folder, counted and timed.
  const ref = join(root, 'ref-new');
  await cp(base, ref, { recursive: true });
  const log = join(root, 'ops.log');
  const full = await cli(m2, ref, { MCPGEN_KILL_LOG: log });
  expect(full.code, full.stderr).toBe(0);
  runMs = full.ms;
  newTree = await tree(ref);
  ops = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const slowRef = join(root, 'ref-slow');
  await cp(base, slowRef, { recursive: true });
  const slow = await cli(m2, slowRef, { MCPGEN_SLOW_WRITES: String(SLOW) });
  expect(slow.code, slow.stderr).toBe(0);
  slowMs = slow.ms;
  expect((await tree(slowRef)).files).toEqual(newTree.files);
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Kills one run as told, then checks the folder before and after recovery and after the next run. */
async function killAndCheck(label: string, env: Record<string, string>, killAfterMs?: number): Promise<'old' | 'staged' | 'new' | 'committed'> {
  const out = join(root, `run-${label}`);
  await cp(base, out, { recursive: true });
  const r = await cli(m2, out, env, killAfterMs);
  const killed = r.signal === 'SIGKILL';
  const journal = existsSync(join(out, JOURNAL));
  const staged = existsSync(join(out, STAGING));
  const same = (t: Tree) => (JSON.stringify(t.files) === JSON.stringify(oldTree.files) ? 'old' : JSON.stringify(t.files) === JSON.stringify(newTree.files) ? 'new' : 'mixed');
  const before = same(await tree(out));
  if (!journal) expect(before, `${label}: killed=${killed}, no journal, but the tree is mixed`).not.toBe('mixed');
  const { recover } = (await import(join(repoRoot, 'dist', 'write', 'journal.js'))) as typeof import('../../generator/write/journal.js');
  await recover(out);
  expect(existsSync(join(out, STAGING)), `${label}: staging folder left after recover`).toBe(false);
  expect(existsSync(join(out, JOURNAL)), `${label}: journal left after recover`).toBe(false);
  const after = same(await tree(out));
  expect(after, `${label}: mixed after recover`).not.toBe('mixed');
  if (journal) expect(after, `${label}: a committed run was not completed`).toBe('new');
  // The next run (in process, from the same dist/ as the CLI) finishes the job.
  const { generate } = (await import(join(repoRoot, 'dist', 'pipeline.js'))) as typeof import('../../generator/pipeline.js');
  await generate(m2, { outDir: out, cwd: root });
  const final = await tree(out);
  const differ = [...new Set([...Object.keys(final.files), ...Object.keys(newTree.files)])].filter((p) => final.files[p] !== newTree.files[p]);
  expect(differ, `${label}: the next run did not produce the new tree (killed=${killed}, journal=${journal}, before=${before}, after recover=${after})`).toEqual([]);
  await rm(out, { recursive: true, force: true });
  return journal ? 'committed' : before === 'old' ? (staged ? 'staged' : 'old') : 'new';
}

/** Runs `tasks` two at a time (two cores). */
async function pool<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

describe('a generate run killed at any moment', () => {
  it('leaves all-old or all-new, at every change to the output folder', async () => {
    expect(ops.length).toBeGreaterThan(20);
    const commit = ops.findIndex((o) => o.startsWith('rename') && o.endsWith(`-> ${JOURNAL}`)) + 1;
    expect(commit).toBeGreaterThan(0);
    // Every change when asked; otherwise the first and last ones, all around the commit point, and 20 spread over the rest.
    const every = Array.from({ length: ops.length }, (_, i) => i + 1);
    const points = process.env.REGEN_KILL_POINTS === 'all' ? every : [...new Set([1, 2, commit - 2, commit - 1, commit, commit + 1, commit + 2, ops.length - 1, ops.length, ...Array.from({ length: 20 }, (_, i) => Math.round(((i + 0.5) * ops.length) / 20))])].filter((n) => n >= 1 && n <= ops.length).sort((a, b) => a - b);
    expect(ops).toContain(`mkdir ${STAGING}`);
    const runs = await pool(
      points.map((n) => async () => {
        const note = join(root, `kill-note-${n}`);
        const outcome = await killAndCheck(`op${n}`, { MCPGEN_KILL_AT: String(n), MCPGEN_KILL_NOTE: note });
        return { outcome, made: (await readFile(note, 'utf8')).split('\n') };
      }),
    );
    // Killed before the staging folder exists: all old; before the journal's commit: staged (and rolled
    // back); before the journal is removed: committed (and completed by recovery); after: all new. Judged
    // from the changes the killed run itself made, the last of which (the one it was killed at) did not happen.
    points.forEach((n, i) => {
      const { outcome, made } = runs[i]!;
      const happened = made.slice(0, -1);
      const expected = !happened.includes(`mkdir ${STAGING}`)
        ? 'old'
        : !happened.some((o) => o.startsWith('rename') && o.endsWith(`-> ${JOURNAL}`))
          ? 'staged'
          : !happened.includes(`unlink ${JOURNAL}`)
            ? 'committed'
            : 'new';
      expect(made).toHaveLength(n);
      expect(outcome, `killed before change ${n} (${made[n - 1]})`).toBe(expected);
    });
  }, 600_000);

  it('leaves all-old or all-new, killed after random delays over the run', async () => {
    const n = Number(process.env.REGEN_KILL_TIMED ?? 24);
    const seed = Number(process.env.REGEN_SEED ?? Date.now() % 100_000);
    const rng = new Rng(seed);
    // Spread over the (slowed) run and a bit beyond (a loaded machine runs slower), with jitter; the write phase is its last part.
    const delays = Array.from({ length: n }, (_, i) => Math.round(((i + rng.next()) * 1.4 * slowMs) / n));
    const outcomes = await pool(delays.map((d, i) => () => killAndCheck(`t${i}`, { MCPGEN_SLOW_WRITES: String(SLOW) }, d)));
    const counts = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    console.log(`kill test: ${ops.length} changes per run (${runMs.toFixed(0)} ms, ${slowMs.toFixed(0)} ms slowed), ${n} timed kills (seed ${seed}): ${JSON.stringify(counts)}`);
  }, 600_000);

  // Recovery checks each target is still what the interrupted run planned against, so a handler edited
  // between a killed (committed) run and the next run keeps the edit.
  it('keeps a handler edited after a committed run was killed', async () => {
    const commit = ops.findIndex((o) => o.startsWith('rename') && o.endsWith(`-> ${JOURNAL}`)) + 1;
    const edited = ops.slice(commit).find((o) => / -> handlers\//.test(o))!.split(' -> ')[1]!;
    const out = join(root, 'run-edit-after-kill');
    await cp(base, out, { recursive: true });
    // Killed right before the move of that handler file: the journal is committed, the handler not yet moved.
    const at = ops.findIndex((o) => o.endsWith(`-> ${edited}`)) + 1;
    await cli(m2, out, { MCPGEN_KILL_AT: String(at) });
    expect(existsSync(join(out, JOURNAL))).toBe(true);
    const line = '// written by the author after the crash';
    await writeFile(join(out, edited), `${await readFile(join(out, edited), 'utf8')}${line}\n`);
    const { generate } = (await import(join(repoRoot, 'dist', 'pipeline.js'))) as typeof import('../../generator/pipeline.js');
    await generate(m2, { outDir: out, cwd: root });
    expect(await readFile(join(out, edited), 'utf8')).toContain(line);
  }, 60_000);
});
