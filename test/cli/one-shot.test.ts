/**
 * `generate` and `check` set V8's one-shot flags (generator/cli/oneShot.ts) once they have work to do:
 * never on an up-to-date manifest, never with `MCP_GEN_V8=default`, and the flags are ones this V8 knows
 * and takes mid-run (the run completes and writes what it writes without them).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { binPath } from '../helpers/paths.js';
import { oneToolManifest } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-one-shot-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh copy of the module, so its once-per-process state starts anew. */
async function fresh(): Promise<typeof import('../../generator/cli/oneShot.js')> {
  vi.resetModules();
  return import('../../generator/cli/oneShot.js');
}

describe('tuneOneShotRun', () => {
  it('sets the flags once per process', async () => {
    const { tuneOneShotRun, ONE_SHOT_FLAGS } = await fresh();
    const set: string[] = [];
    expect(tuneOneShotRun({}, (f) => set.push(f))).toBe(true);
    expect(tuneOneShotRun({}, (f) => set.push(f))).toBe(false);
    expect(set).toEqual([ONE_SHOT_FLAGS]);
  });

  it.each(['default', 'DEFAULT', ' default '])('keeps V8 defaults with MCP_GEN_V8=%j', async (value) => {
    const { tuneOneShotRun, ONE_SHOT_ENV } = await fresh();
    const set: string[] = [];
    expect(tuneOneShotRun({ [ONE_SHOT_ENV]: value }, (f) => set.push(f))).toBe(false);
    expect(set).toEqual([]);
  });

  it.each(['', 'on', 'tuned'])('tunes when MCP_GEN_V8 is %j', async (value) => {
    const { tuneOneShotRun, ONE_SHOT_ENV, ONE_SHOT_FLAGS } = await fresh();
    const set: string[] = [];
    expect(tuneOneShotRun({ [ONE_SHOT_ENV]: value }, (f) => set.push(f))).toBe(true);
    expect(set).toEqual([ONE_SHOT_FLAGS]);
  });

  it('sets flags this V8 knows', async () => {
    const { ONE_SHOT_FLAGS } = await fresh();
    const stderrOf = (f: string): string => spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(f)})`], { encoding: 'utf8' }).stderr;
    expect(stderrOf(`${ONE_SHOT_FLAGS}x`)).toContain('unrecognized flag');
    expect(stderrOf(ONE_SHOT_FLAGS)).toBe('');
  });
});

// Loaded before the command: logs every flag string the process hands V8 to $FLAGS_LOG, then sets it.
const HOOK = `const v8 = require('node:v8'); const fs = require('node:fs'); const set = v8.setFlagsFromString;
v8.setFlagsFromString = (f) => { fs.appendFileSync(process.env.FLAGS_LOG, f + '\\n'); return set(f); };
require('node:module').syncBuiltinESMExports();
`;

const manifest = oneToolManifest;

describe('the generate and check commands', () => {
  const dir = join(root, 'project');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  const hook = join(root, 'hook.cjs');
  writeFileSync(hook, HOOK);
  const file = join(dir, 'mcp.manifest.yaml');

  /** Runs the command; returns the flag strings it set and its output. */
  function run(args: readonly string[], env: Record<string, string> = {}): { flags: string[]; status: number | null; stdout: string; stderr: string } {
    const log = join(root, `flags-${Math.random().toString(36).slice(2)}.log`);
    writeFileSync(log, '');
    const r = spawnSync(process.execPath, ['-r', hook, binPath, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env, FLAGS_LOG: log, NO_COLOR: '1' } });
    return { flags: readFileSync(log, 'utf8').split('\n').filter(Boolean), status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('tunes a run with work to do, once, and not an up-to-date one', async () => {
    const { ONE_SHOT_FLAGS } = await fresh();
    writeFileSync(file, manifest('Read one note by id. Read only.'));
    const first = run(['generate', file, '--out', 'out']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.flags).toEqual([ONE_SHOT_FLAGS]);
    const noop = run(['generate', file, '--out', 'out']);
    expect(noop.stdout).toContain('up to date');
    expect(noop.flags).toEqual([]);
    expect(run(['check', file, '--out', 'out']).flags).toEqual([]);

    writeFileSync(file, manifest('Read one note by its id. Read only.'));
    const stale = run(['check', file, '--out', 'out']);
    expect(stale.status).toBe(1);
    expect(stale.flags).toEqual([ONE_SHOT_FLAGS]);
    const edited = run(['generate', file, '--out', 'out']);
    expect(edited.status, edited.stderr).toBe(0);
    expect(edited.stdout).toMatch(/[1-9]\d* updated/);
    expect(edited.flags).toEqual([ONE_SHOT_FLAGS]);
  });

  it.each(['generate', 'check'])('%s --help names MCP_GEN_V8=default', (command) => {
    const help = run([command, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('MCP_GEN_V8=default');
    expect(help.flags).toEqual([]);
  });

  it('keeps V8 defaults with MCP_GEN_V8=default, and writes the same files', async () => {
    writeFileSync(file, manifest('Read one note by id, kept. Read only.'));
    const kept = run(['generate', file, '--out', 'kept', '--no-cache'], { MCP_GEN_V8: 'default' });
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.flags).toEqual([]);
    const tuned = run(['generate', file, '--out', 'tuned', '--no-cache']);
    expect(tuned.status, tuned.stderr).toBe(0);
    expect(tuned.flags.length).toBe(1);
    for (const f of ['server.gen.ts', 'types.gen.ts', 'client.gen.ts', 'mcp.lock.json', 'CONTRACTS.md']) {
      expect(readFileSync(join(dir, 'tuned', f), 'utf8'), f).toBe(readFileSync(join(dir, 'kept', f), 'utf8'));
    }
  });
});
