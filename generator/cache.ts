/**
 * The incremental-generation cache: results of pure steps of a run, kept so the next run of the same
 * manifest reuses what its change did not touch. It is an object the caller creates and passes in
 * (`RunOptions.cache`), like the type compiler; nothing is held in module state.
 *
 * What it holds, each keyed by a hash of everything the result depends on:
 *   - compiled type bodies: json-schema-to-typescript's output for one schema body;
 *   - samples: the value `SampleMaker` makes for one schema, and its verdicts on one value;
 *   - schema checks: that one schema of the manifest is valid JSON Schema (meta-validation, patterns);
 *   - fragments: a result computed for one primitive or schema (lint findings, a manifest entry parsed, a
 *     type declaration), keyed by everything it reads, and each generated file's table (`FileTable`: the
 *     pieces it was laid out from, less their texts, and where those texts lie in it);
 *   - disk stamps: the hash, size and modification time of every file the last run left in its output
 *     folder, and for each handler file the hash of the handler spec it was reconciled with, so the plan
 *     does not read again what nobody touched since;
 *   - texts of files: what each generated file was laid out from (`FileTexts`), so the next run keeps it
 *     without laying it out, or takes the texts of its pieces from it rather than render them
 *     (emit/pieces.ts, write/splice.ts).
 * Entries carry no meaning of their own: a result is reused only under the exact key it was computed
 * for, and a cache from another build of mcp-gen, another library version or a damaged file is
 * dropped whole (see `GenerationCache.parse`). A run that uses the cache emits the same bytes as one
 * without it (`test/generator/incremental.test.ts`).
 */
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import type { HandlerSpec } from './emit/handlers.js';

/** The file format: a file of another format is dropped whole. */
const FORMAT = 6;

/** What a cache holds (the file `write/cache-store.ts` keeps, see `GenerationCache.serialize`). */
interface CacheData {
  readonly format: typeof FORMAT;
  /** The build of mcp-gen and the versions of the libraries whose output is cached. */
  readonly version: string;
  readonly types: Readonly<Record<string, string>>;
  /** A sample by schema key: `[value]`, or `[]` when no sample could be made. */
  readonly samples: Readonly<Record<string, readonly unknown[]>>;
  readonly verdicts: Readonly<Record<string, boolean>>;
  /**
   * Fragments (a piece of a file without its texts, a type declaration, lint findings) by the hash of all
   * they read: each as its JSON text, or as its line of the file read (`hash text`), decoded when used.
   */
  readonly fragments?: ReadonlyMap<string, string | Buffer>;
  readonly disk?: DiskRecord;
  /** Which of the entries above the run that wrote them kept unused, for one run (see `toParts`). */
  readonly spare?: Spare;
}

/** The first line of a cache file after its checksum: everything but the fragments, the spare entries apart. */
interface CacheFileHead extends Omit<CacheData, 'fragments' | 'spare'> {
  readonly spare?: { readonly types?: Readonly<Record<string, string>>; readonly samples?: Readonly<Record<string, readonly unknown[]>>; readonly verdicts?: Readonly<Record<string, boolean>> };
}

/** The hashes of a cache's entries kept unused by the run that wrote it, by kind. */
interface Spare {
  readonly types: ReadonlySet<string>;
  readonly samples: ReadonlySet<string>;
  readonly verdicts: ReadonlySet<string>;
  readonly fragments: ReadonlySet<string>;
}

const NO_SPARE: Spare = { types: new Set(), samples: new Set(), verdicts: new Set(), fragments: new Set() };

/** A fragment's line: `hash text`, or `hash!text` for one the run that wrote it kept unused. */
const USED = 32;
const SPARED = 33;

/** A file as the last run left it. */
export interface Stamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * What the last run laid out one generated file from, so the next run can take the texts of its pieces
 * from it rather than render them (emit/pieces.ts, write/splice.ts).
 */
