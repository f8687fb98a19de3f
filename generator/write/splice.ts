/**
 * Puts the texts of pieces into emitted files (emit/refs.ts). A file emitted with markers is its literal
 * text and, in order, the keys of the texts behind its markers; with the incremental cache's record of
 * what the last run wrote (`FileTexts`: that list's hash and where each text lies in the file):
 *
 *   - a file whose list is the last run's is the last run's file: its hash is the recorded one, and it is
 *     neither read nor built while its stamp says nobody touched it;
 *   - any other file is built from the texts rendered this run and, for the others, the bytes the old file
 *     holds under the same key, once the old file is checked against its recorded hash.
 *
 * When a text is in neither (the old file is gone, was edited, or the record is from another run), the
 * caller renders every piece again; a marker that is not this run's (a cut one) makes it render without
 * markers at all. Either way the bytes are those of a run without the cache.
 */
import { readFileSync } from 'node:fs';
import { type DiskRecord, type FileTexts, sha256 } from '../cache.js';
import type { EmittedFile } from '../emit/index.js';
import { applyOps, CLOSE, OPEN, type TextRefs } from '../emit/refs.js';
import { stampIfSame } from './cache-store.js';
import { type PlanFile, safeJoin } from './plan.js';
import { bytesHash } from './record.js';

/** The files with their texts in, and what the record of the next run keeps of each. */
export interface Spliced {
  /** Each file as the plan takes it: a spliced one has its hash, and no content when it is the file on disk. */
  readonly files: readonly PlanFile[];
  /** Where each generated file holds its texts. */
  readonly texts: ReadonlyMap<string, FileTexts>;
  /** Each file read on the way (checked against the record) and its hash, for the plan not to read or hash it again. */
  readonly read: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly hash: string }>;
}

/** Why the files could not be put together: `render` every text again, or go `plain`, without markers. */
export type SpliceFailure = 'render' | 'plain';

/** A file's content cut at its markers: literal texts around each marker's text number and operations. */
interface Cut {
  readonly literals: readonly string[];
  readonly ids: readonly number[];
  readonly ops: readonly string[];
}

/** `content` cut at its markers, or undefined when one is not a marker of `refs`. */
function cut(content: string, refs: TextRefs): Cut | undefined {
  const literals: string[] = [];
  const ids: number[] = [];
  const ops: string[] = [];
  let at = 0;
  for (let i = content.indexOf(OPEN); i >= 0; i = content.indexOf(OPEN, at)) {
    const end = content.indexOf(CLOSE, i);
    if (end < 0 || !content.startsWith(refs.nonce, i + 1)) return undefined;
    // The text's number (digits), then its operations (`c`, `t`).
    let j = i + 1 + refs.nonce.length;
    let id = 0;
    for (let d = content.charCodeAt(j); d >= 48 && d <= 57 && j < end; d = content.charCodeAt(++j)) id = id * 10 + d - 48;
    const op = content.slice(j, end);
    if (j === i + 1 + refs.nonce.length || id >= refs.refs.length || !/^[ct]*$/.test(op)) return undefined;
    literals.push(content.slice(at, i));
    ids.push(id);
    ops.push(op);
    at = end + 1;
  }
  literals.push(content.slice(at));
  return { literals, ids, ops };
}

/** The key of a marker's text as placed: its piece's key and the operations applied to it. */
const placedKey = (refs: TextRefs, id: number, ops: string): string => (ops === '' ? refs.refs[id]!.key : `${refs.refs[id]!.key}/${ops}`);

/** The hash of a file's literal text and of its texts' keys, in order (`FileTexts.sig`). */
function signature(c: Cut, refs: TextRefs): string {
  const parts: string[] = [];
  for (let i = 0; i < c.ids.length; i++) {
    const key = placedKey(refs, c.ids[i]!, c.ops[i]!);
    parts.push(`${c.literals[i]!.length}:${c.literals[i]!}${key.length}:${key}`);
  }
  parts.push(`${c.literals.at(-1)!.length}:${c.literals.at(-1)!}`);
  return sha256(parts.join(''), 'base64url');
}

