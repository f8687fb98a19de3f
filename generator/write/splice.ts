/**
 * Puts the texts of pieces into the files emitters laid out (emit/pieces.ts, emit/refs.ts). A file laid out
 * with markers is its literal text and, in order, the keys of the texts behind its markers; the cache's
 * record of what the last run wrote (`FileTexts`, and the file's `FileTable`: where each text lies in it
 * and a hash of that text) says the rest:
 *
 *   - a file the emitters kept (its key is the one recorded) is the last run's file, neither built nor read;
 *   - a file whose literal text and texts' hashes, in order, are the last run's (`FileTexts.sig`) has the
 *     last run's bytes: it is neither built nor read either;
 *   - any other file is built from the texts rendered this run and, for the others, the bytes the old file
 *     holds under the same key, once the old file is checked against its recorded hash.
 *
 * When a text is in neither (the old file is gone, was edited, or the record is from another run), the
 * caller renders every piece again; a marker that is not this run's (a cut one) makes it render without
 * markers at all. Either way the bytes are those of a run without the cache.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { type DiskRecord, type FileTable, type FileTexts, type GenerationCache, keyHash, sha256, type Stamp, type TextAt } from '../cache.js';
import type { EmittedFile } from '../emit/index.js';
import type { ListRecord, PieceList } from '../emit/lists.js';
import type { FilePieces, LastFile, LastLayout, Pieces } from '../emit/pieces.js';
import { applyOps, CLOSE, OPEN, type TextRefs } from '../emit/refs.js';
import { stampIfSame } from './cache-store.js';
import { type PlanFile, safeJoin } from './plan.js';
import { Parts, partsHash } from './parts.js';
import type { Prefetch } from './prefetch.js';
import { bytesHash } from './record.js';
import { listKeys, placeList, reusesOld } from './splice-lists.js';

/** The files with their texts in, and what the record of the next run keeps of each. */
export interface Spliced {
  /** Each file as the plan takes it: a spliced one has its hash, and no content when it is the file on disk. */
  readonly files: readonly PlanFile[];
  /** What each generated file was laid out from. */
  readonly texts: ReadonlyMap<string, FileTexts>;
  /** Each file read on the way (checked against the record) and its hash, for the plan not to read or hash it again. */
  readonly read: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly hash: string }>;
}

/** Why the files could not be put together: `render` every text again, or go `plain`, without markers. */
export type SpliceFailure = 'render' | 'plain';

/**
 * What the last run laid out in `outDir`, of the files still as it left them (their stamps unchanged):
 * the emitters take pieces and texts only from those (emit/pieces.ts).
 */
export function lastLayout(outDir: string, disk: DiskRecord | undefined): LastLayout | undefined {
  if (disk === undefined) return undefined;
  const files = new Map<string, LastFile>();
  for (const [path, f] of Object.entries(disk.files)) {
    if (f.table !== undefined && f.sig !== undefined && stampIfSame(outDir, path, f) !== undefined) files.set(path, { key: f.key, table: f.table, ...(f.uses === true ? { uses: true } : {}) });
  }
  return { global: disk.global, files };
}

/** The hash a text is recorded under (`TextAt`): 132 bits of its sha256. */
const textHash = (text: string): string => sha256(text, 'base64url').slice(0, 22);

/**
 * The bytes of the file at `path` and whether they are those of `recorded` by its stamp: read through one
 * descriptor, whose size and modification time are those of the bytes read (a write after the stat shows
 * as a short or long read, or a new mtime on the next run).
 */
