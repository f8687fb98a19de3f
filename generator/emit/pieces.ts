/**
 * The pieces of emitted files (a `describe` of a suite, a registration, a card) and the files they make
 * up, with the incremental cache. A piece is what an emitter renders for one primitive (keyed on its kind,
 * the primitive's IR entry and what it reads of other primitives, `more`) or for a block that reads many
 * (keyed on its kind and a text of everything it reads); a file is laid out from its pieces and from
 * literal text, under a key of everything it reads.
 *
 * What the last run laid out is the cache's table of each file (`FileTable`): every piece of the file as
 * kept (its texts left out: the file holds them) and where each text lies in the file. A run asks each
 * file for its pieces: one the table holds comes back with markers in place of its texts (emit/refs.ts),
 * without being rendered, and `write/splice.ts` later takes those texts from the old file; only the pieces
 * whose keys are new are rendered. A file whose key is the one the last run recorded, and which is as the
 * last run left it, is not laid out at all (`FilePieces.kept`).
 *
 * Every table is kept under the server-wide inputs of its run (`global`): a run with other server-wide
 * inputs renders every piece again.
 */
import { type FileTable, type GenerationCache, jsonExact, keyHash } from '../cache.js';
import type { IrPrimitive } from '../ir/types.js';
import { isListRecord, PieceList } from './lists.js';
import { markable, type TextRefs } from './refs.js';

/** A text field kept out of the cache: the file holds it. */
const IN_FILE = 1;

/**
 * An IR entry without its `location`, for fragment keys: no emitter prints where a primitive or schema
 * was declared, and reading the location costs a second, position-keeping parse of the manifest.
 */
export function withoutLocation<T extends { readonly location?: unknown }>(entry: T): Omit<T, 'location'> {
  const { location: _, ...rest } = entry;
  return rest;
}

/** What the last run left of one generated file that is as that run left it (its stamp unchanged). */
export interface LastFile {
  /** The key the file was laid out under, when it had one. */
  readonly key: string | undefined;
  /** The cache fragment holding its `FileTable`. */
  readonly table: string;
  /** True when its table's lists record what their units were made from (`ListRecord.uses`). */
  readonly uses?: true;
}

/** What the last run laid out in the output folder (write/splice.ts `lastLayout`). */
export interface LastLayout {
  /** The hash of the server-wide inputs the tables were kept under. */
  readonly global: string | undefined;
  /** The files still as that run left them, by path. */
  readonly files: ReadonlyMap<string, LastFile>;
}

/**
 * The key of a piece of primitive `entry` (its `entryHash`): 96 bits of the entry's hash (no two of a
 * manifest's primitives share them but by a chance of 1 in 10^20), 66 of `more`'s when it is not empty,
 * and the kind (`.`, never in a hash, separates it).
 */
const pieceKey = (entry: string, more: string, kind: string, hash: (more: string) => string): string => `${entry.slice(0, 16)}${more === '' ? '' : hash(more)}.${kind}`;

/** The key of a block of kind `kind` that reads `inputs`. */
const blockKey = (kind: string, inputs: string): string => `${keyHash(`${kind}\0${inputs}`).slice(0, 16)}.${kind}`;

/** Reads field `f` of a piece (`''`: the piece itself). */
const field = (value: unknown, f: string): unknown => (f === '' ? value : (value as Record<string, unknown>)[f]);

/** `value` with field `f` set to `v` (`''`: `v` itself), copied. */
function withField(value: unknown, f: string, v: unknown): unknown {
  return f === '' ? v : { ...(value as Record<string, unknown>), [f]: v };
}

/** True when `v` reads as a `FileTable`. */
function isTable(v: unknown): v is FileTable {
  const isObject = (o: unknown) => o !== null && typeof o === 'object' && !Array.isArray(o);
  return isObject(v) && isObject((v as FileTable).pieces) && isObject((v as FileTable).at);
}

/** The pieces of one generated file this run. Values handed out are shared with the table: callers do not change them. */
export class FilePieces {
  /** The pieces this run laid the file out from, as kept: the file's next table (with where their texts lie). */
  readonly pieces: Record<string, unknown> = {};
  /** The lists of pieces this run placed in the file, by their markers' keys. */
  readonly lists = new Map<string, PieceList>();
  private oldTable: FileTable | undefined | null = null;

  constructor(
    private readonly run: Pieces,
    readonly path: string,
    /** The key of everything the file is laid out from; undefined when it has none (it is then laid out). */
    readonly key: string | undefined,
    /** The last run's file, when this run may take texts from it. */
    readonly last: LastFile | undefined,
  ) {}

  /** True when the file is the last run's: laid out under the same key and as that run left it. */
  get kept(): boolean {
    return this.key !== undefined && this.last?.key === this.key;
  }