function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
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

  /** Appends literal text: as part of the run when the old file has the same bytes right after it. */
  text(text: string): void {
    if (text === '') return;
    const bytes = Buffer.from(text, 'utf8');
    const old = this.old;
    const end = this.runEnd + bytes.length;
    if (old !== undefined && this.runEnd >= 0 && end <= old.length && Buffer.compare(bytes, old.subarray(this.runEnd, end)) === 0) this.copy(this.runEnd, bytes.length);
    else this.push(bytes);
  }

  close(): void {
    if (this.runEnd > this.runStart) this.parts.push(this.old!.subarray(this.runStart, this.runEnd));
    this.runStart = this.runEnd = -1;
  }
}

/**
 * The file built from its literal text, the texts rendered this run and those `old` holds (by key), with
 * where each text lies in it; undefined when a text is in neither.
 */
function build(c: Cut, refs: TextRefs, old: { bytes: Uint8Array; at: Map<string, readonly [number, number]> } | undefined, sig: string): { bytes: Buffer; texts: FileTexts } | undefined {
  const out = new Parts(old?.bytes);
  const texts: string[] = [];
  for (let i = 0; i < c.ids.length; i++) {
    out.text(c.literals[i]!);
    const ref = refs.refs[c.ids[i]!]!;
    const key = placedKey(refs, c.ids[i]!, c.ops[i]!);
    const start = out.size;
    if (ref.text !== undefined) out.push(Buffer.from(applyOps(ref.text, c.ops[i]!), 'utf8'));
    else {
      const at = old?.at.get(key);
      if (at === undefined) return undefined;
      out.copy(at[0], at[1]);
    }
    texts.push(`${key} ${start} ${out.size - start}`);
  }
  out.text(c.literals.at(-1)!);
  out.close();
  return { bytes: Buffer.concat(out.parts, out.size), texts: { sig, texts: texts.join('|') } };
}

/**
 * Where the texts of a file lie in it, by key (`FileTexts.texts`); an entry that does not fit in the
 * file's `size` bytes is left out (its text is then rendered again).
 */
function textsOf(record: string, size: number): Map<string, readonly [number, number]> {
  const at = new Map<string, readonly [number, number]>();
  if (record === '') return at;
  for (const entry of record.split('|')) {
    const [key, start, length] = entry.split(' ');
    const s = Number(start);
    const n = Number(length);
    if (key !== undefined && Number.isSafeInteger(s) && Number.isSafeInteger(n) && s >= 0 && n >= 0 && s + n <= size) at.set(key, [s, n]);
  }
  return at;
}

/**
 * Puts the texts into every generator-owned file of `files` (emitted with `refs`), taking those not
 * rendered this run from the files `disk` records in `outDir`.
 */
export function spliceTexts(outDir: string, files: readonly EmittedFile[], refs: TextRefs, disk: DiskRecord | undefined): Spliced | SpliceFailure {
  const out: PlanFile[] = [];
  const texts = new Map<string, FileTexts>();
  const read = new Map<string, { bytes: Uint8Array; hash: string }>();
  for (const file of files) {
    if (file.owner !== 'generator' || !file.content.includes(OPEN)) {
      out.push(file);
      continue;
    }
    const c = cut(file.content, refs);
    if (c === undefined) return 'plain';
    const sig = signature(c, refs);
    const last = disk?.files[file.path];
    const recorded = last?.sig !== undefined && last.texts !== undefined ? { sig: last.sig, texts: last.texts } : undefined;
    if (recorded?.sig === sig) {
      // The last run's file: kept unread while its stamp is the one it left.
      const stamp = stampIfSame(outDir, file.path, last!);
      if (stamp !== undefined) {
        out.push({ ...file, content: undefined, hash: last!.hash, stamp });
        texts.set(file.path, recorded);
        continue;
      }
    }
    let old: { bytes: Uint8Array; at: Map<string, readonly [number, number]> } | undefined;
    if (c.ids.some((id) => refs.refs[id]!.text === undefined) && recorded !== undefined) {
      const bytes = readBytes(safeJoin(outDir, file.path));
      if (bytes !== undefined && bytesHash(bytes) === last!.hash) {
        read.set(file.path, { bytes, hash: last!.hash });
        old = { bytes, at: textsOf(recorded.texts, bytes.length) };
      }
    }
    const built = build(c, refs, old, sig);
    if (built === undefined) return 'render';
    out.push({ ...file, content: built.bytes, hash: bytesHash(built.bytes) });
    texts.set(file.path, built.texts);
  }
  return { files: out, texts, read };
}
