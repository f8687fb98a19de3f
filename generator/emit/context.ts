/** What every emitter receives and returns. */
import type HandlebarsModule from 'handlebars';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ir, IrPrimitive, IrPrompt, IrResource } from '../ir/types.js';
import type { Contract } from '../contract/types.js';
import type { SchemaGraph } from '../contract/schemaGraph.js';
import type { HandlerSpec } from './handlers.js';
import { GenerationCache, jsonExact, type Samples } from '../cache.js';
import { SampleMaker } from './samples.js';
import { type LastLayout, type Pieces, withoutLocation } from './pieces.js';
import type { PieceList } from './lists.js';
import { fragments, piecesOf } from './layout.js';
import { PLAIN_TEXT, type TextOps, type TextRefs } from './refs.js';
import { TypeCompiler } from './type-compiler.js';
import { COMPILE_OPTIONS, installHelpers, installPartial, PARTIALS_DIR, parseTemplate } from './template-engine.js';

export { withoutLocation };

/** Who owns an emitted file: the generator rewrites its own; the author's are written once. */
export type Owner = 'generator' | 'author';

/** One emitted file, path relative to the output folder with `/` separators. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string;
  readonly owner: Owner;
  /** For a handler stub: what the server needs from the file, used to update an existing one in place. */
  readonly handler?: HandlerSpec;
  /** True when the file is as the last run left it (emit/layout.ts): its content is on disk. */
  readonly kept?: true;
}

/** Shared, precomputed state for one generation run. */
export interface EmitContext {
  readonly ir: Ir;
  /** What clients observe of each primitive, computed once by the contract phase. */
  readonly contract: Contract;
  /** The named schemas behind the contract's schemas (shared declarations, type names). */
  readonly graph: SchemaGraph;
  readonly samples: Samples;
  /** Compiles schemas to TypeScript (on a worker thread while the caller has it started). */
  readonly types: Pick<TypeCompiler, 'compile'>;
  /**
   * Compiled type bodies by schema, for this run: manifests repeat shapes (the same input on many tools,
   * the same params on many templates), and compiling is the costliest step of type generation.
   */
  readonly typeBodies: Map<string, Promise<string>>;
  /** Results of emitters for one primitive or schema, reused from the incremental cache when it is given. */
  readonly fragments: Fragments;
  /** `slice(0, -1)` and `tidy` for texts that may hold markers of pieces' texts (emit/refs.ts). */
  readonly text: TextOps;
  /** The pieces of the run's files, with the incremental cache and markers for their texts (write/splice.ts reads them). */
  readonly pieces?: Pieces;
}

/** How a run with the incremental cache hands out the texts of pieces (see emit/pieces.ts). */
export interface PieceTexts {
  readonly refs: TextRefs;
  /** False to render every piece again (the files the last run wrote cannot give their texts). */
  readonly reuse: boolean;
  /** What the last run laid out in the output folder, of the files still as it left them. */
  readonly last?: LastLayout;
}

/** The fragments of one file being laid out (see emit/layout.ts). */
export interface FileFragments {
  /** True when the file is the last run's: it is not laid out. */
  readonly kept: boolean;
  /** Fragments whose pieces are the file's. */
  readonly fragments: Fragments;
}

/**
 * Memoised parts of emitted files. A key is JSON of everything the computation reads (`shared` stands for
 * the server-wide inputs many fragments read); values are JSON. Without a cache every fragment is computed.
 */
