/**
 * The large generated files a regeneration may take texts from (write/splice.ts), read on libuv's threads
 * while this one reads, checks and lays out the manifest. A change to one primitive rewrites the files that
 * list every primitive (the server, the client, the schemas, the contract card, the lock), and each is put
 * together from the texts rendered this run and the bytes the old file holds; reading those bytes is then
 * no longer on the run's path.
 *
 * A file is read only while it has the stamp the last run recorded (size and modification time, as the
 * up-to-date check takes them), and its bytes are offered only when the file had that stamp both before
 * and after the read. A file the run does not need is read for nothing: files below {@link PREFETCH_MIN_BYTES}
 * are left to be read on need.
 */
import { closeSync, fstatSync, openSync, read } from 'node:fs';
import type { DiskRecord, Stamp } from '../cache.js';
import { safeJoin } from './plan.js';

/** Files smaller than this are read when needed, not ahead. */
export const PREFETCH_MIN_BYTES = 64 * 1024;

const sameStamp = (a: { size: number; mtimeMs: number }, b: Stamp): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs;

/** The bytes of old generated files read ahead, by absolute path. */
export class Prefetch {
  private readonly pending: Promise<void>[] = [];
  private readonly bytes = new Map<string, { readonly bytes: Buffer; readonly stamp: Stamp }>();

  /**
   * Starts reading, on libuv's threads, every file of `disk` laid out from pieces (the files a splice
   * reads) of at least `min` bytes that still has its recorded stamp.
   */
  static start(disk: DiskRecord | undefined, min = PREFETCH_MIN_BYTES): Prefetch {
    const p = new Prefetch();
    if (disk === undefined) return p;
    for (const [rel, f] of Object.entries(disk.files)) {
      if (f.size < min || f.table === undefined || f.sig === undefined) continue;
      let path: string;
      try {
        path = safeJoin(disk.outDir, rel);
      } catch {
        continue;
      }
      p.readAhead(path, f);
    }
    return p;
  }

  /** Opens and stats here (a few microseconds), reads on a libuv thread, checks and closes on completion. */
  private readAhead(path: string, recorded: Stamp): void {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return;
    }
    let buffer: Buffer;
    try {
      if (!sameStamp(fstatSync(fd), recorded)) throw new Error('changed');
      buffer = Buffer.allocUnsafeSlow(recorded.size);
    } catch {
      closeSync(fd);
      return;
    }
    this.pending.push(
      new Promise<void>((resolve) => {
        read(fd, buffer, 0, buffer.length, 0, (err, n) => {
          try {
            // Whole, and the file's stamp after the read is still the recorded one: these are its bytes.
            if (!err && n === buffer.length && sameStamp(fstatSync(fd), recorded)) this.bytes.set(path, { bytes: buffer, stamp: recorded });
          } catch {
            // Gone or unreadable: read on need, which then decides.
          } finally {
            closeSync(fd);
            resolve();
          }
        });
      }),
    );
  }

  /** Waits for the reads started (each settles, read or not). */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** The bytes read ahead of the file at `path` when they were read with the stamp `recorded`. */
  take(path: string, recorded: Stamp): Buffer | undefined {
    const got = this.bytes.get(path);
    if (got === undefined || !sameStamp(got.stamp, recorded)) return undefined;
    this.bytes.delete(path);
    return got.bytes;
  }
}