export interface FileTexts {
  /** A hash of the file's literal text and of the hashes of its texts, in order: equal, the bytes are the same. */
  readonly sig: string;
  /** A hash of everything the file is laid out from (emit/pieces.ts): equal, the file is the same. */
  readonly key?: string;
  /** The cache fragment holding the file's `FileTable`. */
  readonly table: string;
  /** True when the table's lists record what their units were made from (`ListRecord.uses`): a run keeping the file whole keeps that too. */
  readonly uses?: true;
}

/**
 * Where a text of a piece lies in its file: byte offset, byte length and a hash of the text as placed, then,
 * for a text placed after operations (emit/refs.ts), those operations and what they took off its end.
 */
export type TextAt = readonly [offset: number, length: number, hash: string, ops?: string, removed?: string];

/**
 * The pieces a generated file was laid out from: each piece as kept (its texts left out, `1` in their place),
 * by its key, where each text lies in the file, by its key, and the lists of pieces it holds.
 */
export interface FileTable {
  readonly pieces: Readonly<Record<string, unknown>>;
  readonly at: Readonly<Record<string, TextAt>>;
  /** The lists of pieces the file holds, by name (emit/lists.ts: `ListRecord`). */
  readonly lists?: Readonly<Record<string, unknown>>;
}

/** What the last run left in one output folder. */
export interface DiskRecord {
  readonly outDir: string;
  /** The hash of the server-wide inputs of the run (emit/context.ts): pieces of files are kept under it. */
  readonly global?: string;
  /** Generator-owned file → its `sha256:` hash and stamp, and what it was laid out from (see `FileTexts`). */
  readonly files: Readonly<Record<string, Stamp & { readonly hash: string } & Partial<FileTexts>>>;
  /**
   * Handler file → the hash of the spec it was reconciled with, and its stamp; `declared` when a tool
   * handler declares its return type as it stands (so a contract change has nothing to note on it); `key`,
   * the key of the primitive's IR entry the spec follows from (equal, the spec is the same); `parsed`, the
   * `contentHash` of a content of the file a run knew to parse (it wrote that content, or TypeScript parsed
   * it), so a run that finds that content and must know whether it parses (write/removed.ts) need not load
   * TypeScript.
   */
  readonly handlers: Readonly<Record<string, Stamp & { readonly spec: string; readonly declared?: true; readonly key?: string; readonly parsed?: string }>>;
}

/** What samples the emitters ask for; `SampleMaker` has this shape. */
export interface Samples {
  sample(schema: unknown): unknown;
  valid(schema: unknown, value: unknown): boolean;
}

/** `crypto.hash` (Node 20.12 and later): a one-shot hash, without the cost of a `Hash` object per key. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url' | 'hex') => string }).hash;

/** sha256 of `text` in `encoding`, one-shot where Node has it. */
export function sha256(text: string, encoding: 'base64url' | 'hex'): string {
  return oneShot !== undefined ? oneShot('sha256', text, encoding) : crypto.createHash('sha256').update(text).digest(encoding);
}

/**
 * The hash of everything a handler file is reconciled against (the spec's JSON), as the disk record keeps
 * it (`DiskRecord.handlers`).
 */
export function specHash(spec: HandlerSpec): string {
  return sha256(JSON.stringify(spec), 'base64url');
}

/** A hash of a key: cache files stay small however large the schemas. */
export function keyHash(text: string): string {
  return sha256(text, 'base64url');
}

/** The length of a `keyHash` (sha256 in base64url). */
const HASH_LENGTH = 43;

/**
 * True when `JSON.parse(JSON.stringify(v))` is exactly `v`: no `undefined`, no `-0`, no infinities or NaN,
 * no holes, only plain objects. Only such values are keyed or stored, so a cached answer is always the answer.
 */