export interface Fragments {
  /** A hash of the named schemas (with their type names) and the list cache hints. */
  readonly shared: string;
  /**
   * A hash of one primitive's IR entry (without its location), computed once per run however many
   * emitters ask; undefined when the entry is not exact JSON (a key holding it is then never cached).
   * The contract entry is a function of it and of the server-wide inputs (the IR and the contract without
   * their primitives: server settings, named schemas, upstream, scenarios, the contract's server part),
   * under which every piece is kept.
   */
  entry(p: IrPrimitive): string | undefined;
  /**
   * A hash of the IR entries of every primitive of `kinds` (default: all), in manifest order, for the
   * inputs of a file or a block that reads them all; undefined when one cannot be hashed.
   */
  entries(kinds?: readonly IrPrimitive['kind'][]): string | undefined;
  /** `entries` of the forms of the IR entries (less their prose: see `GenerationCache.formHash`). */
  forms(kinds?: readonly IrPrimitive['kind'][]): string | undefined;
  get<T>(key: unknown, compute: () => T): T;
  getAsync<T>(key: unknown, compute: () => Promise<T>): Promise<T>;
  /** The key hash `get` and `getAsync` keep a fragment under (`Made.uses` in emit/lists.ts); undefined when it is not kept. */
  keyHash(key: unknown): string | undefined;
  /**
   * A block of the file being laid out that reads many primitives, keyed on `kind` and `inputs`, a text of
   * everything it reads beyond the server-wide inputs (undefined: computed). The value is shared: the caller
   * does not change it. Its `texts` fields (`''`: the block itself) are texts it puts into the file as they
   * are: they may come as markers (emit/refs.ts), which the caller places but does not read or cut.
   */
  block<T>(kind: string, inputs: string | undefined, compute: () => T, texts?: readonly string[]): T;
  /**
   * `block` for text computed asynchronously. `compute` starts synchronously and says whether its result
   * may be kept: one that read more than the key holds (names other blocks took before it) is used for
   * this run only.
   */
  blockText(kind: string, inputs: string | undefined, compute: () => { readonly text: Promise<string>; readonly keep: boolean }): Promise<string>;
  /**
   * The key of the piece `kind` of `p`, for a unit of a list: `entry(p)` and `more`, text standing for what
   * it reads of other primitives (`''` for nothing); undefined when that cannot be keyed (or outside a file).
   */
  key(kind: string, p: IrPrimitive, more: string | undefined): string | undefined;
  /** The key of a block (see `block`), for a unit of a list; undefined when it cannot be keyed. */
  blockKey(kind: string, inputs: string | undefined): string | undefined;
  /**
   * A list of pieces of the file being laid out, named `name` (unique in the file), its units joined by
   * `sep` (emit/lists.ts); without the cache, or outside a file, every unit is rendered.
   */
  list<M = never>(name: string, sep: string): PieceList<M>;
  /**
   * What `compute` makes of a primitive (exact JSON), kept by its IR entry (see `Pieces.summary`);
   * computed without the cache.
   */
  summary<T>(name: string, p: IrPrimitive, compute: () => T | undefined): T | undefined;
  /** The fragments of the file at `path`, laid out from `inputs` (see `layout` in emit/layout.ts). */
  file(path: string, inputs: string | undefined): FileFragments;
}

/**
 * Builds the context for one IR and its contract; `types` defaults to compiling in this thread. With a
 * `cache`, compiled type bodies and samples come from it where their inputs are unchanged, and, with
 * `texts`, the pieces of files rendered for one primitive, their texts as markers.
 */
export function createContext(ir: Ir, contract: Contract, types: TypeCompiler = new TypeCompiler(), cache?: GenerationCache, texts?: PieceTexts): EmitContext {
  if (cache === undefined) return { ir, contract, graph: contract.graph, samples: new SampleMaker(), types, typeBodies: new Map(), fragments: fragments(ir, contract, undefined, undefined), text: PLAIN_TEXT };
  const compile = (body: object) => (jsonExact(body) ? cache.typeBody(JSON.stringify(body), () => types.compile(body)) : types.compile(body));
  const text = texts?.refs.ops ?? PLAIN_TEXT;
  const pieces = piecesOf(ir, contract, cache, texts);
  return { ir, contract, graph: contract.graph, samples: cache.wrapSamples(new SampleMaker()), types: { compile }, typeBodies: new Map(), fragments: fragments(ir, contract, cache, pieces), text, ...(pieces ? { pieces } : {}) };
}

const templateDir = fileURLToPath(new URL('../../templates/', import.meta.url));
const cache = new Map<string, HandlebarsModule.TemplateDelegate>();
type Spec = Parameters<typeof HandlebarsModule.template>[0];
/** A precompiled template: its spec's source (scripts/build-templates.mjs), or the spec (an older build). */
type Precompiled = string | Spec;
const requireHere = createRequire(import.meta.url);
let engine: { precompiled: Record<string, Precompiled> | undefined; handlebars: typeof HandlebarsModule } | undefined;

/** What `load` gives, or undefined when it throws (a file the build may not have written). */
function optional<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch {
    return undefined;
  }
}

/**
 * The templates precompiled by `npm run build` (scripts/build-templates.mjs) with the Handlebars runtime
 * only (both from one bundled file when the build made it), or, running from source, the whole of
 * Handlebars to compile templates/ on first use. Either way
 * an environment of its own, with the helpers and the partials of templates/partials/ registered.
 */
