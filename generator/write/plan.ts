/**
 * Compares emitted files with what is on disk and decides what to write,
 * keep, edit in place or remove. Generator-owned files are rewritten only
 * while they are exactly what mcp-gen last wrote; author-owned handler files
 * are created once and afterwards only edited surgically.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { EmittedFile } from '../emit/index.js';
import { isGeneratedContent } from '../emit/text.js';
import { toIdentifier, toTypeName } from '../ir/names.js';
import { reconcileHandler } from './handlers.js';
import { planRemovedHandlers, unretire } from './removed.js';
import { contentHash, RECORD_FILE, readRecord, renderRecord } from './record.js';
import type { DiskRecord } from '../cache.js';
import { sameStamp, specHash } from './cache-store.js';

export type Action =
  | { readonly kind: 'write'; readonly path: string; readonly content: string; readonly reason: 'new' | 'changed' | 'edited' | 'moved' }
  | { readonly kind: 'keep'; readonly path: string; readonly reason: 'unchanged' | 'author-owned' }
  | { readonly kind: 'remove'; readonly path: string; readonly reason: 'stale' | 'moved' };

/** Something the author should know; `conflict` notes block the run. */
export interface PlanNote {
  readonly level: 'info' | 'warning' | 'conflict';
  readonly path: string;
  readonly message: string;
}

/** The plan for one output folder. */
export interface WritePlan {
  readonly outDir: string;
  readonly actions: readonly Action[];
  readonly notes: readonly PlanNote[];
  /** Current disk content of files the plan touches (for diffs). */
  readonly before: ReadonlyMap<string, string>;
  /** The content of the ownership record after this plan. */
  readonly record: string;
  /** `sha256:` of every generator-owned file's content, by path (the record's `files`). */
  readonly hashes: Readonly<Record<string, string>>;
}

/** Options of a plan. */
export interface PlanOptions {
  /** Overwrite generated files edited by hand. */
  readonly force?: boolean;
  /** The manifest file name, for the record's header. */
  readonly manifestName: string;
  /**
   * What the last run left in this folder (from the incremental cache): a file whose stamp still matches
   * is known without reading it. A file to be written is read all the same (the journal checks it).
   */
  readonly disk?: DiskRecord;
}

/** Names mcp-gen gives its own files; anything else in the output folder is never touched. */
export const GENERATED_NAME = /(^|\/)([^/]+\.gen(\.test)?\.ts|mcp\.lock\.json|CONTRACTS\.md)$/;

/** Resolves `rel` inside `outDir`, refusing anything that would land outside it. */
export function safeJoin(outDir: string, rel: string): string {
  const target = resolve(outDir, rel);
  const root = resolve(outDir);
  if (rel.includes('\0') || rel.startsWith('/') || (target !== root && !target.startsWith(root + sep))) {
    throw new Error(`Refusing to write outside the output folder: ${rel}`);
  }
  return target;
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** Generated-looking files under `outDir` (relative paths), skipping hidden folders and dependencies. */
export async function listGenerated(outDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      if (e.name === 'node_modules' || e.name.startsWith('.') || (dir === outDir && e.name === 'handlers')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        const rel = relative(outDir, full).split(sep).join('/');
        if (GENERATED_NAME.test(rel)) out.push(rel);
      }
    }
  };
  walk(outDir);
  return out.sort();
}

