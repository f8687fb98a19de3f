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
import { bytesHash, contentHash, RECORD_FILE, readRecord, renderRecord } from './record.js';
import { type DiskRecord, specHash, type Stamp } from '../cache.js';
import { stampIfSame } from './cache-store.js';
import { type Content, partsHash } from './parts.js';

export type Action =
  | { readonly kind: 'write'; readonly path: string; readonly content: Content; readonly reason: 'new' | 'changed' | 'edited' | 'moved' }
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
  /**
   * Current disk content of files the plan touches, for diffs: handler files always, generator-owned
   * files only with `PlanOptions.diffs` (a generate run needs only their hashes, `found`).
   */
  readonly before: ReadonlyMap<string, string>;
  /** `sha256:` of every generator-owned file the plan read, as it found it (the journal's expectation). */
  readonly found: ReadonlyMap<string, string>;
  /** Files kept because their stamp is the one the last run left: still their stamp after the write. */
  readonly stamps: ReadonlyMap<string, Stamp>;
  /** The spec hash of each handler file the plan compared with the last run's (see `specHash`). */
  readonly specs: ReadonlyMap<string, string>;
  /** Tool handler files kept as they are whose return type is declared (no `undeclaredReturn` note). */
  readonly declared: ReadonlySet<string>;
  /** Handler file → the `contentHash` of a content of it known to parse (see `DiskRecord.handlers`). */
  readonly parsed: ReadonlyMap<string, string>;
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
  /** Keep the text of generator-owned files found on disk in `before` (for `check`'s diffs). */
  readonly diffs?: boolean;
  /** Generator-owned files read already this run (write/splice.ts), with their hashes: not read again. */
  readonly read?: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly hash: string }>;
}

/**
 * A file to plan: an emitted file, or one put together by write/splice.ts, which may carry its hash, and
 * whose content is undefined when it is the file on disk as the last run left it (with that `stamp`).
 */
export type PlanFile = Omit<EmittedFile, 'content'> & { readonly content: Content | undefined; readonly hash?: string; readonly stamp?: Stamp };

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