function readBytes(path: string, recorded: Stamp): { readonly bytes: Buffer; readonly stamped: boolean } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (st.size !== recorded.size) return undefined;
    const bytes = Buffer.allocUnsafeSlow(st.size);
    let n = 0;
    while (n < bytes.length) {
      const got = readSync(fd, bytes, n, bytes.length - n, n);
      if (got === 0) return undefined;
      n += got;
    }
    // One more byte would mean the file grew while being read.
    if (readSync(fd, Buffer.allocUnsafe(1), 0, 1, n) !== 0) return undefined;
    return { bytes, stamped: st.mtimeMs === recorded.mtimeMs };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A file's content cut at its markers: literal text, then a marker's key (with `~` and its operations), in
 * turn; undefined when a marker is not whole.
 */
function cut(content: string, refs: TextRefs): string[] | undefined {
  const parts = content.split(new RegExp(`${OPEN}${refs.nonce}([^${CLOSE}]*)${CLOSE}`));
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0 ? parts[i]!.includes(OPEN) : !/^[\w.-]+(~[ct]*)?$/.test(parts[i]!)) return undefined;
  }
  return parts;
}

/** True when `at` reads as a `TextAt` inside a file of `size` bytes. */
function within(at: unknown, size: number): at is TextAt {
  if (!Array.isArray(at) || typeof at[0] !== 'number' || typeof at[1] !== 'number' || typeof at[2] !== 'string') return false;
  return Number.isInteger(at[0]) && Number.isInteger(at[1]) && at[0] >= 0 && at[1] >= 0 && at[0] + at[1] <= size && (at[3] === undefined || (typeof at[3] === 'string' && typeof at[4] === 'string'));
}

/** The old file of a file being put together, read (and checked against its recorded hash) on first need. */
class OldFile {
  private bytes: Buffer | null | undefined;

  constructor(
    private readonly outDir: string,
    private readonly path: string,
    readonly table: FileTable | undefined,
    private readonly record: { readonly hash: string; readonly size: number; readonly mtimeMs: number } | undefined,
    private readonly read: Map<string, { bytes: Uint8Array; hash: string }>,
    private readonly prefetch: Prefetch | undefined,
  ) {}

  /** Where the old file holds the text under `key`, when the record says it does. */
  at(key: string): TextAt | undefined {
    const at = this.table !== undefined && Object.hasOwn(this.table.at, key) ? this.table.at[key] : undefined;
    return this.record !== undefined && within(at, this.record.size) ? at : undefined;
  }

  /**
   * The old file's bytes, when they are the ones the record was made of: the file has the recorded stamp
   * (size and modification time, as the up-to-date check takes them), or else the recorded hash.
   */
  get(): Buffer | undefined {
    if (this.bytes === undefined) {
      const path = this.record === undefined ? undefined : safeJoin(this.outDir, this.path);
      const ahead = path === undefined ? undefined : this.prefetch?.take(path, this.record!);
      const got = path === undefined ? undefined : ahead !== undefined ? { bytes: ahead, stamped: true } : readBytes(path, this.record!);
      this.bytes = got !== undefined && (got.stamped || bytesHash(got.bytes) === this.record!.hash) ? got.bytes : null;
      if (this.bytes !== null) this.read.set(this.path, { bytes: this.bytes, hash: this.record!.hash });
    }
    return this.bytes ?? undefined;
  }
}

/**
 * One text of a file: rendered this run or taken from the old file's bytes after other operations (`text`),
 * or the old file's bytes as they are (`at`), placed after `ops`, which took `removed` off its end; or a
 * list of pieces (`list`), whose hash is that of its units' keys.
 */
type Placed =
  | { readonly key: string; readonly ops: string; readonly hash: string; readonly removed: string; readonly text?: string; readonly at?: TextAt; readonly list?: undefined }
  | { readonly key: string; readonly ops: string; readonly hash: string; readonly list: PieceList; readonly keys: string };

/** `whole` placed after `ops` (which only ever take characters off its end). */
function placedAfter(key: string, ops: string, whole: string): Placed {
  const text = ops === '' ? whole : applyOps(whole, ops);
  return { key, ops, removed: whole.slice(text.length), text, hash: textHash(text) };
}

