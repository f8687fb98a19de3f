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

/**
 * The hash of a file emitted with markers, with the run's nonce taken out: its literal text and its texts'
 * keys, in order (`FileTexts.sig`); undefined when a `\uE000` in it does not start a marker of this run.
 */
function signature(content: string, refs: TextRefs): string | undefined {
  const pieces = content.split(`${OPEN}${refs.nonce}`);
  if (content.split(OPEN).length !== pieces.length) return undefined;
  return sha256(pieces.join(OPEN), 'base64url');
}

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

/**
 * The file built from its literal text, the texts rendered this run and those `old` holds (by key), with
 * where each text lies in it; undefined when a text is in neither.
 */
function build(parts: readonly string[], refs: TextRefs, old: { bytes: Uint8Array; at: Readonly<Record<string, readonly [number, number]>> } | undefined, sig: string): { bytes: Buffer; texts: FileTexts } | undefined {
  const out = new Parts(old?.bytes);
  const texts: Record<string, [number, number]> = {};
  for (let i = 1; i < parts.length; i += 2) {
    out.text(parts[i - 1]!);
    const placed = parts[i]!;
    const tilde = placed.indexOf('~');
    const fresh = refs.texts.get(tilde < 0 ? placed : placed.slice(0, tilde));
    const start = out.size;
    if (fresh !== undefined) out.push(Buffer.from(tilde < 0 ? fresh : applyOps(fresh, placed.slice(tilde + 1)), 'utf8'));
    else {
      const at = old !== undefined && Object.hasOwn(old.at, placed) ? old.at[placed]! : undefined;
      if (at === undefined || at[0] + at[1] > old!.bytes.length) return undefined;
      out.copy(at[0], at[1]);
    }
    texts[placed] = [start, out.size - start];
  }
  out.text(parts.at(-1)!);
  out.close();
  return { bytes: Buffer.concat(out.parts, out.size), texts: { sig, texts: JSON.stringify(texts) } };
}

/** Where the texts of a file lie in it, by key (`FileTexts.texts`); nothing when the record does not read. */
function textsOf(record: string): Record<string, readonly [number, number]> {
  try {
    const at = JSON.parse(record) as unknown;
    return at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, readonly [number, number]>) : {};
  } catch {
    return {};
  }
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
    const sig = signature(file.content, refs);
    if (sig === undefined) return 'plain';
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
    const parts = cut(file.content, refs);
    if (parts === undefined) return 'plain';
    let old: { bytes: Uint8Array; at: Readonly<Record<string, readonly [number, number]>> } | undefined;
    if (recorded !== undefined) {
      const bytes = readBytes(safeJoin(outDir, file.path));
      if (bytes !== undefined && bytesHash(bytes) === last!.hash) {
        read.set(file.path, { bytes, hash: last!.hash });
        old = { bytes, at: textsOf(recorded.texts) };
      }
    }
    const built = build(parts, refs, old, sig);
    if (built === undefined) return 'render';
    out.push({ ...file, content: built.bytes, hash: bytesHash(built.bytes) });
    texts.set(file.path, built.texts);
  }
  return { files: out, texts, read };
}
