/**
 * The pieces of emitted files rendered for one primitive (a describe of a suite, a registration, a card),
 * kept in the incremental cache (`Fragments.piece`). A piece is keyed on its kind, the server-wide inputs
 * (`global`), the primitive's IR entry and what it reads of other primitives (`more`).
 *
 * The texts a piece puts into a file (its `texts` fields) are not kept: the file the last run wrote holds
 * them. The cache keeps the rest of the piece (the names its tests use, its lock hash) and the emitter
 * gets a marker for each text (emit/refs.ts), which `write/splice.ts` fills from the old file or from the
 * text rendered this run.
 *
 * Every primitive has a dozen pieces and most read nothing of other primitives: those are kept together,
 * one cache fragment per primitive (its bundle), so a run with a thousand unchanged primitives looks up and
 * parses a thousand small bundles rather than twelve thousand pieces. A bundle is stored once every
 * emitter has asked for its pieces (`flush`, called by `emitAll`).
 */
import { type GenerationCache, jsonExact, keyHash } from '../cache.js';
import type { IrPrimitive } from '../ir/types.js';
import { markable, type TextRefs } from './refs.js';

/** A primitive's pieces that read nothing of other primitives, by kind, as kept (texts left out). */
interface Bundle {
  /** The hash of the bundle's key: the cache's key, and the start of its texts' keys. */
  readonly hash: string;
  readonly parts: Record<string, unknown>;
  /** True when the cache had it: a fragment once kept is not replaced, so pieces added to it stay this run's. */
  readonly found: boolean;
  dirty: boolean;
}

/** A text field kept out of the cache: the file holds it (see `PieceStore`). */
const IN_FILE = 1;

/**
 * An IR entry without its `location`, for fragment keys: no emitter prints where a primitive or schema
 * was declared, and reading the location costs a second, position-keeping parse of the manifest.
 */
export function withoutLocation<T extends { readonly location?: unknown }>(entry: T): Omit<T, 'location'> {
  const { location: _, ...rest } = entry;
  return rest;
}

/**
 * The key of a piece's texts in the files that hold them: 96 bits of the hash of its cache key (no two of
 * a manifest's thousands of texts share them but by a chance of 1 in 10^20) and its kind.
 */
const textKey = (hash: string, kind: string): string => `${hash.slice(0, 16)}${kind}`;

/** Reads field `f` of a piece (`''`: the piece itself). */
const field = (value: unknown, f: string): unknown => (f === '' ? value : (value as Record<string, unknown>)[f]);

/** `value` with field `f` set to `v` (`''`: `v` itself), copied. */
function withField(value: unknown, f: string, v: unknown): unknown {
  return f === '' ? v : { ...(value as Record<string, unknown>), [f]: v };
}

/** The pieces of one run. Values handed out are shared with the bundle: callers do not change them. */
export class PieceStore {
  private readonly bundles = new Map<string, Bundle>();

  /**
   * `global` is the hash of the server-wide inputs, undefined when they cannot be hashed (nothing is then
   * kept). Texts are handed out as markers of `refs`; with `reuse` false every piece is rendered again
   * (and kept), for a run that cannot take texts from the files the last run wrote.
   */
  constructor(
    private readonly cache: GenerationCache,
    readonly global: string | undefined,
    private readonly refs: TextRefs,
    private readonly reuse: boolean,
  ) {}

  /** The hash of a primitive's IR entry without its location, once per run; undefined when it is not exact JSON. */
  entry(p: IrPrimitive): string | undefined {
    return this.cache.entryHash(p);
  }

  /** The piece `kind` of `p` (see `Fragments.piece`); its `texts` fields come as markers. */
  piece<T>(kind: string, p: IrPrimitive, more: string | undefined, compute: () => T, texts: readonly string[] = []): T {
    const e = this.entry(p);
    if (this.global === undefined || e === undefined || more === undefined) return compute();
    if (more !== '') {
      // Hashes and a fixed kind hold no NUL, and `more` comes last: the text stands for one key only.
      const h = keyHash(`piece\0${kind}\0${this.global}\0${e}\0${more}`);
      const key = textKey(h, kind);
      const kept = this.reuse ? this.cache.hit(h) : undefined;
      if (kept !== undefined) return this.markers(kept, texts, key, undefined) as T;
      const value = compute();
      this.cache.put(h, this.kept(value, texts));
      return this.markers(value, texts, key, value) as T;
    }
    const b = this.bundle(e);
    const key = textKey(b.hash, kind);
    if (Object.hasOwn(b.parts, kind)) return this.markers(b.parts[kind], texts, key, undefined) as T;
    const value = compute();
    this.add(b, kind, this.kept(value, texts));
    return this.markers(value, texts, key, value) as T;
  }

  /** The text piece `kind` of `p`, computed asynchronously (see `Fragments.pieceText`); a marker where it may be kept. */
  async pieceText(kind: string, p: IrPrimitive, more: string | undefined, compute: () => { readonly text: Promise<string>; readonly keep: boolean }): Promise<string> {
    const e = this.entry(p);
    if (this.global === undefined || e === undefined || more === undefined) return compute().text;
    const h = more === '' ? undefined : keyHash(`piece\0${kind}\0${this.global}\0${e}\0${more}`);
    const b = h === undefined ? this.bundle(e) : undefined;
    const key = textKey(h ?? b!.hash, kind);
    const kept = h !== undefined ? (this.reuse ? this.cache.hit(h) : undefined) : Object.hasOwn(b!.parts, kind) ? b!.parts[kind] : undefined;
    if (kept !== undefined) return this.markers(kept, [''], key, undefined) as string;
    const { text, keep } = compute();
    const value = await text;
    if (!keep) return value;
    if (h !== undefined) this.cache.put(h, this.kept(value, ['']));
    else this.add(b!, kind, this.kept(value, ['']));
    return this.markers(value, [''], key, value) as string;
  }

  /** Keeps every bundle that gained pieces this run, for the next. */
  flush(): void {
    for (const b of this.bundles.values()) if (b.dirty && !b.found) this.cache.put(b.hash, b.parts);
  }

  /** A piece as the cache keeps it: each text that may stand behind a marker left out. */
  private kept(value: unknown, texts: readonly string[]): unknown {
    let out = value;
    for (const f of texts) {
      const t = field(value, f);
      if (typeof t === 'string' && markable(t)) out = withField(out, f, IN_FILE);
    }
    return out;
  }

  /**
   * A piece as the emitter gets it: each text that may stand behind a marker replaced by one, keyed
   * `<key>.<field>`; `rendered` is the piece rendered this run (its texts go with the markers).
   */
  private markers(value: unknown, texts: readonly string[], key: string, rendered: unknown): unknown {
    let out = value;
    for (const f of texts) {
      const t = field(value, f);
      if (rendered === undefined ? t === IN_FILE : typeof t === 'string' && markable(t)) out = withField(out, f, this.refs.marker(`${key}.${f}`, rendered === undefined ? undefined : (t as string)));
    }
    return out;
  }

  private add(b: Bundle, kind: string, value: unknown): void {
    if (!jsonExact(value)) return;
    b.parts[kind] = value;
    b.dirty = true;
  }

  private bundle(entry: string): Bundle {
    let b = this.bundles.get(entry);
    if (b === undefined) {
      const hash = keyHash(`bundle\0${this.global}\0${entry}`);
      const parts = this.reuse ? (this.cache.hit(hash) as Record<string, unknown> | undefined) : undefined;
      b = { hash, parts: parts ?? {}, found: parts !== undefined, dirty: false };
      this.bundles.set(entry, b);
    }
    return b;
  }
}