/**
 * The texts behind a file's markers, each with its hash; undefined when one is neither rendered nor in the
 * old file, or a list is not one of the file's.
 */
function placedTexts(parts: readonly string[], refs: TextRefs, old: OldFile, laid: FilePieces): Placed[] | undefined {
  const out: Placed[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const marker = parts[i]!;
    const tilde = marker.indexOf('~');
    const key = tilde < 0 ? marker : marker.slice(0, tilde);
    const ops = tilde < 0 ? '' : marker.slice(tilde + 1);
    const list = laid.lists.get(key);
    if (list !== undefined) {
      const { keys, hash } = listKeys(list);
      out.push({ key, ops, hash: `${hash}~${ops}`, list, keys });
      continue;
    }
    const fresh = refs.texts.get(key);
    if (fresh !== undefined) {
      out.push(placedAfter(key, ops, fresh));
      continue;
    }
    const at = old.at(key);
    if (at === undefined) return undefined;
    if ((at[3] ?? '') === ops) {
      out.push({ key, ops, removed: at[4] ?? '', at, hash: at[2] });
      continue;
    }
    // Placed after other operations than last time: the whole text is what the old file holds and what they took off.
    const bytes = old.get();
    if (bytes === undefined) return undefined;
    out.push(placedAfter(key, ops, bytes.toString('utf8', at[0], at[0] + at[1]) + (at[4] ?? '')));
  }
  return out;
}

/** The hash of a file's literal text and of the hashes of its texts, in order (`FileTexts.sig`). */
function signature(parts: readonly string[], placed: readonly Placed[]): string {
  const all: string[] = [parts[0]!];
  for (let i = 0; i < placed.length; i++) all.push(`${OPEN}${placed[i]!.hash}${CLOSE}`, parts[2 * i + 2]!);
  return sha256(all.join(''), 'base64url');
}

/** True when every text is the old file's under the key it had there: the file is the old file, and so is its table. */
const allAsBefore = (placed: readonly Placed[]): boolean => placed.every((p) => (p.list !== undefined ? !p.list.units().some((u) => !('old' in u)) : p.at !== undefined));

/** A file built, and its next table. */
interface Built {
  readonly parts: readonly Uint8Array[];
  readonly at: Record<string, TextAt>;
  readonly lists: Record<string, ListRecord>;
}

/**
 * The file's bytes and where each text lies in them: texts rendered this run as they are, the others copied
 * from the old file's bytes, runs of unchanged bytes as one slice; undefined when a list cannot be put in.
 */
function assemble(parts: readonly string[], placed: readonly Placed[], old: OldFile, bytes: Buffer | undefined): Built | undefined {
  const out = new Parts(bytes);
  const at: Record<string, TextAt> = {};
  const lists: Record<string, ListRecord> = {};
  for (let i = 0; i < placed.length; i++) {
    out.text(parts[2 * i]!);
    const p = placed[i]!;
    const start = out.size;
    if (p.list !== undefined) {
      const was = old.at(p.key);
      const done = placeList(p.list, p.keys, p.ops, out, bytes !== undefined && was !== undefined ? { bytes, at: was } : undefined);
      if (done === undefined) return undefined;
      if (done.record !== undefined) lists[p.key] = done.record;
      at[p.key] = p.ops === '' ? [start, out.size - start, p.hash] : [start, out.size - start, p.hash, p.ops, done.removed];
      continue;
    }
    if (p.text !== undefined) out.push(Buffer.from(p.text, 'utf8'));
    else out.copy(p.at![0], p.at![1]);
    // After operations, also what they took off, for a run that places the text otherwise.
    if (!Object.hasOwn(at, p.key)) at[p.key] = p.ops === '' ? [start, out.size - start, p.hash] : [start, out.size - start, p.hash, p.ops, p.removed];
  }
  out.text(parts.at(-1)!);
  out.close();
  return { parts: out.parts, at, lists };
}

