/**
 * Puts a list of pieces (emit/lists.ts) into a file being built: the units rendered this run as they are,
 * the others from the old file's bytes (where the last run's record of the list says each one lies), a run
 * of unchanged units as one slice. Operations on the list (`chop`, `tidy`: emit/refs.ts) apply to its last
 * unit, which is as the whole list's end is.
 */
import { sha256, type TextAt } from '../cache.js';
import { type ListRecord, metasText, type PieceList } from '../emit/lists.js';
import type { Parts } from './parts.js';

/** The keys of a list's units, one a line, and a hash of them with its separator (the list's part of a file's `sig`). */
export function listKeys(list: PieceList): { readonly keys: string; readonly hash: string } {
  const keys = list.units().map((u) => u.key).join('\n');
  return { keys, hash: sha256(`${list.sep}\0${keys}`, 'base64url').slice(0, 22) };
}

/** True when the list takes a unit from the old file. */
export const reusesOld = (list: PieceList): boolean => list.units().some((u) => 'old' in u);

/**
 * `text`, the end of a list, after `ops`; undefined when an operation would reach into what comes before
 * it (the text ends up empty), so the whole list would have to be cut.
 */
function cutEnd(text: string, ops: string): string | undefined {
  let t = text;
  for (const op of ops) {
    t = op === 'c' ? t.slice(0, -1) : t.trimEnd();
    if (t === '') return undefined;
  }
  return t;
}

/** Where the last run's units lie in the old file: each one's start, and its bytes and text. */
class OldUnits {
  private readonly starts: number[] = [];
  private readonly last: number;
  private readonly removed: string;
  private readonly removedBytes: number;
  readonly sepBytes: number;

  constructor(
    private readonly record: ListRecord,
    sep: string,
    private readonly bytes: Buffer,
    at: TextAt,
  ) {
    const sepBytes = Buffer.byteLength(sep, 'utf8');
    this.sepBytes = sepBytes;
    let pos = at[0];
    let last = -1;
    for (let j = 0; j < record.lens.length; j++) {
      const n = record.lens[j]!;
      if (n > 0 && last >= 0) pos += sepBytes;
      this.starts.push(pos);
      if (n > 0) (pos += n, (last = j));
    }
    this.last = last;
    this.removed = at[4] ?? '';
    this.removedBytes = Buffer.byteLength(this.removed, 'utf8');
  }

  /** Unit `j`'s bytes in the old file: all of them, unless the old list's operations cut its end. */
  span(j: number): readonly [number, number] | undefined {
    if (j === this.last && this.removedBytes > 0) return undefined;
    return [this.starts[j]!, this.record.lens[j]!];
  }

  /**
   * Where the separator between old units `j` and `k` lies in the old file, when `k` came right after `j`
   * there (only empty units between them): by the record, those bytes are the separator.
   */
  sepBetween(j: number, k: number): number | undefined {
    const end = this.starts[j]! + this.record.lens[j]!;
    return k > j && this.record.lens[j]! > 0 && this.starts[k] === end + this.sepBytes ? end : undefined;
  }

  /** Unit `j`'s whole text. */
  text(j: number): string {
    const cut = j === this.last ? this.removedBytes : 0;
    return this.bytes.toString('utf8', this.starts[j]!, this.starts[j]! + this.record.lens[j]! - cut) + (j === this.last ? this.removed : '');
  }

  /** True when the bytes the record says unit `j` has fit in the old file. */
  fits(j: number): boolean {
    return this.starts[j]! + this.record.lens[j]! <= this.bytes.length + (j === this.last ? this.removedBytes : 0);
  }
}

/**
 * Appends `list`, placed after `ops`, to `out`; `old` is the old file's bytes and where the list lay in them
 * (needed when a unit is the last run's); `keys` is its units' keys as `listKeys` gives them (computed once). Returns what the operations took off the end and the record of
 * the list for the next run (undefined when its metas cannot be kept); undefined when a unit cannot be put
 * in (the old file does not hold it, or an operation reaches past the last unit).
 */
export function placeList(list: PieceList, keys: string, ops: string, out: Parts, old: { readonly bytes: Buffer; readonly at: TextAt } | undefined): { removed: string; record: ListRecord | undefined } | undefined {
  const units = list.units();
  const record = list.last;
  const was = record !== undefined && old !== undefined ? new OldUnits(record, list.sep, old.bytes, old.at) : undefined;
  const nonEmpty = units.map((u) => ('old' in u ? record!.lens[u.old]! > 0 : u.text !== ''));
  const lastNew = nonEmpty.lastIndexOf(true);
  let removed = '';
  let first = true;
  // The old unit just copied whole: a separator after it, before the unit that followed it there, is copied too (not compared).
  let copied: number | undefined;
  for (let i = 0; i < units.length; i++) {
    if (!nonEmpty[i]) continue;
    const u = units[i]!;
    if ('old' in u && (was === undefined || !was.fits(u.old))) return undefined;
    if (!first) {
      const sepAt = copied !== undefined && 'old' in u ? was!.sepBetween(copied, u.old) : undefined;
      if (sepAt !== undefined) out.copy(sepAt, was!.sepBytes);
      else out.text(list.sep);
    }
    first = false;
    copied = undefined;
    if (i === lastNew && ops !== '') {
      const whole = 'old' in u ? was!.text(u.old) : u.text;
      const placed = cutEnd(whole, ops);
      if (placed === undefined) return undefined;
      removed = whole.slice(placed.length);
      out.push(Buffer.from(placed, 'utf8'));
      continue;
    }
    if (!('old' in u)) {
      out.push(Buffer.from(u.text, 'utf8'));
      continue;
    }
    const span = was!.span(u.old);
    if (span === undefined) {
      out.push(Buffer.from(was!.text(u.old), 'utf8'));
    } else {
      out.copy(span[0], span[1]);
      copied = u.old;
    }
  }
  const metas = metasText(list.metas());
  const lens = units.map((u) => ('old' in u ? record!.lens[u.old]! : Buffer.byteLength(u.text, 'utf8')));
  const uses = list.usesText();
  return { removed, record: metas === null ? undefined : { keys, lens, ...(metas !== undefined ? { metas } : {}), ...(uses !== undefined ? { uses } : {}) } };
}
