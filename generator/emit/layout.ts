/**
 * How emitters lay out a generated file from its pieces (emit/pieces.ts): `layout` gives the emitter a
 * context whose pieces are the file's, or, with the incremental cache, skips a file whose key is the one
 * the last run laid it out under (and which is as that run left it). Without the cache every piece is
 * computed and every file laid out.
 */
import type { Contract } from '../contract/types.js';
import type { Ir, IrPrimitive } from '../ir/types.js';
import { type GenerationCache, jsonExact, keyHash } from '../cache.js';
import type { EmitContext, EmittedFile, FileFragments, Fragments, PieceTexts } from './context.js';
import { type FilePieces, Pieces, withoutLocation } from './pieces.js';
import { PieceList } from './lists.js';

/** The server-wide inputs of a run, hashed: everything but the primitives (see `Fragments.entry`). */
function globalInputs(ir: Ir, contract: Contract): string | undefined {
  const { tools: _t, resources: _r, prompts: _p, schemas, scenarios, ...rest } = ir;
  const { tools: _ct, resources: _cr, prompts: _cp, graph: _g, ...server } = contract;
  const all = [rest, schemas.map(withoutLocation), scenarios?.map(withoutLocation) ?? null, server];
  return jsonExact(all) ? keyHash(JSON.stringify(all)) : undefined;
}

/** A file the last run left as this run would lay it out: its content is on disk (write/splice.ts keeps it). */
function keptFile(path: string): EmittedFile {
  return {
    path,
    owner: 'generator',
    kept: true,
    get content(): string {
      throw new Error(`internal error: ${path} is kept as the last run left it; its content is on disk`);
    },
  };
}

/**
 * Lays out the generated file at `path`: `build` returns its content, asking the context it gets for the
 * file's pieces. `inputs` is a text of everything the file reads beyond the server-wide inputs (see
 * `Fragments.entries`); undefined when that cannot be keyed, and the file is then always laid out.
 */
export function layout(ctx: EmitContext, path: string, inputs: string | undefined, build: (ctx: EmitContext) => string): EmittedFile {
  const file = ctx.fragments.file(path, inputs);
  return file.kept ? keptFile(path) : { path, content: build({ ...ctx, fragments: file.fragments }), owner: 'generator' };
}

/** `layout` for a file built asynchronously. */
export async function layoutAsync(ctx: EmitContext, path: string, inputs: string | undefined, build: (ctx: EmitContext) => Promise<string>): Promise<EmittedFile> {
  const file = ctx.fragments.file(path, inputs);
  return file.kept ? keptFile(path) : { path, content: await build({ ...ctx, fragments: file.fragments }), owner: 'generator' };
}

/** A key that is not exact JSON could stand for two inputs: such a fragment is computed, never cached. */
const keyText = (key: unknown): string | undefined => (jsonExact(key) ? JSON.stringify(key) : undefined);

/** Fragments that compute everything (a run without the cache, or a context outside any file). */
function computing(base: Omit<Fragments, 'block' | 'blockText' | 'key' | 'blockKey' | 'list' | 'file'>): Fragments {
  const self: Fragments = {
    ...base,
    block: (_k, _i, compute) => compute(),
    blockText: (_k, _i, compute) => compute().text,
    key: () => undefined,
    blockKey: () => undefined,
    list: (name, sep) => new PieceList(name, sep, undefined, undefined),
    file: () => ({ kept: false, fragments: self }),
  };
  return self;
}

/**
 * The pieces of a run's files, with the incremental cache and markers for their texts (without markers,
 * pieces are not kept: the cache holds no text of theirs to give back).
 */
export function piecesOf(ir: Ir, contract: Contract, cache: GenerationCache | undefined, texts: PieceTexts | undefined): Pieces | undefined {
  return cache === undefined || texts === undefined ? undefined : new Pieces(cache, globalInputs(ir, contract), texts.refs, texts.reuse, texts.last);
}

/** The hash of the server-wide inputs many fragments read (`Fragments.shared`): the named schemas and the cache hints. */
export function sharedKey(ir: Ir, contract: Contract): string {
  return keyHash(JSON.stringify([ir.schemas.map(withoutLocation), contract.server.cacheHints]));
}

/** The fragments of a run: memoised in `cache` when it is given, with `pieces` of files (`piecesOf`). */
export function fragments(ir: Ir, contract: Contract, cache: GenerationCache | undefined, pieces: Pieces | undefined): Fragments {
  if (cache === undefined) return computing({ shared: '', entry: () => '', entries: () => '', forms: () => '', summary: (_n, _p, compute) => compute(), get: (_, compute) => compute(), getAsync: (_, compute) => compute(), keyHash: () => undefined });
  const shared = sharedKey(ir, contract);
  const entries = new Map<string, string | undefined>();
  const base: Omit<Fragments, 'block' | 'blockText' | 'key' | 'blockKey' | 'list' | 'file'> = {
    shared,
    entry: (p) => pieces?.entry(p),
    entries: (kinds = ['tool', 'resource', 'prompt']) => {
      const label = kinds.join(' ');
      if (!entries.has(label)) entries.set(label, entriesOf(ir, kinds, (p) => pieces?.entry(p)));
      return entries.get(label);
    },
    summary: (name, p, compute) => (pieces ? pieces.summary(name, p, compute) : compute()),
    forms: (kinds = ['tool', 'resource', 'prompt']) => {
      const label = `forms ${kinds.join(' ')}`;
      if (!entries.has(label)) entries.set(label, entriesOf(ir, kinds, (p) => pieces?.form(p)));
      return entries.get(label);
    },
    get: (key, compute) => {
      const k = keyText(key);
      return k === undefined ? compute() : cache.fragment(k, compute);
    },
    getAsync: (key, compute) => {
      const k = keyText(key);
      return k === undefined ? compute() : cache.fragmentAsync(k, compute);
    },
    keyHash: (key) => {
      const k = keyText(key);
      return k === undefined ? undefined : keyHash(k);
    },
  };
  const outside = computing(base);
  if (pieces === undefined) return outside;
  return { ...outside, file: (path, inputs) => fileFragments(base, pieces.open(path, inputs)) };
}

/** The fragments of one file: its pieces are `file`'s. */
function fileFragments(base: Omit<Fragments, 'block' | 'blockText' | 'key' | 'blockKey' | 'list' | 'file'>, file: FilePieces): FileFragments {
  const self: Fragments = {
    ...base,
    block: (kind, inputs, compute, fields) => file.block(kind, inputs, compute, fields),
    blockText: (kind, inputs, compute) => file.blockText(kind, inputs, compute),
    key: (kind, p, more) => file.pieceKey(kind, p, more),
    blockKey: (kind, inputs) => file.blockKey(kind, inputs),
    list: (name, sep) => file.list(name, sep),
    // A file laid out inside another is not one this run keeps apart: its pieces are computed.
    file: () => ({ kept: false, fragments: computing(base) }),
  };
  return { kept: file.kept, fragments: self };
}

/** The entry hashes of every primitive of `kinds`, in manifest order, hashed; undefined when one cannot be. */
function entriesOf(ir: Ir, kinds: readonly IrPrimitive['kind'][], entry: (p: IrPrimitive) => string | undefined): string | undefined {
  const hashes: string[] = [];
  for (const kind of kinds) {
    for (const p of kind === 'tool' ? ir.tools : kind === 'resource' ? ir.resources : ir.prompts) {
      const h = entry(p);
      if (h === undefined) return undefined;
      hashes.push(h);
    }
  }
  return keyHash(`${kinds.join(' ')}\0${hashes.join(' ')}`);
}
