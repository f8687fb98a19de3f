/**
 * A file being put together from literal text, texts rendered this run and runs of the old file's bytes
 * (write/splice.ts).
 */

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