/** Plans the writes that bring `outDir` up to date with `files`. */
export async function planWrites(outDir: string, files: readonly EmittedFile[], options: PlanOptions): Promise<WritePlan> {
  const actions: Action[] = [];
  const notes: PlanNote[] = [];
  const before = new Map<string, string>();
  const record = await readRecord(outDir);
  const owned: Record<string, string> = {};
  const handlers: Record<string, string> = {};
  const fresh = !existsSync(outDir); // a first run: nothing to read
  const read = async (rel: string) => {
    const path = safeJoin(outDir, rel);
    if (fresh) return undefined;
    const c = readIfExists(path);
    if (c !== undefined) before.set(rel, c);
    return c;
  };

  for (const file of files.filter((f) => f.owner === 'generator')) {
    owned[file.path] = contentHash(file.content);
    const known = options.disk?.files[file.path];
    if (known !== undefined && known.hash === owned[file.path] && sameStamp(outDir, file.path, known)) {
      actions.push({ kind: 'keep', path: file.path, reason: 'unchanged' });
      continue;
    }
    const current = await read(file.path);
    if (current === undefined) actions.push({ kind: 'write', path: file.path, content: file.content, reason: 'new' });
    else if (current === file.content) actions.push({ kind: 'keep', path: file.path, reason: 'unchanged' });
    else if (isOurs(file.path, current, record) || options.force) actions.push({ kind: 'write', path: file.path, content: file.content, reason: 'changed' });
    else notes.push(conflict(file.path, record !== undefined && record.files[file.path] !== undefined));
  }

  for (const file of files.filter((f) => f.owner === 'author')) {
    if (unchangedHandler(file, outDir, options.disk)) {
      handlers[`${file.handler!.kind}:${file.handler!.name}`] = file.path;
      actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
    } else await planHandler(file, outDir, read, actions, notes, handlers);
  }
  // After a contract change, say where a handler's declaration hides the line tsc should point at.
  if (actions.some((a) => a.kind === 'write' && a.path === 'types.gen.ts' && a.reason === 'changed')) {
    for (const file of files.filter((f) => f.owner === 'author' && f.handler?.kind === 'tool')) {
      const note = undeclaredReturn(file.path, file.handler!.id, file.handler!.typeName, before.get(file.path) ?? (await read(file.path)));
      if (note) notes.push(note);
    }
  }

  const emitted = new Set(files.map((f) => f.path));
  const stale = new Set([...Object.keys(record?.files ?? {}), ...(await listGenerated(outDir))]);
  for (const rel of [...stale].sort()) {
    if (emitted.has(rel) || rel === RECORD_FILE) continue;
    const current = await read(rel);
    if (current === undefined) continue;
    if (isOurs(rel, current, record) || options.force) actions.push({ kind: 'remove', path: rel, reason: 'stale' });
    else if (record?.files[rel] !== undefined) notes.push({ level: 'conflict', path: rel, message: 'is no longer generated but was edited by hand; move your changes elsewhere and delete it, or rerun with --force to delete it' });
  }
  const renamed = new Set(files.flatMap((f) => (f.handler?.renamedFrom !== undefined ? [`${f.handler.kind}:${f.handler.renamedFrom}`] : [])));
  await planRemovedHandlers(record?.handlers ?? {}, handlers, renamed, read, actions, notes);

  const recordContent = renderRecord({ files: owned, handlers }, options.manifestName);
  const currentRecord = await read(RECORD_FILE);
  actions.push(currentRecord === recordContent ? { kind: 'keep', path: RECORD_FILE, reason: 'unchanged' } : { kind: 'write', path: RECORD_FILE, content: recordContent, reason: currentRecord === undefined ? 'new' : 'changed' });
  return { outDir, actions, notes, before, record: recordContent, hashes: owned };
}

/**
 * A tool handler written before stubs declared their return type (`async (input, ctx) => {` with no
 * `: Promise<Returns<…>>`): tsc then reports a return that no longer fits the new output on the declaration,
 * with a four-level message, instead of on the `return`. The declaration is the author's line, so it is not
 * edited; the note says what to add.
 */
export function undeclaredReturn(path: string, id: string, typeName: string, content: string | undefined): PlanNote | undefined {
  if (content === undefined) return undefined;
  const escaped = id.replace(/[$]/g, '\\$');
  const m = new RegExp(`export const ${escaped}\\s*:\\s*${typeName}\\s*=\\s*async\\s*(\\([^()]*\\))\\s*=>`).exec(content);
  if (m === null) return undefined;
  const line = content.slice(0, m.index).split('\n').length;
  return {
    level: 'info',
    path,
    message: `line ${line}: ${id} declares no return type, so tsc reports a return that no longer fits the contract here instead of at the return: write \`async ${m[1]}: Promise<Returns<${typeName}>> =>\` and import \`type Returns\` from 'mcp-gen/runtime' (mcp-gen leaves your declaration as it is)`,
  };
}