/** How a file this run laid out from pieces is written: as the old file (`undefined` content), or built. */
interface Put {
  readonly file: PlanFile;
  readonly texts: FileTexts;
}

/**
 * A file laid out this run from `laid` (its content with this run's markers), put together; a failure
 * when a marker is cut or a text is neither rendered nor in the old file.
 */
function put(outDir: string, file: EmittedFile, refs: TextRefs, laid: FilePieces, cache: GenerationCache, disk: DiskRecord | undefined, read: Map<string, { bytes: Uint8Array; hash: string }>, prefetch: Prefetch | undefined): Put | SpliceFailure {
  const parts = cut(file.content, refs);
  if (parts === undefined) return 'plain';
  const last = disk?.files[file.path];
  // Texts are taken from the old file only while it is as the last run left it (emit/pieces.ts decides).
  const old = new OldFile(outDir, file.path, laid.old, laid.last !== undefined && last !== undefined ? last : undefined, read, prefetch);
  const placed = placedTexts(parts, refs, old, laid);
  if (placed === undefined) return 'render';
  const sig = signature(parts, placed);
  const texts = (table: string, uses: boolean): FileTexts => ({ sig, ...(laid.key !== undefined ? { key: laid.key } : {}), table, ...(uses ? { uses: true as const } : {}) });
  if (laid.last !== undefined && last?.sig === sig && allAsBefore(placed)) {
    // The last run's bytes and table: kept unread, with the stamp the file was found with.
    cache.keep(laid.last.table);
    return { file: { ...file, content: undefined, hash: last.hash, stamp: { size: last.size, mtimeMs: last.mtimeMs } }, texts: texts(laid.last.table, laid.last.uses === true) };
  }
  const reused = placed.some((p) => (p.list !== undefined ? reusesOld(p.list) : p.text === undefined));
  const bytes = reused ? old.get() : undefined;
  if (reused && bytes === undefined) return 'render';
  const built = assemble(parts, placed, old, bytes);
  if (built === undefined) return 'render';
  const json = JSON.stringify({ pieces: laid.pieces, at: built.at, lists: built.lists });
  const h = keyHash(json);
  cache.putText(h, json);
  const uses = Object.values(built.lists).some((l) => l.uses !== undefined);
  return { file: { ...file, content: built.parts, hash: partsHash(built.parts) }, texts: texts(h, uses) };
}

/**
 * Puts the texts into every generator-owned file of `files` (laid out with `refs` and `pieces`), taking
 * those not rendered this run from the files `disk` records in `outDir` (read ahead by `prefetch`, or here).
 */
export function spliceTexts(outDir: string, files: readonly EmittedFile[], refs: TextRefs, pieces: Pieces | undefined, disk: DiskRecord | undefined, prefetch?: Prefetch): Spliced | SpliceFailure {
  const out: PlanFile[] = [];
  const texts = new Map<string, FileTexts>();
  const read = new Map<string, { bytes: Uint8Array; hash: string }>();
  for (const file of files) {
    const last = disk?.files[file.path];
    if (file.kept === true && last?.sig !== undefined && last.table !== undefined) {
      // Kept by the emitters: the last run's file, with the stamp it was found with.
      out.push({ path: file.path, owner: file.owner, content: undefined, hash: last.hash, stamp: { size: last.size, mtimeMs: last.mtimeMs } });
      texts.set(file.path, { sig: last.sig, ...(last.key !== undefined ? { key: last.key } : {}), table: last.table, ...(last.uses === true ? { uses: true } : {}) });
      continue;
    }
    const laid = file.owner === 'generator' ? pieces?.of(file.path) : undefined;
    if (laid === undefined) {
      out.push(file);
      continue;
    }
    const done = put(outDir, file, refs, laid, pieces!.cache, disk, read, prefetch);
    if (typeof done === 'string') return done;
    out.push(done.file);
    texts.set(file.path, done.texts);
  }
  return { files: out, texts, read };
}
