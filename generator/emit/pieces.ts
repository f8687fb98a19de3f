/**
 * The pieces of emitted files rendered for one primitive (a describe of a suite, a registration, a card),
 * kept in the incremental cache for one run (`Fragments.piece`). A piece is keyed on its kind, the
 * server-wide inputs (`global`), the primitive's IR entry and what it reads of other primitives (`more`).
 *
 * Every primitive has a dozen pieces and most read nothing of other primitives: those are kept together,
 * one cache fragment per primitive (its bundle), so a run with a thousand unchanged primitives looks up and
 * parses a thousand bundles rather than twelve thousand pieces. A bundle is stored once every emitter has
 * asked for its pieces (`flush`, called by `emitAll`).
 */
import { type GenerationCache, jsonExact, keyHash } from '../cache.js';
import type { IrPrimitive } from '../ir/types.js';

/** A primitive's pieces that read nothing of other primitives, by kind. */
interface Bundle {
  readonly key: string;
  readonly parts: Record<string, unknown>;
  /** True when the cache had it: a fragment once kept is not replaced, so pieces added to it stay this run's. */
  readonly found: boolean;
  dirty: boolean;
}

/**
 * An IR entry without its `location`, for fragment keys: no emitter prints where a primitive or schema
 * was declared, and reading the location costs a second, position-keeping parse of the manifest.
 */
export function withoutLocation<T extends { readonly location?: unknown }>(entry: T): Omit<T, 'location'> {
  const { location: _, ...rest } = entry;
  return rest;
}

/** The pieces of one run. Values handed out are shared with the bundle: callers do not change them. */
export class PieceStore {
  private readonly hashes = new WeakMap<IrPrimitive, string | undefined>();
  private readonly bundles = new Map<string, Bundle>();

  /** `global` is the hash of the server-wide inputs, undefined when they cannot be hashed (nothing is then kept). */
  constructor(private readonly cache: GenerationCache, readonly global: string | undefined) {}

  /** The hash of a primitive's IR entry without its location, once per run; undefined when it is not exact JSON. */
  entry(p: IrPrimitive): string | undefined {
    if (this.hashes.has(p)) return this.hashes.get(p);
    const e = withoutLocation(p);
    const h = jsonExact(e) ? keyHash(JSON.stringify(e)) : undefined;
    this.hashes.set(p, h);
    return h;
  }

  /** The piece `kind` of `p` (see `Fragments.piece`). */
  piece<T>(kind: string, p: IrPrimitive, more: string | undefined, compute: () => T): T {
    const e = this.entry(p);
    if (this.global === undefined || e === undefined || more === undefined) return compute();
    // Hashes and a fixed kind hold no NUL, and `more` comes last: the text stands for one key only.
    if (more !== '') return this.cache.fragment(`piece\0${kind}\0${this.global}\0${e}\0${more}`, compute);
    const b = this.bundle(e);
    if (Object.hasOwn(b.parts, kind)) return b.parts[kind] as T;
    const value = compute();
    this.add(b, kind, value);
    return value;
  }

  /** The text piece `kind` of `p`, computed asynchronously (see `Fragments.pieceText`). */
  async pieceText(kind: string, p: IrPrimitive, more: string | undefined, compute: () => { readonly text: Promise<string>; readonly keep: boolean }): Promise<string> {
    const e = this.entry(p);
    if (this.global === undefined || e === undefined || more === undefined) return compute().text;
    if (more !== '') {
      // A result not to keep is handed back inside a value that is not exact JSON, which the cache never stores.
      const got = await this.cache.fragmentAsync<string | [string, undefined]>(`piece\0${kind}\0${this.global}\0${e}\0${more}`, async () => {
        const { text, keep } = compute();
        return keep ? text : [await text, undefined];
      });
      return typeof got === 'string' ? got : got[0];
    }
    const b = this.bundle(e);
    if (Object.hasOwn(b.parts, kind)) return b.parts[kind] as string;
    const { text, keep } = compute();
    const value = await text;
    if (keep) this.add(b, kind, value);
    return value;
  }

  /** Keeps every bundle that gained pieces this run, for the next. */
  flush(): void {
    for (const b of this.bundles.values()) if (b.dirty && !b.found) this.cache.fragment(b.key, () => b.parts);
  }

  private add(b: Bundle, kind: string, value: unknown): void {
    if (!jsonExact(value)) return;
    b.parts[kind] = value;
    b.dirty = true;
  }

  private bundle(entry: string): Bundle {
    let b = this.bundles.get(entry);
    if (b === undefined) {
      const key = `bundle\0${this.global}\0${entry}`;
      // A lookup only: a compute that gives nothing exact leaves the cache as it was.
      const parts = this.cache.fragment<Record<string, unknown> | undefined>(key, () => undefined);
      b = { key, parts: parts ?? {}, found: parts !== undefined, dirty: false };
      this.bundles.set(entry, b);
    }
    return b;
  }
}
