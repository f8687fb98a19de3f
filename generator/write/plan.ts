/**
 * Compares emitted files with what is on disk and decides what to write,
 * keep or remove. Author-owned files are never overwritten; generated files
 * are only removed when their first line still carries mcp-gen's header.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { EmittedFile } from '../emit/index.js';
import { isGeneratedContent } from '../emit/text.js';
import { UserError } from '../diagnostics.js';

export type Action =
  | { readonly kind: 'write'; readonly file: EmittedFile; readonly reason: 'new' | 'changed' }
  | { readonly kind: 'keep'; readonly file: EmittedFile; readonly reason: 'unchanged' | 'author-owned' }
  | { readonly kind: 'remove'; readonly path: string };

/** The plan for one output folder. */
export interface WritePlan {
  readonly outDir: string;
  readonly actions: readonly Action[];
  /** Current disk content of files the plan touches (for diffs). */
  readonly before: ReadonlyMap<string, string>;
}

const GENERATED_NAME = /(^|\/)([^/]+\.gen\.ts|mcp\.lock\.json|CONTRACTS\.md)$/;

/** Resolves `rel` inside `outDir`, refusing anything that would land outside it. */
export function safeJoin(outDir: string, rel: string): string {
  const target = resolve(outDir, rel);
  const root = resolve(outDir);
  if (rel.includes('\0') || rel.startsWith('/') || (target !== root && !target.startsWith(root + sep))) {
    throw new Error(`Refusing to write outside the output folder: ${rel}`);
  }
  return target;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Generated-looking files under `outDir` (relative paths), skipping author folders and dependencies. */
async function listGenerated(outDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) {
        const rel = relative(outDir, full).split(sep).join('/');
        if (GENERATED_NAME.test(rel)) out.push(rel);
      }
    }
  };
  await walk(outDir);
  return out.sort();
}

/** Plans the writes that bring `outDir` up to date with `files`. */
export async function planWrites(outDir: string, files: readonly EmittedFile[]): Promise<WritePlan> {
  const actions: Action[] = [];
  const before = new Map<string, string>();
  const emitted = new Set(files.map((f) => f.path));
  for (const file of files) {
    const current = await readIfExists(safeJoin(outDir, file.path));
    if (current !== undefined) before.set(file.path, current);
    if (file.owner === 'author') {
      actions.push(current === undefined ? { kind: 'write', file, reason: 'new' } : { kind: 'keep', file, reason: 'author-owned' });
    } else if (current === undefined) {
      actions.push({ kind: 'write', file, reason: 'new' });
    } else if (current === file.content) {
      actions.push({ kind: 'keep', file, reason: 'unchanged' });
    } else {
      if (!isGeneratedContent(current)) {
        throw new UserError(
          `${join(outDir, file.path)} exists but was not written by mcp-gen (its first line is not mcp-gen's header). ` +
            'Move it away or choose another --out folder; mcp-gen never overwrites files it does not own.',
        );
      }
      actions.push({ kind: 'write', file, reason: 'changed' });
    }
  }
  for (const rel of await listGenerated(outDir)) {
    if (emitted.has(rel)) continue;
    const current = await readIfExists(safeJoin(outDir, rel));
    if (current !== undefined && isGeneratedContent(current)) {
      before.set(rel, current);
      actions.push({ kind: 'remove', path: rel });
    }
  }
  return { outDir, actions, before };
}