function loadEngine(): NonNullable<typeof engine> {
  let loaded: NonNullable<typeof engine>;
  try {
    // The templates and the runtime bundled into one file by the build; without it, each from its own.
    // (Named by its literal path: the command line's bundle then holds it, see scripts/build-bundle.mjs.)
    const bundled = optional(() => createRequire(import.meta.url)('./precompiled/engine.js') as { templates: Record<string, Precompiled>; runtime: typeof HandlebarsModule });
    const precompiled = bundled?.templates ?? (requireHere('./precompiled/index.js') as Record<string, Precompiled>);
    loaded = { precompiled, handlebars: (bundled?.runtime ?? (requireHere('handlebars/runtime') as typeof HandlebarsModule)).create() };
  } catch {
    loaded = { precompiled: undefined, handlebars: (requireHere('handlebars') as typeof HandlebarsModule).create() };
  }
  installHelpers(loaded.handlebars);
  for (const name of templateNames(loaded.precompiled)) {
    if (!name.startsWith(PARTIALS_DIR)) continue;
    // Compiled when a template first calls it: a run renders few of them after a small change.
    let partial: HandlebarsModule.TemplateDelegate | undefined;
    installPartial(loaded.handlebars, name.slice(PARTIALS_DIR.length), (context, options) => (partial ??= compiled(loaded, name))(context, options));
  }
  return loaded;
}

/** The names of every template (`partials/contract/listed`), from the precompiled index or templates/. */
function templateNames(precompiled: Record<string, Precompiled> | undefined): string[] {
  if (precompiled !== undefined) return Object.keys(precompiled);
  const files = readdirSync(templateDir, { recursive: true, encoding: 'utf8' });
  return files.filter((f) => f.endsWith('.hbs')).map((f) => f.split('\\').join('/').slice(0, -'.hbs'.length));
}

/** One template of `e`, precompiled or compiled from templates/ (a template added since the build too). */
function compiled(e: NonNullable<typeof engine>, name: string): HandlebarsModule.TemplateDelegate {
  const spec = e.precompiled?.[name];
  // The source is the build's own output (an object literal of functions), evaluated in a scope of its own.
  if (spec !== undefined) return e.handlebars.template(typeof spec === 'string' ? (new Function(`return ${spec};`)() as Spec) : spec);
  // The compiler: the runtime lacks it, so a template added since the build loads all of Handlebars.
  const compiler = e.precompiled === undefined ? e.handlebars : (requireHere('handlebars') as typeof HandlebarsModule);
  return compiler.compile(parseTemplate(compiler, readFileSync(`${templateDir}${name}.hbs`, 'utf8')), COMPILE_OPTIONS);
}

/**
 * Renders `templates/<name>.hbs`. Values are inserted verbatim (no HTML
 * escaping): emitters pass fragments they have already escaped for the
 * target language, and values for `{{lit …}}` to print.
 */
export function render(name: string, view: object): string {
  let t = cache.get(name);
  if (t === undefined) {
    engine ??= loadEngine();
    t = compiled(engine, name);
    cache.set(name, t);
  }
  return t(view);
}

/**
 * What a prompt reads of the resources its messages embed, as a piece key's `more`: their entries'
 * hashes (`''` when it embeds none, undefined when one cannot be hashed).
 */
export function embeddedResources(ctx: EmitContext, p: IrPrompt): string | undefined {
  const hashes: string[] = [];
  for (const m of p.messages ?? []) {
    if (!('resource' in m)) continue;
    const r = ctx.ir.resources.find((x) => x.name === m.resource);
    const h = r === undefined ? 'none' : ctx.fragments.entry(r);
    if (h === undefined) return undefined;
    hashes.push(h);
  }
  return hashes.join(' ');
}

/** True when a resource needs an author-written handler (it has no `source:`). */
export function resourceHasHandler(r: IrResource): boolean {
  return r.source === undefined;
}

/** True when a prompt needs an author-written handler (no static messages, or completions). */
export function promptHasHandler(p: IrPrompt): boolean {
  return p.messages === undefined || p.arguments.some((a) => a.complete);
}

/** True when a primitive has an author-owned handler file. */
export function hasHandler(p: IrPrimitive): boolean {
  if (p.kind === 'tool') return true;
  if (p.kind === 'resource') return resourceHasHandler(p);
  return promptHasHandler(p);
}

export { handlerPath } from '../ir/names.js';

/**
 * The file as the template laid it out, ending in exactly one newline. Nothing is collapsed or trimmed
 * inside: templates and the printer lay out every line (`test/generator/layout.test.ts`).
 */
export function tidy(code: string): string {
  return `${code.trimEnd()}\n`;
}