  /** The last run's table of the file, when its texts may be taken from it. */
  get old(): FileTable | undefined {
    if (this.oldTable === null) {
      const t = this.last === undefined ? undefined : this.run.cache.peek(this.last.table);
      this.oldTable = isTable(t) ? t : undefined;
    }
    return this.oldTable;
  }

  /** The key of the piece `kind` of `p` (see `piece`); undefined when it cannot be keyed. */
  pieceKey(kind: string, p: IrPrimitive, more: string | undefined): string | undefined {
    const e = this.run.entry(p);
    return e === undefined || more === undefined ? undefined : pieceKey(e, more, kind, this.run.moreHash);
  }

  /** The key of a block (see `block`); undefined when it cannot be keyed. */
  blockKey(kind: string, inputs: string | undefined): string | undefined {
    return inputs === undefined || this.run.global === undefined ? undefined : blockKey(kind, inputs);
  }

  /**
   * A list of pieces of the file, named `name` (unique in the file), its units joined by `sep` (see
   * emit/lists.ts); it stands behind one marker, and the units the last run had come from the old file.
   */
  list<M>(name: string, sep: string): PieceList<M> {
    const key = `L.${name}`;
    const was = this.run.reuse ? this.old?.lists?.[key] : undefined;
    const cache = this.run.cache;
    const list = new PieceList<M>(name, sep, isListRecord(was) ? was : undefined, this.run.refs.listMarker(key), (h) => cache.keep(h), (make) => cache.track(make));
    this.lists.set(key, list as PieceList);
    return list;
  }

  /**
   * A block that reads many primitives, keyed on `kind` and `inputs`, a text of everything it reads
   * (undefined when that cannot be keyed: the block is then computed).
   */
  block<T>(kind: string, inputs: string | undefined, compute: () => T, texts: readonly string[] = []): T {
    if (inputs === undefined || this.run.global === undefined) return compute();
    return this.keyed(blockKey(kind, inputs), compute, texts);
  }

  /** `block` for text computed asynchronously (see `pieceText`). */
  blockText(kind: string, inputs: string | undefined, compute: () => { readonly text: Promise<string>; readonly keep: boolean }): Promise<string> {
    if (inputs === undefined || this.run.global === undefined) return compute().text;
    return this.keyedText(blockKey(kind, inputs), compute);
  }

  private async keyedText(key: string, compute: () => { readonly text: Promise<string>; readonly keep: boolean }): Promise<string> {
    const kept = this.find(key);
    if (kept !== undefined) return this.markers(kept, [''], key, undefined) as string;
    const { text, keep } = compute();
    const value = await text;
    if (!keep) return value;
    this.keep(key, value, ['']);
    return this.markers(value, [''], key, value) as string;
  }

  private keyed<T>(key: string, compute: () => T, texts: readonly string[]): T {
    const kept = this.find(key);
    if (kept !== undefined) return this.markers(kept, texts, key, undefined) as T;
    const value = compute();
    this.keep(key, value, texts);
    return this.markers(value, texts, key, value) as T;
  }

  /** The piece under `key` as kept, from this run or, when its texts may be taken from the file, the last. */
  private find(key: string): unknown {
    const now = this.pieces[key];
    if (now !== undefined || !this.run.reuse) return now;
    const was = this.old?.pieces[key];
    if (was !== undefined) this.pieces[key] = was;
    return was;
  }

  /** Keeps a piece rendered this run in the file's next table: each text that may stand behind a marker left out. */
  private keep(key: string, value: unknown, texts: readonly string[]): void {
    let out = value;
    for (const f of texts) {
      const t = field(value, f);
      if (typeof t === 'string' && markable(t)) out = withField(out, f, IN_FILE);
    }
    if (jsonExact(out)) this.pieces[key] = out;
  }

  /**
   * A piece as the emitter gets it: each text that may stand behind a marker replaced by one, keyed
   * `<key>.<field>`; `rendered` is the piece rendered this run (its texts go with the markers).
   */
  private markers(value: unknown, texts: readonly string[], key: string, rendered: unknown): unknown {
    let out = value;
    for (const f of texts) {
      const t = field(value, f);
      if (rendered === undefined ? t === IN_FILE : typeof t === 'string' && markable(t)) out = withField(out, f, this.run.refs.marker(`${key}.${f}`, rendered === undefined ? undefined : (t as string)));
    }
    return out;
  }
}

/** Where the cache keeps the summaries of IR entries named `name` (`Pieces.summary`), under the server-wide inputs. */
const summariesKey = (name: string, global: string): string => keyHash(`summaries\0${name}\0${global}`);

/** The pieces of one run, file by file. */
export class Pieces {
  private readonly files = new Map<string, FilePieces>();
  /** Summaries of IR entries by name, each by 132 bits of its entry's hash: the last run's, then this run's. */
  private readonly lastSummaries = new Map<string, Readonly<Record<string, unknown>>>();
  private readonly summaries = new Map<string, Record<string, unknown>>();
  /** Summaries computed this run, by name: none, and the last run's are kept as they were. */
  private readonly computed = new Map<string, number>();
  /** The part of piece keys standing for a `more`, by `more`: many primitives read the same of others. */
  private readonly moreHashes = new Map<string, string>();

