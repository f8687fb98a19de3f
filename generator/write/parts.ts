/**
 * A file being put together from literal text, texts rendered this run and runs of the old file's bytes
 * (write/splice.ts), and the content of a file to write: text, bytes, or bytes in parts, written and
 * hashed as they are (a rebuilt file of megabytes is not copied into one buffer first).
 */
import { createHash } from 'node:crypto';
import { open, writeFile } from 'node:fs/promises';

/** What a file to write holds: text, bytes, or bytes in parts (in order). */
export type Content = string | Uint8Array | readonly Uint8Array[];

/** `sha256:<hex>` of bytes in parts, as of the bytes they make up. */
export function partsHash(parts: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return `sha256:${h.digest('hex')}`;
}

/** The content as one text or buffer (for a diff). */
export const whole = (content: Content): string | Uint8Array => (typeof content === 'string' || content instanceof Uint8Array ? content : Buffer.concat(content));

/** Literal texts up to this many characters are compared with the old bytes character by character. */
const SHORT_TEXT = 64;

/** How many buffers one `writev` takes (IOV_MAX on Linux). */
const BATCH = 1024;

/**
 * Writes `content` to `path` (created or truncated) on one of libuv's threads, parts a batch at a time, each
 * batch in one call: a run that writes several files writes them side by side, so the kernel's copies into
 * the page cache take the other core too.
 */
export async function writeContent(path: string, content: Content): Promise<void> {
  if (typeof content === 'string' || content instanceof Uint8Array) return writeFile(path, content);
  const file = await open(path, 'w');
  try {
    for (let i = 0; i < content.length; i += BATCH) {
      const batch = content.slice(i, i + BATCH);
      let { bytesWritten: done } = await file.writev(batch);
      // A short write: the rest of the batch, part by part.
      for (const part of batch) {
        const skip = Math.min(done, part.length);
        done -= skip;
        for (let at = skip; at < part.length; ) at += (await file.write(part, at, part.length - at)).bytesWritten;
      }
    }
  } finally {
    await file.close();
  }
}

/** A file's bytes in parts: runs of the old file's bytes kept as one slice each, so few parts are copied. */
export class Parts {
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
   * literal texts are a few ASCII characters, compared with the old bytes as they are (no buffer each); a
   * longer one (most of the bytes: file headers, blocks that span primitives) is encoded and its bytes
   * compared natively: over the shared files of 1,310 primitives, a loop over its characters cost ~20 ms a
   * change, since nothing optimizes it in a command-line run (generator/cli/oneShot.ts).
   */
  text(text: string): void {
    if (text === '') return;
    const old = this.old;
    const at = this.runEnd;
    if (old === undefined || at < 0 || at + text.length > old.length) return this.push(Buffer.from(text, 'utf8'));
    if (text.length <= SHORT_TEXT) {
      let k = 0;
      while (k < text.length && text.charCodeAt(k) < 128 && text.charCodeAt(k) === old[at + k]) k++;
      if (k === text.length) return this.copy(at, k);
      return this.push(Buffer.from(text, 'utf8'));
    }
    const bytes = Buffer.from(text, 'utf8');
    if (at + bytes.length <= old.length && Buffer.compare(bytes, old.subarray(at, at + bytes.length)) === 0) return this.copy(at, bytes.length);
    this.push(bytes);
  }

  close(): void {
    if (this.runEnd > this.runStart) this.parts.push(this.old!.subarray(this.runStart, this.runEnd));
    this.runStart = this.runEnd = -1;
  }
}

