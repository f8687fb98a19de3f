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
import { readFileSync } from 'node:fs';
import { type DiskRecord, type FileTable, type FileTexts, keyHash, sha256, type Stamp, type TextAt } from '../cache.js';
import type { EmittedFile } from '../emit/index.js';
import type { LastFile, LastLayout, Pieces } from '../emit/pieces.js';
import { applyOps, CLOSE, OPEN, type TextRefs } from '../emit/refs.js';
import { stampIfSame } from './cache-store.js';
import { type PlanFile, safeJoin } from './plan.js';
import { bytesHash } from './record.js';

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
    if (f.table !== undefined && f.sig !== undefined && stampIfSame(outDir, path, f) !== undefined) files.set(path, { key: f.key, table: f.table });
  }
  return { global: disk.global, files };
}

/** The hash a text is recorded under (`TextAt`): 132 bits of its sha256. */
const textHash = (text: string): string => sha256(text, 'base64url').slice(0, 22);

function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
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

/** A file's bytes in parts: runs of the old file's bytes kept as one slice each, so few parts are copied. */
class Parts {
  readonly parts: Uint8Array[] = [];
  size = 0;
  /** The run of the old file being extended: the new bytes from `size - (runEnd - runStart)` are its bytes. */
  private runStart = -1;
  private runEnd = -1;

  constructor(private readonly old: Uint8Array | undefined) {}

  /** Appends `bytes`. */
  push(bytes: Uint8Array): void {
    this.close();
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  /** Appends the old file's `length` bytes from `at`. */
  copy(at: number, length: number): void {
    if (at !== this.runEnd) {
      this.close();
      this.runStart = at;
      this.runEnd = at;
    }
    this.runEnd += length;
    this.size += length;
  }

  /**
   * Appends literal text: as part of the run when the old file has the same bytes right after it. Most
   * literal texts are a few ASCII characters, compared with the old bytes as they are (no buffer each).
   */
  text(text: string): void {
    if (text === '') return;
    const old = this.old;
    if (old !== undefined && this.runEnd >= 0 && this.runEnd + text.length <= old.length) {
      let k = 0;
      while (k < text.length && text.charCodeAt(k) < 128 && text.charCodeAt(k) === old[this.runEnd + k]) k++;
      if (k === text.length) return this.copy(this.runEnd, k);
    }
    this.push(Buffer.from(text, 'utf8'));
  }

  close(): void {
    if (this.runEnd > this.runStart) this.parts.push(this.old!.subarray(this.runStart, this.runEnd));
    this.runStart = this.runEnd = -1;
  }
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
    private readonly record: { readonly hash: string; readonly size: number } | undefined,
    private readonly read: Map<string, { bytes: Uint8Array; hash: string }>,
  ) {}

  /** Where the old file holds the text under `key`, when the record says it does. */
  at(key: string): TextAt | undefined {
    const at = this.table !== undefined && Object.hasOwn(this.table.at, key) ? this.table.at[key] : undefined;
    return this.record !== undefined && within(at, this.record.size) ? at : undefined;
  }

  /** The old file's bytes, when they are the ones the record was made of. */
  get(): Buffer | undefined {
    if (this.bytes === undefined) {
      const bytes = this.record === undefined ? undefined : readBytes(safeJoin(this.outDir, this.path));
      this.bytes = bytes !== undefined && bytes.length === this.record!.size && bytesHash(bytes) === this.record!.hash ? bytes : null;
      if (this.bytes !== null) this.read.set(this.path, { bytes: this.bytes, hash: this.record!.hash });
    }
    return this.bytes ?? undefined;
  }
}

/**
 * One text of a file: rendered this run or taken from the old file's bytes after other operations (`text`),
 * or the old file's bytes as they are (`at`), placed after `ops`, which took `removed` off its end.
 */
interface Placed {
  readonly key: string;
  readonly ops: string;
  readonly removed: string;
  readonly hash: string;
  readonly text?: string;
  readonly at?: TextAt;
}

/** `whole` placed after `ops` (which only ever take characters off its end). */
function placedAfter(key: string, ops: string, whole: string): Placed {
  const text = ops === '' ? whole : applyOps(whole, ops);
  return { key, ops, removed: whole.slice(text.length), text, hash: textHash(text) };
}

