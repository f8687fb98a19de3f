/**
 * Lists of pieces in a generated file: the registrations of `server.gen.ts`, the `describe`s of a suite, the
 * entries of the lock. A list is its units (each a piece's text, with what the list puts around it) joined
 * by a separator, empty units left out; the emitter places it as one text.
 *
 * With the incremental cache, the list stands behind one marker (emit/refs.ts), and only the units whose
 * keys are new are rendered: the last run's list (its units' keys and byte lengths, and what each told the
 * emitter, `meta`) is compared with this run's keys from both ends, and the units the last run had are
 * taken from the old file by write/splice.ts, a run of unchanged units as one slice. Nothing is laid out
 * for the units that did not change. What a unit was made from in the cache (`Made.uses`: the laid-out type
 * declarations of a primitive) is recorded with the list and kept for the next run while the unit is
 * copied: a later run that renders it again (its description changed) finds them, and compiles nothing.
 */
import { jsonExact } from '../cache.js';

/** A unit as its piece renders it: its text in the list, and what the emitter reads of it. */
export interface Made<M> {
  readonly text: string;
  readonly meta?: M;
  /** False when the text read more than the unit's key holds: it is used for this run only. */
  readonly keep?: false;
  /** The key hashes of the cache fragments the text was made from, kept for the next run while the unit is. */
  readonly uses?: readonly string[];
}

/** What the last run recorded of a list (`FileTable.lists`). */
export interface ListRecord {
  /** The units' keys, in order, one a line. */
  readonly keys: string;
  /** Each unit's text's length in bytes, before the operations on the list (emit/refs.ts). */
  readonly lens: readonly number[];
  /** Each unit's `meta`, as a JSON array; absent when no unit had one. */
  readonly metas?: string;
  /** Each unit's `uses`, joined by `,`, the units' joined by ` ` (key hashes hold neither); absent when no unit had any. */
  readonly uses?: string;
}

/** True when `v` reads as a `ListRecord` of consistent lengths. */
export function isListRecord(v: unknown): v is ListRecord {
  const r = v as ListRecord;
  if (v === null || typeof v !== 'object' || typeof r.keys !== 'string' || !Array.isArray(r.lens) || (r.metas !== undefined && typeof r.metas !== 'string') || (r.uses !== undefined && typeof r.uses !== 'string')) return false;
  return r.lens.every((n) => Number.isInteger(n) && n >= 0) && (r.keys === '' ? 0 : r.keys.split('\n').length) === r.lens.length;
}

/** Where a unit of the list comes from: rendered this run, or unit `old` of the last run's list. */
export type Resolved<M> = { readonly key: string; readonly text: string; readonly meta: M | undefined; readonly uses?: readonly string[] } | { readonly key: string; readonly old: number };

/** The keyed units of a list before they are resolved. */
interface Pending<M> {
  readonly key: string | undefined;
  readonly make: () => Made<M> | Promise<Made<M>>;
}

/**
 * Which units of this run's list `keys` the last run's list `old` holds (by index there): those of the
 * common start and end, and any in between it also had; undefined for a unit to render.
 */
export function reuse(keys: readonly (string | undefined)[], old: readonly string[]): (number | undefined)[] {
  const m = keys.length;
  const n = old.length;
  let p = 0;
  while (p < m && p < n && keys[p] !== undefined && keys[p] === old[p]) p++;
  let s = 0;
  while (s < m - p && s < n - p && keys[m - 1 - s] !== undefined && keys[m - 1 - s] === old[n - 1 - s]) s++;
  const between = new Map<string, number>();
  for (let j = p; j < n - s; j++) between.set(old[j]!, j);
  const out: (number | undefined)[] = new Array(m);
  for (let i = 0; i < m; i++) out[i] = i < p ? i : i >= m - s ? i - m + n : keys[i] === undefined ? undefined : between.get(keys[i]!);
  return out;
}

/** One list of a file this run (see the module comment). */
export class PieceList<M = unknown> {
  private readonly pending: Pending<M>[] = [];
  private resolved: Resolved<M>[] | undefined;
  private from: (number | undefined)[] | undefined;
  private oldMetas: unknown[] | undefined;
  private oldUses: string[] | undefined;
  /** The samples and verdicts each unit rendered this run used, by index (see `track`). */
  private tracked: (readonly string[] | undefined)[] | undefined;

  /**
   * `old` is the last run's record of the list when its texts may be taken from the old file; `marker`
   * stands for the list in the file's content (undefined: the list is its text, a run without markers).
   */
  constructor(
    readonly name: string,
    readonly sep: string,
    private readonly old: ListRecord | undefined,
    private readonly marker: string | undefined,
    /** Keeps a cache fragment, by its key hash, for the next run (what a copied unit was made from). */
    private readonly keepUsed?: (h: string) => void,
    /** Runs a unit's `make`, with the key hashes of the samples and verdicts it used (`GenerationCache.track`). */
    private readonly track?: <T>(make: () => T) => { readonly value: T; readonly used: readonly string[] },
  ) {}

  /** Adds a unit under `key` (undefined: never kept, rendered every run), rendered by `make` when the last run had none. */
  add(key: string | undefined, make: () => Made<M> | Promise<Made<M>>): void {
    if (this.resolved !== undefined) throw new Error(`internal error: a unit added to list ${this.name} after it was placed`);
    this.pending.push({ key, make });
  }

