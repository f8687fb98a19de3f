/**
 * Finding and reading the baseline lock a diff compares against: the output
 * folder's `mcp.lock.json`, a given lock file, or that lock at a git ref.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '../diagnostics.js';
import type { Lock } from './types.js';

const run = promisify(execFile);

/** A parsed baseline and a short description of where it came from. */
export interface Baseline {
  readonly lock: Lock;
  /** `generated/x/mcp.lock.json` or `origin/main:generated/x/mcp.lock.json`. */
  readonly source: string;
}

/** Where to look for the baseline. */
export interface BaselineOptions {
  /** A lock file, an output folder, or a git ref; default: `<outDir>/mcp.lock.json`. */
  readonly against?: string;
  /** The output folder whose `mcp.lock.json` is meant. */
  readonly outDir: string;
  readonly cwd: string;
}

const LOCK = 'mcp.lock.json';

/** A path for messages: relative to the working directory when below it, absolute otherwise. */
const display = (cwd: string, p: string): string => {
  const rel = relative(cwd, p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
};

/** Checks the shape of a parsed lock; throws a `UserError` naming the source when it is not one. */
export function parseLock(text: string, source: string): Lock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${source} is not valid JSON (${(e as Error).message}); give a mcp.lock.json written by mcp-gen.`);
  }
  const v = value as Record<string, unknown> | null;
  const isSection = (s: unknown) => s !== null && typeof s === 'object' && !Array.isArray(s)
    && Object.values(s).every((e) => e !== null && typeof e === 'object' && typeof (e as Record<string, unknown>)['contract'] === 'object');
  if (v === null || typeof v !== 'object' || typeof v['lockVersion'] !== 'number') {
    throw new UserError(`${source} is not an mcp-gen lock file (no lockVersion).`);
  }
  if (v['lockVersion'] !== 1) throw new UserError(`${source} has lockVersion ${String(v['lockVersion'])}; this mcp-gen reads lockVersion 1.`);
  for (const s of ['tools', 'resources', 'prompts']) {
    if (v[s] !== undefined && !isSection(v[s])) throw new UserError(`${source}: "${s}" is not a map of {hash, contract} entries.`);
  }
  return { ...(v as object), tools: v['tools'] ?? {}, resources: v['resources'] ?? {}, prompts: v['prompts'] ?? {} } as Lock;
}

/** Reads the baseline lock; a missing or invalid baseline is a `UserError` that says what to do. */
export async function loadBaseline(options: BaselineOptions): Promise<Baseline> {
  const { against, cwd, outDir } = options;
  if (against === undefined) {
    const file = join(outDir, LOCK);
    if (!existsSync(file)) {
      throw new UserError(`no baseline: ${display(cwd, file)} does not exist. Generate and commit the output first, or pass --against <lock file or git ref>.`);
    }
    return readLockFile(file, display(cwd, file));
  }
  const onDisk = resolve(cwd, against);
  if (existsSync(onDisk)) {
    const file = statSync(onDisk).isDirectory() ? join(onDisk, LOCK) : onDisk;
    if (!existsSync(file)) throw new UserError(`no baseline: ${display(cwd, file)} does not exist.`);
    return readLockFile(file, display(cwd, file));
  }
  return readLockAtRef(against, join(outDir, LOCK), cwd);
}

async function readLockFile(file: string, source: string): Promise<Baseline> {
  return { lock: parseLock(await readFile(file, 'utf8'), source), source };
}

/** The nearest existing folder at or above `p`, so git runs inside the repository that holds it. */
function existingDir(p: string): string {
  let d = p;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

async function git(args: readonly string[], cwd: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const r = await run('git', [...args], { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
    return { ok: true, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; code?: unknown };
    if (err.code === 'ENOENT') throw new UserError('--against names no file on disk, and git is not installed to read it as a ref.');
    return { ok: false, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** Reads `<outDir>/mcp.lock.json` as it was at `ref`. */
async function readLockAtRef(ref: string, lockFile: string, cwd: string): Promise<Baseline> {
  const at = existingDir(dirname(lockFile));
  const inRepo = await git(['rev-parse', '--show-toplevel'], at);
  if (!inRepo.ok) throw new UserError(`--against ${ref}: no such file, and ${display(cwd, at)} is not inside a git repository.`);
  const commit = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], at);
  if (!commit.ok) throw new UserError(`--against ${ref}: no such file, and not a git ref (branch, tag or commit) of this repository.`);
  const path = relative(at, lockFile).split('\\').join('/');
  const shown = await git(['show', `${ref}:./${path}`], at);
  const top = inRepo.stdout.trim();
  const source = `${ref}:${relative(top, join(realpathSync(at), path)).split('\\').join('/')}`;
  if (!shown.ok) throw new UserError(`no baseline: ${source} does not exist (was the output folder committed at ${ref}?).`);
  return { lock: parseLock(shown.stdout, source), source };
}