/** The texts behind a file's markers, each with its hash; undefined when one is neither rendered nor in the old file. */
function placedTexts(parts: readonly string[], refs: TextRefs, old: OldFile): Placed[] | undefined {
  const out: Placed[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const marker = parts[i]!;
    const tilde = marker.indexOf('~');
    const key = tilde < 0 ? marker : marker.slice(0, tilde);
    const ops = tilde < 0 ? '' : marker.slice(tilde + 1);
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

/**
 * What a placed text records of itself at `offset`, `length` bytes long (`TextAt`): after operations, also
 * what they took off, for a run that places it otherwise.
 */
function record(p: Placed, offset: number, length: number): TextAt {
  return p.ops === '' ? [offset, length, p.hash] : [offset, length, p.hash, p.ops, p.removed];
}

/**
 * The file's bytes (when `build`) and where each text lies in them: texts rendered this run as they are,
 * the others copied from the old file's bytes, runs of unchanged bytes as one slice.
 */
function assemble(parts: readonly string[], placed: readonly Placed[], old: Buffer | undefined, build: boolean): { bytes?: Buffer; at: Record<string, TextAt> } {
  const out = new Parts(old);
  const at: Record<string, TextAt> = {};
  let size = 0;
  for (let i = 0; i < placed.length; i++) {
    const lit = parts[2 * i]!;
    if (build) out.text(lit);
    else size += Buffer.byteLength(lit, 'utf8');
    const p = placed[i]!;
    const start = build ? out.size : size;
    if (p.text !== undefined) {
      if (build) out.push(Buffer.from(p.text, 'utf8'));
      else size += Buffer.byteLength(p.text, 'utf8');
    } else if (build) out.copy(p.at![0], p.at![1]);
    else size += p.at![1];
    const end = build ? out.size : size;
    if (!Object.hasOwn(at, p.key)) at[p.key] = record(p, start, end - start);
  }
  if (!build) return { at };
  out.text(parts.at(-1)!);
  out.close();
  return { bytes: Buffer.concat(out.parts, out.size), at };
}

/** How a file this run laid out from pieces is written: as the old file (`undefined` content), or built. */
interface Put {
  readonly file: PlanFile;
  readonly texts: FileTexts;
}

/**
 * A file laid out this run from `pieces` (its content with this run's markers), put together; a failure
 * when a marker is cut or a text is neither rendered nor in the old file.
 */
function put(outDir: string, file: EmittedFile, refs: TextRefs, pieces: Pieces | undefined, disk: DiskRecord | undefined, read: Map<string, { bytes: Uint8Array; hash: string }>): Put | SpliceFailure {
  const parts = cut(file.content, refs);
  if (parts === undefined) return 'plain';
  const laid = pieces?.of(file.path);
  const last = disk?.files[file.path];
  // Texts are taken from the old file only while it is as the last run left it (emit/pieces.ts decides).
  const old = new OldFile(outDir, file.path, laid?.old, laid?.last !== undefined && last !== undefined ? last : undefined, read);
  const placed = placedTexts(parts, refs, old);
  if (placed === undefined) return 'render';
  const sig = signature(parts, placed);
  const table = (at: Record<string, TextAt>) => {
    const json = JSON.stringify({ pieces: laid?.pieces ?? {}, at });
    const h = keyHash(json);
    pieces!.cache.putText(h, json);
    return { sig, ...(laid?.key !== undefined ? { key: laid.key } : {}), table: h };
  };
  if (laid?.last !== undefined && last?.sig === sig) {
    // The last run's bytes: kept unread, with the stamp it was found with.
    const stamp: Stamp = { size: last.size, mtimeMs: last.mtimeMs };
    return { file: { ...file, content: undefined, hash: last.hash, stamp }, texts: table(assemble(parts, placed, undefined, false).at) };
  }
  const reused = placed.some((p) => p.text === undefined);
  const bytes = reused ? old.get() : undefined;
  if (reused && bytes === undefined) return 'render';
  const built = assemble(parts, placed, bytes, true);
  return { file: { ...file, content: built.bytes!, hash: bytesHash(built.bytes!) }, texts: table(built.at) };
}

/**
 * Puts the texts into every generator-owned file of `files` (laid out with `refs` and `pieces`), taking
 * those not rendered this run from the files `disk` records in `outDir`.
 */
export function spliceTexts(outDir: string, files: readonly EmittedFile[], refs: TextRefs, pieces: Pieces | undefined, disk: DiskRecord | undefined): Spliced | SpliceFailure {
  const out: PlanFile[] = [];
  const texts = new Map<string, FileTexts>();
  const read = new Map<string, { bytes: Uint8Array; hash: string }>();
  for (const file of files) {
    const last = disk?.files[file.path];
    if (file.kept === true && last?.sig !== undefined && last.table !== undefined) {
      // Kept by the emitters: the last run's file, with the stamp it was found with.
      out.push({ path: file.path, owner: file.owner, content: undefined, hash: last.hash, stamp: { size: last.size, mtimeMs: last.mtimeMs } });
      texts.set(file.path, { sig: last.sig, ...(last.key !== undefined ? { key: last.key } : {}), table: last.table });
      continue;
    }
    if (file.owner !== 'generator' || pieces?.of(file.path) === undefined) {
      out.push(file);
      continue;
    }
    const done = put(outDir, file, refs, pieces, disk, read);
    if (typeof done === 'string') return done;
    out.push(done.file);
    texts.set(file.path, done.texts);
  }
  return { files: out, texts, read };
}