  /** The list as placed in the content: its marker, or its text (`''` when every unit is empty). Every unit renders synchronously. */
  done(): string {
    const made = this.resolve();
    if (made.some((m) => m instanceof Promise)) throw new Error(`internal error: list ${this.name} has a unit rendered asynchronously`);
    return this.finish(made as (Made<M> | undefined)[]);
  }

  /** `done` for units rendered asynchronously (started in order, before any is awaited). */
  async doneAsync(): Promise<string> {
    return this.finish(await Promise.all(this.resolve()));
  }

  /** Each unit's `meta`, in order (once placed). */
  metas(): (M | undefined)[] {
    // A unit without a meta is kept as null.
    return this.units().map((u) => ('old' in u ? ((this.lastMetas()[u.old] ?? undefined) as M | undefined) : u.meta));
  }

  /** True when every unit is empty: the list's text is (once placed). */
  get empty(): boolean {
    return this.units().every((u) => ('old' in u ? this.old!.lens[u.old] === 0 : u.text === ''));
  }

  /** The units as resolved (once placed), for write/splice.ts. */
  units(): readonly Resolved<M>[] {
    if (this.resolved === undefined) throw new Error(`internal error: list ${this.name} read before it was placed`);
    return this.resolved;
  }

  /** The last run's record of the list, when units are taken from it. */
  get last(): ListRecord | undefined {
    return this.old;
  }

  /** What each unit was made from in the cache, as `ListRecord.uses` keeps it (once placed); undefined when no unit has anything. */
  usesText(): string | undefined {
    const last = this.lastUses();
    const all = this.units().map((u) => ('old' in u ? (last[u.old] ?? '') : (u.uses ?? []).join(',')));
    return all.every((x) => x === '') ? undefined : all.join(' ');
  }

  /** The last run's `uses` of each unit. */
  private lastUses(): string[] {
    return (this.oldUses ??= this.old?.uses === undefined ? [] : this.old.uses.split(' '));
  }

  /** The metas of the last run's units. */
  private lastMetas(): unknown[] {
    if (this.oldMetas === undefined) {
      const parsed = this.old?.metas === undefined ? [] : (JSON.parse(this.old.metas) as unknown);
      this.oldMetas = Array.isArray(parsed) ? parsed : [];
    }
    return this.oldMetas;
  }

  /** Renders the units the last run's list does not hold, in order. */
  private resolve(): (Made<M> | Promise<Made<M>> | undefined)[] {
    const keys = this.pending.map((u) => u.key);
    this.from = this.old === undefined || this.marker === undefined ? keys.map(() => undefined) : reuse(keys, this.old.keys === '' ? [] : this.old.keys.split('\n'));
    this.tracked = [];
    return this.pending.map((u, i) => {
      if (this.from![i] !== undefined) return undefined;
      if (this.track === undefined) return u.make();
      const { value, used } = this.track(u.make);
      if (used.length > 0) this.tracked![i] = used;
      return value;
    });
  }

  private finish(made: readonly (Made<M> | undefined)[]): string {
    const out: Resolved<M>[] = [];
    for (let i = 0; i < this.pending.length; i++) {
      const m = made[i];
      // A unit never kept is recorded under a key no unit has.
      const key = m?.keep === false ? NEVER : (this.pending[i]!.key ?? NEVER);
      const uses = m === undefined || m.keep === false ? undefined : withTracked(m.uses, this.tracked?.[i]);
      out.push(m !== undefined ? { key, text: m.text, meta: m.meta, ...(uses !== undefined ? { uses } : {}) } : { key, old: this.from![i]! });
    }
    this.resolved = out;
    // A unit copied from the old file keeps what it was made from: a later run that renders it finds that.
    if (this.keepUsed !== undefined && this.old?.uses !== undefined) {
      const last = this.lastUses();
      // Once each: units of one kind share their samples.
      const kept = new Set<string>();
      for (const u of out) if ('old' in u && last[u.old]) for (const h of last[u.old]!.split(',')) kept.add(h);
      kept.forEach(this.keepUsed);
    }
    // A list of empty units (or none) is no text, marker or not: an emitter tests it for emptiness.
    if (this.marker !== undefined && !this.empty) return this.marker;
    return out.flatMap((u) => ('text' in u && u.text !== '' ? [u.text] : [])).join(this.sep);
  }
}

/** A unit's `uses` with the hashes `track` gave for it, each once; undefined when it has none. */
function withTracked(uses: readonly string[] | undefined, tracked: readonly string[] | undefined): readonly string[] | undefined {
  if (tracked === undefined) return uses;
  return uses === undefined ? tracked : [...new Set([...uses, ...tracked])];
}

/** The key a unit never kept is recorded under (keys are hashes). */
export const NEVER = '-';

/**
 * The metas of a list as the table keeps them: a JSON array (nothing when no unit has one); null when
 * they are not exact JSON, and the list is then not kept.
 */
export function metasText(metas: readonly unknown[]): string | undefined | null {
  if (metas.every((m) => m === undefined)) return undefined;
  const all = metas.map((m) => (m === undefined ? null : m));
  return jsonExact(all) ? JSON.stringify(all) : null;
}