export function jsonExact(v: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !jsonExact(v[i], depth + 1)) return false;
    return true;
  }
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k of Object.keys(v)) if (k === '__proto__' || !jsonExact((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const allOf = (o: unknown, ok: (v: unknown) => boolean): boolean => isRecord(o) && Object.values(o).every(ok);
const isStamp = (v: unknown): v is Stamp => isRecord(v) && typeof v['size'] === 'number' && typeof v['mtimeMs'] === 'number';

function validTexts(f: unknown): boolean {
  const { sig, key, table, uses } = f as Record<string, unknown>;
  return typeof sig === 'string' && typeof table === 'string' && (key === undefined || typeof key === 'string') && (uses === undefined || uses === true);
}

function validDisk(d: unknown): d is DiskRecord {
  const field = (v: unknown, k: string): unknown => (v as Record<string, unknown>)[k];
  return (
    isRecord(d) &&
    typeof d['outDir'] === 'string' &&
    (d['global'] === undefined || typeof d['global'] === 'string') &&
    allOf(d['files'], (f) => isStamp(f) && typeof field(f, 'hash') === 'string' && (field(f, 'sig') === undefined || validTexts(f))) &&
    allOf(d['handlers'], (h) => isStamp(h) && typeof field(h, 'spec') === 'string' && (field(h, 'declared') === undefined || field(h, 'declared') === true) && (field(h, 'key') === undefined || typeof field(h, 'key') === 'string') && (field(h, 'parsed') === undefined || typeof field(h, 'parsed') === 'string'))
  );
}

/**
 * The checksum of a cache file's body (given in parts): CRC-32 and the length. It guards against a truncated
 * or damaged file, not against a forged one (a file in the project's own node_modules), and costs a fraction
 * of a hash.
 */
function checksum(body: readonly Uint8Array[]): string {
  const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  const length = body.reduce((n, b) => n + b.length, 0);
  if (crc32 !== undefined) return `crc32:${body.reduce((c, b) => crc32(b, c), 0).toString(16)}:${length}`;
  // Node before 20.15 has no zlib.crc32: sha256 then (a file written by one is not read by the other).
  const h = crypto.createHash('sha256');
  for (const b of body) h.update(b);
  return `sha256:${h.digest('base64url')}`;
}

/** The bytes after a cache file's checksum line, when the checksum is right. */
function checkedBody(bytes: Buffer): Buffer | undefined {
  const nl = bytes.indexOf(10);
  if (nl < 0) return undefined;
  const body = bytes.subarray(nl + 1);
  return checksum([body]) === bytes.toString('latin1', 0, nl) ? body : undefined;
}

/**
 * The fragments of a cache file's body after its first line (`hash text`, one a line) and where each
 * one's line lies in `body`, or undefined when a line is malformed.
 */
function fragmentLines(body: Buffer, from: number): { readonly lines: Map<string, Buffer>; readonly spared: Set<string> } | undefined {
  const lines = new Map<string, Buffer>();
  const spared = new Set<string>();
  let at = from;
  while (at < body.length) {
    let end = body.indexOf(10, at);
    if (end < 0) end = body.length;
    const sep = body[at + HASH_LENGTH];
    if (end - at <= HASH_LENGTH || (sep !== USED && sep !== SPARED)) return undefined;
    const h = body.toString('latin1', at, at + HASH_LENGTH);
    lines.set(h, body.subarray(at, end));
    if (sep === SPARED) spared.add(h);
    at = end + 1;
  }
  return { lines, spared };
}

/** The entries of `old` that `used` lacks and that were not already spare (`spared`), or undefined when none. */
function spareOf<T>(old: Readonly<Record<string, T>>, used: Readonly<Record<string, T>>, spared: ReadonlySet<string>): Record<string, T> | undefined {
  let out: Record<string, T> | undefined;
  for (const k in old) if (!(k in used) && !spared.has(k)) (out ??= {})[k] = old[k]!;
  return out;
}

/** How the first line's compiled types, samples and verdicts (and those of its `spare`) are checked. */
const VALID = {
  types: (o: unknown): boolean => allOf(o, (v) => typeof v === 'string'),
  samples: (o: unknown): boolean => allOf(o, (v) => Array.isArray(v) && v.length <= 1),
  verdicts: (o: unknown): boolean => allOf(o, (v) => typeof v === 'boolean'),
} as const;

/** Results of the pure steps of generation, reused across runs of one manifest. */
export class GenerationCache {
  private readonly old: CacheData;
  /**
   * What this run used or computed: that is kept, with what the last run used and this one did not, for one
   * run (spare, see `toParts`), so the cache holds what two consecutive runs used at most.
   */
  private types: Record<string, string> = {};
  private samples: Record<string, readonly unknown[]> = {};
  private verdicts: Record<string, boolean> = {};
  /** Fragments used or computed: the JSON text, or the line of the file read, for one used as it was. */
  private fragments = new Map<string, string | Buffer>();
  private disk: DiskRecord | undefined;
  /** The sample and verdict hashes used while `track` runs its function (see `track`). */
  private tracked: string[] | undefined;
  /** Fragments read with `peek` (replaced by this run, never kept spare). */
  private readonly peeked = new Set<string>();
  /** `entryHash` of each IR entry this run. */
  private readonly entries = new WeakMap<object, string | undefined>();

  /** An empty cache for `version` (see `cacheVersion` in write/cache-store.ts). */
  constructor(readonly version: string, data?: CacheData) {
    this.old = data ?? { format: FORMAT, version, types: {}, samples: {}, verdicts: {} };
    this.disk = data?.disk;
  }

  /**
   * The cache a file holds, or an empty one when the file is not a cache of this `version` (another build
   * of mcp-gen, another library version, truncated or edited): a cache that might not fit is never used.
   * `text` may be the file's bytes (as `openCache` reads it): the checksum is taken over bytes either way.
   */
  static parse(text: string | Uint8Array | undefined, version: string): GenerationCache {
    const bytes = text === undefined ? undefined : typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const body = bytes === undefined ? undefined : checkedBody(bytes);
    if (body === undefined) return new GenerationCache(version);
    const headEnd = body.indexOf(10) < 0 ? body.length : body.indexOf(10);
    let d: unknown;
    try {
      d = JSON.parse(body.toString('utf8', 0, headEnd));
    } catch {
      return new GenerationCache(version);
    }
    const read = fragmentLines(body, headEnd + 1);
    const spare = isRecord(d) ? d['spare'] : undefined;
    const ok =
      read !== undefined &&
      isRecord(d) &&
      d['format'] === FORMAT &&
      d['version'] === version &&
      Object.entries(VALID).every(([kind, valid]) => valid(d[kind])) &&
      (d['disk'] === undefined || validDisk(d['disk'])) &&
      (spare === undefined || (isRecord(spare) && Object.entries(VALID).every(([kind, valid]) => spare[kind] === undefined || valid(spare[kind]))));
    if (!ok) return new GenerationCache(version);
    const head = d as unknown as CacheFileHead;
    const keys = (o: Readonly<Record<string, unknown>> | undefined): ReadonlySet<string> => new Set(o === undefined ? [] : Object.keys(o));
    return new GenerationCache(version, {
      format: FORMAT,
      version,
      types: { ...head.spare?.types, ...head.types },
      samples: { ...head.spare?.samples, ...head.samples },
      verdicts: { ...head.spare?.verdicts, ...head.verdicts },
      fragments: read.lines,
      ...(head.disk !== undefined ? { disk: head.disk } : {}),
      spare: { types: keys(head.spare?.types), samples: keys(head.spare?.samples), verdicts: keys(head.spare?.verdicts), fragments: read.spared },
    });
  }

  /**
   * The text of what this run used (and the disk record), for the next run: a checksum line, a JSON line
   * with everything but the fragments, then one line per fragment (`hash text`). Fragments are JSON texts
   * already, so they are written and read as they are: no second escaping, no parse of the whole.
   */
  serialize(): string {
    return this.toBytes().toString('utf8');
  }

  /** `serialize` as the file's bytes: encoded once, for the checksum and the write. */
  toBytes(): Buffer {
    return Buffer.concat(this.toParts());
  }

  /** `toBytes` in parts, in order: the file's bytes without a copy of every fragment into one buffer. */
  toParts(): Uint8Array[] {
    // What the last run used and this one did not is kept once more, unused ("spare"): a change undone in
    // the next run (a tool removed and put back, a description changed back) finds what it needs. A spare
    // entry unused again is dropped, so the file holds what two runs used at most; a file's table, which
    // each run replaces, is never spare.
    const was = this.old.spare ?? NO_SPARE;
    const spareTypes = spareOf(this.old.types, this.types, was.types);
    const spareSamples = spareOf(this.old.samples, this.samples, was.samples);
    const spareVerdicts = spareOf(this.old.verdicts, this.verdicts, was.verdicts);
    const spare = spareTypes || spareSamples || spareVerdicts ? { ...(spareTypes ? { types: spareTypes } : {}), ...(spareSamples ? { samples: spareSamples } : {}), ...(spareVerdicts ? { verdicts: spareVerdicts } : {}) } : undefined;
    const head: CacheFileHead = { format: FORMAT, version: this.version, types: this.types, samples: this.samples, verdicts: this.verdicts, ...(this.disk ? { disk: this.disk } : {}), ...(spare ? { spare } : {}) };
    const body: Uint8Array[] = [Buffer.from(JSON.stringify(head), 'utf8')];
    const nl = Buffer.from('\n');
    // A fragment kept from the file read goes back as the bytes it was read from: not encoded again. (A
    // callback, not an iterator: a command-line run does not optimize, and each step would allocate.)
    this.fragments.forEach((text, h) => body.push(nl, typeof text === 'string' ? Buffer.from(`${h} ${text}`, 'utf8') : text));
    this.old.fragments?.forEach((text, h) => {
      if (this.fragments.has(h) || was.fragments.has(h) || this.peeked.has(h)) return;
      if (typeof text === 'string') body.push(nl, Buffer.from(`${h}!${text}`, 'utf8'));
      else body.push(nl, Buffer.from(`${h}!`, 'latin1'), text.subarray(HASH_LENGTH + 1));
    });
    // The first line checks the rest: a damaged file is dropped, not half used.
    return [Buffer.from(`${checksum(body)}\n`, 'latin1'), ...body];
  }

  /** Starts the next run in the same process (the watch loop): everything kept so far may be reused. */
  carryOver(): GenerationCache {
    // What this run did not use is spare for the next one, as in a file this run wrote (see `toParts`).
    const unused = (old: Readonly<Record<string, unknown>>, used: Readonly<Record<string, unknown>>): ReadonlySet<string> => new Set(Object.keys(old).filter((k) => !(k in used)));
    const fragments = new Set<string>();
    this.old.fragments?.forEach((_, h) => this.fragments.has(h) || fragments.add(h));
    const next = new GenerationCache(this.version, {
      format: FORMAT,
      version: this.version,
      types: { ...this.old.types, ...this.types },
      samples: { ...this.old.samples, ...this.samples },
      verdicts: { ...this.old.verdicts, ...this.verdicts },
      fragments: new Map([...(this.old.fragments ?? []), ...this.fragments]),
      ...(this.disk ? { disk: this.disk } : {}),
      spare: { types: unused(this.old.types, this.types), samples: unused(this.old.samples, this.samples), verdicts: unused(this.old.verdicts, this.verdicts), fragments },
    });
    return next;
  }

  /**
   * True when the last run left compiled types, or fragments (laid-out type declarations among them):
   * this run will probably compile few types or none, so the compiler may start on the first miss.
   */
  get hasTypes(): boolean {
    return Object.keys(this.old.types).length > 0 || (this.old.fragments?.size ?? 0) > 0;
  }

  /**
   * The text each IR entry of this run is a function of, less where it was declared, when the front of the
   * pipeline knows one (manifest/entries.ts `keyOf`: the entry's text and the sections its steps read);
   * `entryHash` hashes that rather than the entry.
   */
  entryKeys: ((entry: object) => string | undefined) | undefined;

  /**
   * The hash of an IR entry less where it was declared, computed once per run however many steps key on
   * it (the pieces of files; lint could too): of the text the entry is a function of when `entryKeys` knows
   * it, else of the entry's JSON; undefined when the entry is not exact JSON (a key holding it is then never
   * cached). Equal hashes stand for equal entries.
   */
  entryHash(entry: { readonly location?: unknown }): string | undefined {
    if (this.entries.has(entry)) return this.entries.get(entry);
    const text = this.entryKeys?.(entry);
    let h: string | undefined;
    if (text !== undefined) h = keyHash(`entry text\0${text}`);
    else {
      const { location: _, ...rest } = entry;
      h = jsonExact(rest) ? keyHash(`entry\0${JSON.stringify(rest)}`) : undefined;
    }
    this.entries.set(entry, h);
    return h;
  }

  /**
   * The hash of an IR entry less where it was declared and its prose (its `description` and `title`), for
   * what reads a primitive but not its prose; undefined when the entry is not exact JSON.
   */
  formHash(entry: { readonly location?: unknown; readonly description?: unknown; readonly title?: unknown }): string | undefined {
    const { location: _l, description: _d, title: _t, ...rest } = entry;
    return jsonExact(rest) ? keyHash(JSON.stringify(rest)) : undefined;
  }

  /** The compiled body of a type under `key` (the body's JSON), computing it with `compile` when not cached. */
  async typeBody(key: string, compile: () => Promise<string>): Promise<string> {
    const h = keyHash(key);
    const hit = this.types[h] ?? this.old.types[h];
    if (hit !== undefined) return (this.types[h] = hit);
    const code = await compile();
    this.types[h] = code;
    return code;
  }

  /** True when a compiled type body is cached under `key` (see `typeBody`); nothing is kept for the next run. */
  holdsType(key: string): boolean {
    const h = keyHash(key);
    return this.types[h] !== undefined || this.old.types[h] !== undefined;
  }

  /** True when a fragment is cached under `key` (see `fragment`); nothing is kept for the next run. */
  holdsFragment(key: string): boolean {
    const h = keyHash(key);
    return this.fragments.has(h) || this.old.fragments?.has(h) === true;
  }

  /** A yes-or-no answer under `key` (the complete input of `compute`, as text), computing it when not cached. */
  verdict(key: string, compute: () => boolean): boolean {
    const h = keyHash(key);
    this.tracked?.push(h);
    const hit = this.verdicts[h] ?? this.old.verdicts[h];
    if (hit !== undefined) return (this.verdicts[h] = hit);
    return (this.verdicts[h] = compute());
  }

  /**
   * A fragment under `key` (the complete input of `compute`, as text), computing it when not cached. Only
   * a value that is exact JSON is kept; every use gets its own copy, so a caller may change what it gets.
   */
  fragment<T>(key: string, compute: () => T): T {
    const h = keyHash(key);
    const hit = this.hit(h);
    if (hit !== undefined) return hit as T;
    const value = compute();
    this.put(h, value);
    return value;
  }

  /** `fragment` for a result computed asynchronously. */
  async fragmentAsync<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const h = keyHash(key);
    const hit = this.hit(h);
    if (hit !== undefined) return hit as T;
    const value = await compute();
    this.put(h, value);
    return value;
  }

  /** The fragment under the key hash `h` (a `keyHash`), kept for the next run; undefined when not cached. */
  hit(h: string): unknown {
    const kept = this.fragments.get(h) ?? this.old.fragments?.get(h);
    if (kept === undefined) return undefined;
    this.fragments.set(h, kept);
    return JSON.parse(typeof kept === 'string' ? kept : kept.toString('utf8', HASH_LENGTH + 1)) as unknown;
  }

  /** Keeps `value` under the key hash `h` for the next run, when it is exact JSON. */
  put(h: string, value: unknown): void {
    if (jsonExact(value)) this.fragments.set(h, JSON.stringify(value));
  }

  /** Keeps the JSON text `json` under the key hash `h` for the next run, as it is. */
  putText(h: string, json: string): void {
    this.fragments.set(h, json);
  }

  /**
   * The fragment under `h` as the last run left it, not kept for the next run (a file's table, which the
   * run replaces); undefined when absent.
   */
  peek(h: string): unknown {
    this.peeked.add(h);
    const kept = this.old.fragments?.get(h) ?? this.fragments.get(h);
    if (kept === undefined) return undefined;
    return JSON.parse(typeof kept === 'string' ? kept : kept.toString('utf8', HASH_LENGTH + 1)) as unknown;
  }

  /**
   * Keeps what the last run or this one holds under `h` for the next run as it is, unread: a fragment, or a
   * sample or a verdict (`track` gives their hashes); false when there is none.
   */
  keep(h: string): boolean {
    const kept = this.fragments.get(h) ?? this.old.fragments?.get(h);
    if (kept !== undefined) return (this.fragments.set(h, kept), true);
    const sample = this.samples[h] ?? this.old.samples[h];
    if (sample !== undefined) return ((this.samples[h] = sample), true);
    const verdict = this.verdicts[h] ?? this.old.verdicts[h];
    return verdict !== undefined && ((this.verdicts[h] = verdict), true);
  }

  /**
   * Runs `make`, and gives with its result the hashes of the samples and verdicts it used (in the order
   * first used, once each), so that what it made can keep them while it is reused (`keep`): a unit of a
   * list copied from the old file renders nothing, and without them the next run that needs the same
   * schema's sample (a tool added with another tool's schema, a removed tool put back) makes it again.
   * Only what `make` uses before it returns is counted.
   */
  track<T>(make: () => T): { readonly value: T; readonly used: readonly string[] } {
    const outer = this.tracked;
    const used: string[] = [];
    this.tracked = used;
    try {
      return { value: make(), used: [...new Set(used)] };
    } finally {
      this.tracked = outer;
      outer?.push(...used);
    }
  }

  /** `samples` answering from the cache where it can (only for schemas and values that are exact JSON). */
  wrapSamples(samples: Samples): Samples {
    return {
      sample: (schema) => {
        if (!jsonExact(schema)) return samples.sample(schema);
        const h = keyHash(JSON.stringify(schema));
        this.tracked?.push(h);
        const hit = this.samples[h] ?? this.old.samples[h];
        if (hit !== undefined) return (this.samples[h] = hit).length === 0 ? undefined : structuredClone(hit[0]);
        const value = samples.sample(schema);
        if (value === undefined) this.samples[h] = [];
        else if (jsonExact(value)) this.samples[h] = [structuredClone(value)];
        return value;
      },
      valid: (schema, value) => {
        if (!jsonExact(schema) || !jsonExact(value)) return samples.valid(schema, value);
        return this.verdict(`valid\0${JSON.stringify(schema)}\0${JSON.stringify(value)}`, () => samples.valid(schema, value));
      },
    };
  }

  /** What the last run left on disk, in whichever folder it wrote. */
  get lastDisk(): DiskRecord | undefined {
    return this.disk;
  }

  /** What the last run left in `outDir`, when it was that folder. */
  diskOf(outDir: string): DiskRecord | undefined {
    return this.disk?.outDir === outDir ? this.disk : undefined;
  }

  /** Records what this run left on disk (called after a successful write). */
  recordDisk(disk: DiskRecord | undefined): void {
    this.disk = disk;
  }
}