function readIfExists(path: string): string | undefined;
function readIfExists(path: string, bytes: true): Buffer | undefined;
function readIfExists(path: string, bytes?: true): string | Buffer | undefined {
  try {
    return bytes ? readFileSync(path) : readFileSync(path, 'utf8');
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

/** What a plan reads from disk and keeps of it (see `WritePlan`). */
interface Reader {
  /** A file's text (kept in `before`), or undefined when absent. */
  read(rel: string): Promise<string | undefined>;
  /**
   * A generator-owned file's `sha256:` (kept in `found`) and a way to its text, without decoding it unless
   * asked; undefined when absent.
   */
  hash(rel: string): { readonly hash: string; text(): string } | undefined;
  readonly before: Map<string, string>;
  readonly found: Map<string, string>;
}

function reader(outDir: string, diffs: boolean, seen: PlanOptions['read']): Reader {
  const before = new Map<string, string>();
  const found = new Map<string, string>();
  const fresh = !existsSync(outDir); // a first run: nothing to read
  return {
    before,
    found,
    async read(rel) {
      const path = safeJoin(outDir, rel);
      if (fresh) return undefined;
      const c = readIfExists(path);
      if (c !== undefined) before.set(rel, c);
      return c;
    },
    hash(rel) {
      const path = safeJoin(outDir, rel);
      const known = seen?.get(rel);
      const bytes = fresh ? undefined : (known?.bytes ?? readIfExists(path, true));
      if (bytes === undefined) return undefined;
      const hash = known?.hash ?? bytesHash(bytes);
      found.set(rel, hash);
      const text = () => before.get(rel) ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      if (diffs) before.set(rel, text());
      return { hash, text };
    },
  };
}

/** Author-owned files: emitted as text, never spliced. */
const isAuthors = (f: PlanFile): f is EmittedFile => f.owner === 'author';

/** `sha256:` of a text or of bytes. */
const hashOf = (content: Content): string => (typeof content === 'string' ? contentHash(content) : content instanceof Uint8Array ? bytesHash(content) : partsHash(content));

/** Plans the writes that bring `outDir` up to date with `files`. */
export async function planWrites(outDir: string, files: readonly PlanFile[], options: PlanOptions): Promise<WritePlan> {
  const actions: Action[] = [];
  const notes: PlanNote[] = [];
  const record = await readRecord(outDir);
  const owned: Record<string, string> = {};
  const handlers: Record<string, string> = {};
  const io = reader(outDir, options.diffs === true, options.read);
  const read = io.read;
  const stamps = new Map<string, Stamp>();
  const specs = new Map<string, string>();
  const declared = new Set<string>();
  const parsed = new Map<string, string>();

  for (const file of files.filter((f) => f.owner === 'generator')) {
    owned[file.path] = file.hash ?? hashOf(file.content!);
    const known = options.disk?.files[file.path];
    const stamp = file.content === undefined ? file.stamp : known !== undefined && known.hash === owned[file.path] ? stampIfSame(outDir, file.path, known) : undefined;
    if (stamp !== undefined) {
      stamps.set(file.path, stamp);
      actions.push({ kind: 'keep', path: file.path, reason: 'unchanged' });
      continue;
    }
    // Read all the same when it is to be written: a hand edit that kept the stamp is still caught here.
    const current = io.hash(file.path);
    if (current === undefined) actions.push({ kind: 'write', path: file.path, content: file.content!, reason: 'new' });
    else if (current.hash === owned[file.path]) actions.push({ kind: 'keep', path: file.path, reason: 'unchanged' });
    else if (isOurs(file.path, current, record) || options.force) actions.push({ kind: 'write', path: file.path, content: file.content!, reason: 'changed' });
    else notes.push(conflict(file.path, record !== undefined && record.files[file.path] !== undefined));
  }

  for (const file of files.filter(isAuthors)) {
    const known = unchangedHandler(file, outDir, options.disk, specs);
    if (known !== undefined) {
      handlers[`${file.handler!.kind}:${file.handler!.name}`] = file.path;
      stamps.set(file.path, known);
      if (options.disk?.handlers[file.path]?.declared === true) declared.add(file.path);
      actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
    }
    const proof = known === undefined ? await planHandler(file, outDir, read, actions, notes, handlers) : undefined;
    // A hash is a fact about a content, so the last run's stays true (and is used once the file has it again).
    const hash = proof !== undefined ? contentHash(proof) : options.disk?.handlers[file.path]?.parsed;
    if (hash !== undefined) parsed.set(file.path, hash);
  }
  await noteUndeclaredReturns(files, actions, notes, io, declared);

  const emitted = new Set(files.map((f) => f.path));
  const stale = new Set([...Object.keys(record?.files ?? {}), ...(await listGenerated(outDir))]);
  for (const rel of [...stale].sort()) {
    if (emitted.has(rel) || rel === RECORD_FILE) continue;
    const current = io.hash(rel);
    if (current === undefined) continue;
    if (isOurs(rel, current, record) || options.force) actions.push({ kind: 'remove', path: rel, reason: 'stale' });
    else if (record?.files[rel] !== undefined) notes.push({ level: 'conflict', path: rel, message: 'is no longer generated but was edited by hand; move your changes elsewhere and delete it, or rerun with --force to delete it' });
  }
  const renamed = new Set(files.flatMap((f) => (f.handler?.renamedFrom !== undefined ? [`${f.handler.kind}:${f.handler.renamedFrom}`] : [])));
  await planRemovedHandlers(record?.handlers ?? {}, handlers, renamed, read, actions, notes, { parsed: (path) => options.disk?.handlers[path]?.parsed }, parsed);

  const recordContent = renderRecord({ files: owned, handlers }, options.manifestName);
  const currentRecord = await read(RECORD_FILE);
  actions.push(currentRecord === recordContent ? { kind: 'keep', path: RECORD_FILE, reason: 'unchanged' } : { kind: 'write', path: RECORD_FILE, content: recordContent, reason: currentRecord === undefined ? 'new' : 'changed' });
  return { outDir, actions, notes, before: io.before, found: io.found, stamps, specs, declared, parsed, record: recordContent, hashes: owned };
}

/**
 * After a contract change, says where a handler's declaration hides the line tsc should point at. A
 * handler kept by its stamp that the last run found declared is not read again. Tool handlers that, as
 * this run leaves them, need no note join `declared`, for the next run: those it checked, wrote, or read
 * for another reason.
 */
async function noteUndeclaredReturns(files: readonly PlanFile[], actions: readonly Action[], notes: PlanNote[], io: Reader, declared: Set<string>): Promise<void> {
  const typesChanged = actions.some((a) => a.kind === 'write' && a.path === 'types.gen.ts' && a.reason === 'changed');
  // Handler files are written as text.
  const written = new Map(actions.flatMap((a) => (a.kind === 'write' && typeof a.content === 'string' ? [[a.path, a.content] as const] : [])));
  for (const file of files.filter(isAuthors).filter((f) => f.handler?.kind === 'tool')) {
    const { id, typeName } = file.handler!;
    const next = written.get(file.path);
    if (typesChanged && !(next === undefined && declared.has(file.path))) {
      // The note is about the declaration as the author left it: the file as found, before any edit.
      const content = io.before.get(file.path) ?? (await io.read(file.path));
      const note = undeclaredReturn(file.path, id, typeName, content);
      if (note) notes.push(note);
      else if (next === undefined && content !== undefined) declared.add(file.path);
    } else if (next === undefined && !declared.has(file.path)) {
      // Read this run all the same (no stamp vouched for it): whether it declares its return is known now,
      // so the next contract change does not read it again (after a run without the cache, every handler).
      const seen = io.before.get(file.path);
      if (seen !== undefined && undeclaredReturn(file.path, id, typeName, seen) === undefined) declared.add(file.path);
    }
    if (next !== undefined && undeclaredReturn(file.path, id, typeName, next) === undefined) declared.add(file.path);
  }
}

/**
 * A tool handler written before stubs declared their return type (`async (input, ctx) => {` with no
 * `: Promise<Returns<…>>`): tsc then reports a return that no longer fits the new output on the declaration,
 * with a four-level message, instead of on the `return`. The declaration is the author's line, so it is not
 * edited; the note says what to add.
 */
export function undeclaredReturn(path: string, id: string, typeName: string, content: string | undefined): PlanNote | undefined {
  if (content === undefined || !content.includes(`export const ${id}`)) return undefined;
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
function isOurs(rel: string, current: { readonly hash: string; text(): string }, record: Awaited<ReturnType<typeof readRecord>>): boolean {
  const hash = record?.files[rel];
  if (hash !== undefined) return hash === current.hash;
  return isGeneratedContent(current.text());
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

/**
 * The file's stamp when the last run left this handler file as its spec asks, and neither changed since
 * (the spec's hash joins `specs`).
 */
function unchangedHandler(file: EmittedFile, outDir: string, disk: DiskRecord | undefined, specs: Map<string, string>): Stamp | undefined {
  if (file.handler === undefined) return undefined;
  const known = disk?.handlers[file.path];
  const f = file as { readonly specHash?: string; readonly specKey?: string };
  // A spec of the key the last run recorded is the spec it recorded: its texts are not rendered for its hash.
  const spec = known !== undefined && f.specKey !== undefined && known.key === f.specKey ? known.spec : (f.specHash ?? specHash(file.handler));
  specs.set(file.path, spec);
  return known !== undefined && known.spec === spec ? stampIfSame(outDir, file.path, known) : undefined;
}

/**
 * Plans one handler file the last run's stamp does not vouch for. Returns the file's content as the plan
 * leaves it when that content is known to parse: a stub the generator wrote, or what TypeScript parsed.
 */
async function planHandler(
  file: EmittedFile,
  outDir: string,
  read: (rel: string) => Promise<string | undefined>,
  actions: Action[],
  notes: PlanNote[],
  handlers: Record<string, string>,
): Promise<string | undefined> {
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
        return undefined;
      }
      const moved = r.kind === 'edited' ? r.content : old;
      actions.push({ kind: 'write', path: file.path, content: moved, reason: 'moved' });
      actions.push({ kind: 'remove', path: oldPath, reason: 'moved' });
      notes.push({ level: 'info', path: file.path, message: `moved from ${oldPath} (${spec.kind} renamed from ${spec.renamedFrom})` });
      return r.parsed ? moved : undefined;
    }
  }
  if (current === undefined) {
    actions.push({ kind: 'write', path: file.path, content: file.content, reason: 'new' });
    return file.content; // the generator's stub (test/generator/escaping.test.ts type-checks stubs of hostile texts)
  }
  // A primitive back in the manifest: its handler loses the removal mark and is type-checked again.
  const revived = unretire(current);
  const r = await reconcileHandler(revived, spec);
  if (r.kind === 'unchanged' && revived !== current) actions.push({ kind: 'write', path: file.path, content: revived, reason: 'edited' });
  else if (r.kind === 'unchanged') actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
  else if (r.kind === 'unparseable') {
    actions.push({ kind: 'keep', path: file.path, reason: 'author-owned' });
    notes.push({ level: 'warning', path: file.path, message: `cannot be parsed (${r.message}); left as it is. Fix it and regenerate.` });
    return undefined;
  } else {
    actions.push({ kind: 'write', path: file.path, content: r.content, reason: 'edited' });
    notes.push({ level: 'info', path: file.path, message: r.changes.join('; ') });
    return r.parsed ? r.content : undefined;
  }
  return r.parsed ? revived : undefined;
}