  /** 66 bits of the hash of a piece key's `more`, once per run for each text. */
  readonly moreHash = (more: string): string => {
    let h = this.moreHashes.get(more);
    if (h === undefined) this.moreHashes.set(more, (h = keyHash(more).slice(0, 11)));
    return h;
  };

  /**
   * `global` is the hash of the server-wide inputs, undefined when they cannot be hashed (nothing is then
   * kept). Texts are handed out as markers of `refs`; with `reuse` false every piece is rendered again (and
   * kept), for a run that cannot take texts from the files the last run wrote.
   */
  constructor(
    readonly cache: GenerationCache,
    readonly global: string | undefined,
    readonly refs: TextRefs,
    readonly reuse: boolean,
    private readonly last: LastLayout | undefined,
  ) {}

  /** The hash of a primitive's IR entry without its location, once per run; undefined when it is not exact JSON. */
  entry(p: IrPrimitive): string | undefined {
    return this.global === undefined ? undefined : this.cache.entryHash(p);
  }

  /**
   * What `compute` makes of a primitive (a hash of part of it, a count), exact JSON, kept under `name` by
   * the hash of its IR entry and the server-wide inputs: an entry the last run saw is not read again for
   * it. Undefined when the entry cannot be hashed (or `compute` gives undefined).
   */
  summary<T>(name: string, p: IrPrimitive, compute: () => T | undefined): T | undefined {
    const e = this.entry(p);
    if (e === undefined) return undefined;
    const k = e.slice(0, 22);
    let now = this.summaries.get(name);
    if (now === undefined) this.summaries.set(name, (now = {}));
    if (Object.hasOwn(now, k)) return now[k] as T;
    let was = this.lastSummaries.get(name);
    if (was === undefined) {
      const kept = this.cache.peek(summariesKey(name, this.global!));
      was = kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? (kept as Record<string, unknown>) : {};
      this.lastSummaries.set(name, was);
    }
    if (Object.hasOwn(was, k)) return (now[k] = was[k]) as T;
    const value = compute();
    this.computed.set(name, (this.computed.get(name) ?? 0) + 1);
    if (value !== undefined && jsonExact(value)) now[k] = value;
    return value;
  }

  /** A hash of a primitive's IR entry less its prose (`GenerationCache.formHash`), for what reads a primitive but not its description or title. */
  form(p: IrPrimitive): string | undefined {
    return this.summary('form', p, () => this.cache.formHash(p));
  }

  /**
   * Keeps this run's summaries for the next run: as the last run left them when this run computed none and
   * asked for as many (the same), else written again.
   */
  flush(): void {
    for (const [name, values] of this.summaries) {
      const key = summariesKey(name, this.global!);
      const same = !this.computed.has(name) && Object.keys(this.lastSummaries.get(name) ?? {}).length === Object.keys(values).length;
      if (!same || !this.cache.keep(key)) this.cache.putText(key, JSON.stringify(values));
    }
  }

  /**
   * The pieces of the file at `path`, laid out from the server-wide inputs and `inputs`, a text of
   * everything else it reads (undefined when that cannot be keyed: the file is then always laid out).
   */
  open(path: string, inputs: string | undefined): FilePieces {
    const key = inputs === undefined || this.global === undefined ? undefined : keyHash(`file\0${path}\0${this.global}\0${inputs}`);
    const last = this.reuse && this.global !== undefined && this.last?.global === this.global ? this.last.files.get(path) : undefined;
    // A file kept as it is keeps its table for the next run, unread (a table the cache lost keeps nothing).
    const kept = last !== undefined && key !== undefined && last.key === key;
    const file = new FilePieces(this, path, key, kept && !this.cache.keep(last.table) ? undefined : last);
    // A file kept whole copies every unit of its lists: what they were made from is kept as a copied unit's is.
    if (kept && file.last?.uses === true) this.keepUses(file.old);
    this.files.set(path, file);
    return file;
  }

  /** Keeps, for the next run, what every unit of `table`'s lists was made from (`ListRecord.uses`). */
  private keepUses(table: FileTable | undefined): void {
    const kept = new Set<string>();
    for (const list of Object.values(table?.lists ?? {})) {
      if (!isListRecord(list) || list.uses === undefined) continue;
      for (const unit of list.uses.split(' ')) for (const h of unit === '' ? [] : unit.split(',')) kept.add(h);
    }
    for (const h of kept) this.cache.keep(h);
  }

  /** The pieces of a file laid out this run, for write/splice.ts. */
  of(path: string): FilePieces | undefined {
    return this.files.get(path);
  }
}