/** A file on disk is ours to replace when it is exactly what we last wrote (or, without a record, carries our header). */
function isOurs(rel: string, current: string, record: Awaited<ReturnType<typeof readRecord>>): boolean {
  const hash = record?.files[rel];
  if (hash !== undefined) return hash === contentHash(current);
  return isGeneratedContent(current);
}

function conflict(path: string, recorded: boolean): PlanNote {
  return {
    level: 'conflict',
    path,
    message: recorded
      ? 'was edited by hand since mcp-gen wrote it; move your change into a handler (or the manifest) and delete the edit, or rerun with --force to overwrite it'
      : 'exists but was not written by mcp-gen; move it away or choose another --out folder (mcp-gen never overwrites files it does not own)',
  };
}

/** True when the last run left this handler file as its spec asks, and neither changed since. */
function unchangedHandler(file: EmittedFile, outDir: string, disk: DiskRecord | undefined): boolean {
  const known = disk?.handlers[file.path];
  return known !== undefined && file.handler !== undefined && sameStamp(outDir, file.path, known) && known.spec === specHash(file.handler);
}

async function planHandler(
  file: EmittedFile,
  outDir: string,
  read: (rel: string) => Promise<string | undefined>,
  actions: Action[],
  notes: PlanNote[],
  handlers: Record<string, string>,
): Promise<void> {
  const spec = file.handler!;
  handlers[`${spec.kind}:${spec.name}`] = file.path;
  const current = await read(file.path);
  if (current === undefined && spec.renamedFrom !== undefined) {
    const oldId = toIdentifier(spec.renamedFrom);
    const oldPath = file.path.replace(/[^/]+\.ts$/, `${oldId}.ts`);
    const old = oldPath === file.path ? undefined : await read(oldPath);
    if (old !== undefined) {
      const oldType = spec.typeName.replace(/^.*?(Tool|Resource|Prompt)$/, (_m, s: string) => `${toTypeName(spec.renamedFrom!)}${s}`);
      const r = await reconcileHandler(old, spec, { fromId: oldId, fromType: oldType });
      if (r.kind === 'unparseable') {
        notes.push({ level: 'warning', path: oldPath, message: `cannot be parsed (${r.message}); it was not moved to ${file.path}. Fix it and regenerate.` });
        return;
      }
      actions.push({ kind: 'write', path: file.path, content: r.kind === 'edited' ? r.content : old, reason: 'moved' });
      actions.push({ kind: 'remove', path: oldPath, reason: 'moved' });
      notes.push({ level: 'info', path: file.path, message: `moved from ${oldPath} (${spec.kind} renamed from ${spec.renamedFrom})` });
      return;
    }
  }
  if (current === undefined) {
    actions.push({ kind: 'write', path: file.path, content: file.content, reason: 'new' });
    return;
  }
  // A primitive back in the manifest: its handler loses the removal mark and is type-checked again.
  const revived = unretire(current);
  const r = await reconcileHandler(revived, spec);
  if (r.kind === 'unchanged' && revived !== current) actions.push({ kind: 'write', path: file.path, content: revived, reason: 'edited' });
  else if (r.kind === 'unchanged') actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
  else if (r.kind === 'unparseable') {
    actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
    notes.push({ level: 'warning', path: file.path, message: `cannot be parsed (${r.message}); left as it is. Fix it and regenerate.` });
  } else {
    actions.push({ kind: 'write', path: file.path, content: r.content, reason: 'edited' });
    notes.push({ level: 'info', path: file.path, message: r.changes.join('; ') });
  }
}
