/**
 * Incremental generation never changes output: on random sequences of edits to a manifest (descriptions,
 * schemas, side effects, named schemas, server-wide settings, a prompt embedding a resource, added,
 * removed and renamed primitives, hand edits of handler files), a folder regenerated with
 * the incremental cache is byte for byte the folder regenerated without it, whether the cache is
 * current, stale (a run went by without it), or damaged on its way through the cache file.
 */
import * as fc from 'fast-check';
import { dump } from 'js-yaml';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { TypeCompiler, generate } from '../../generator/pipeline.js';
import { FEW_TYPES } from '../../generator/emit/type-compiler.js';
import { Pieces } from '../../generator/emit/pieces.js';
import { PieceList, reuse } from '../../generator/emit/lists.js';
import { SampleMaker } from '../../generator/emit/samples.js';
import { TextRefs } from '../../generator/emit/refs.js';
import type { IrPrimitive } from '../../generator/ir/types.js';
import { outcome } from '../helpers/outcome.js';

interface Tool {
  readonly id: number;
  readonly name: string;
  readonly shape: 'get' | 'search' | 'write';
  readonly words: string;
  readonly maxLength: number;
  readonly note: boolean;
  /** The pattern of the search phrase (`[` is not a valid one: both runs must fail alike). */
  readonly pattern?: string;
  readonly renamedFrom?: string;
  /** A write tool made irreversible (and approval-gated): its side effect, annotations and gate tests change. */
  readonly irreversible?: boolean;
  /** A misspelt key in the entry: the manifest's shape is invalid (both runs must fail alike). */
  readonly stray?: boolean;
  /** The path of the upstream request its handler makes (`upstream.gen.ts` has its member), while the manifest has an upstream. */
  readonly http?: string;
}

interface Model {
  readonly tools: readonly Tool[];
  readonly guide: string;
  readonly promptText: string;
  /** Completion on the item view's variable, and a second argument of the handler-built prompt. */
  readonly complete: boolean;
  readonly depth: boolean;
  /** The longest item id and name (named schemas that tool inputs and outputs and the item view read). */
  readonly itemMax: number;
  /** Server instructions, which may name a tool (its contract card then says so). */
  readonly instructions?: string;
  /** Server-wide settings every primitive's pieces read: the version, the cache policy. */
  readonly version: string;
  readonly cache: boolean;
  /** The review prompt embeds the guide resource (its registration and suite read the guide's entry). */
  readonly embed: boolean;
  readonly guideMime: string;
  readonly guideUri: string;
  /** The variable of the upstream's base URL; none: no `upstream:`, and no tool or resource has `http:`. */
  readonly upstream?: string;
  /** The files served by resources `doc_0`, `doc_1`, … (`source:`; server.gen.ts holds each one's content). */
  readonly served: readonly string[];
  readonly next: number;
}

const ITEM_ID = { type: 'string', pattern: '^I-[0-9]{1,12}$', description: 'An item id, like I-1001.' };

function toolEntry(t: Tool, upstream: boolean): [string, object] {
  const note = t.note ? { note: { type: 'string', maxLength: t.maxLength } } : {};
  const base = { title: `Tool ${t.id}`, ...(t.renamedFrom !== undefined ? { renamedFrom: t.renamedFrom } : {}), ...(t.stray ? { sideEfect: 'read' } : {}),
    ...(upstream && t.http !== undefined ? { http: t.shape === 'write' ? { method: 'PUT', path: `${t.http}/{itemId}`, query: { name: 'name' } } : { method: 'GET', path: t.http } } : {}) };
  if (t.shape === 'get') {
    return [t.name, { ...base, description: `Look up one item of collection ${t.id} by id. Read only. ${t.words}`, sideEffect: 'read', scopes: ['items:read'],
      input: { type: 'object', properties: { itemId: { $ref: '#/schemas/ItemId' }, ...note }, required: ['itemId'], additionalProperties: false },
      output: { $ref: '#/schemas/Item' } }];
  }
  if (t.shape === 'search') {
    return [t.name, { ...base, description: `Find items of collection ${t.id} by a name phrase. Read only. ${t.words}`, sideEffect: 'read', scopes: ['items:read'],
      // An item id too: a search reads by the id a write tool's output names, so each write tool has a canary test reading by the searches.
      input: { type: 'object', properties: { nameContains: { type: 'string', maxLength: t.maxLength, ...(t.pattern !== undefined ? { pattern: t.pattern } : {}) }, id: { $ref: '#/schemas/ItemId' }, ...note }, required: ['nameContains'], additionalProperties: false },
      output: { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/schemas/Item' }, maxItems: 50 } }, required: ['items'], additionalProperties: false } }];
  }
  return [t.name, { ...base, description: `Set the name of one item of collection ${t.id}. Write operation; the previous name can be restored. ${t.words}`,
    sideEffect: t.irreversible ? 'irreversible' : 'write', idempotency: 'required', scopes: ['items:write'], ...(t.irreversible ? { approval: 'required' } : {}),
    input: { type: 'object', properties: { itemId: { $ref: '#/schemas/ItemId' }, name: { type: 'string', maxLength: t.maxLength }, ...note }, required: ['itemId', 'name'], additionalProperties: false },
    output: { $ref: '#/schemas/Item' } }];
}

/**
 * The manifest as block YAML or as JSON text (JSON is YAML), indented or minified (one line): each is read
 * in pieces, every entry on its own, cut at lines or, for minified JSON, at offsets.
 */
function manifest(m: Model, yaml: boolean, minified = false): string {
  const value = {
    mcpgen: 1,
    server: { name: 'incremental-shop', version: m.version, description: 'A shop for the incremental generation test.', scopes: { 'items:read': 'Read items', 'items:write': 'Change items' },
      ...(m.instructions !== undefined ? { instructions: m.instructions } : {}), ...(m.cache ? { cache: { ttlMs: 60000, scope: 'public' } } : {}) },
    schemas: {
      ItemId: { ...ITEM_ID, maxLength: m.itemMax },
      Item: { type: 'object', properties: { id: { $ref: '#/schemas/ItemId' }, name: { type: 'string', maxLength: m.itemMax } }, required: ['id', 'name'], additionalProperties: false },
    },
    tools: Object.fromEntries(m.tools.map((t) => toolEntry(t, m.upstream !== undefined))),
    resources: {
      guide: { uri: m.guideUri, title: 'Guide', description: m.guide, mimeType: m.guideMime },
      'item-view': { uriTemplate: 'shop://items/{itemId}', title: 'Item view', description: 'One item as JSON.', mimeType: 'application/json',
        params: { itemId: { $ref: '#/schemas/ItemId' } }, schema: { $ref: '#/schemas/Item' }, scopes: ['items:read'],
        ...(m.complete ? { complete: ['itemId'], list: true } : {}), ...(m.upstream !== undefined ? { http: { path: '/items/{itemId}' } } : {}) },
      ...Object.fromEntries(m.served.map((f, i) => [`doc_${i}`, { uri: `shop://docs/${i}`, title: `Document ${i}`, description: `Served file ${i}.`, mimeType: 'text/markdown', source: `./${f}` }])),
    },
    prompts: {
      review_item: { title: 'Review item', description: 'Review one item before publishing.',
        arguments: { itemId: { description: 'Item to review', required: true, schema: ITEM_ID } },
        messages: [{ role: 'user', text: m.promptText }, ...(m.embed ? [{ role: 'user', resource: 'guide' }] : [])] },
      summarize_item: { title: 'Summarize item', description: 'Summarize one item for a handover note.',
        arguments: { itemId: { description: 'Item to summarize', required: true, schema: ITEM_ID },
          ...(m.depth ? { depth: { description: 'Summary depth', required: false, complete: true, schema: { enum: ['short', 'full'] } } } : {}) } },
    },
    ...(m.upstream !== undefined ? { upstream: { baseUrl: 'https://shop.example.com/v1', baseUrlEnv: m.upstream } } : {}),
  };
  return yaml ? dump(value, { lineWidth: -1, noRefs: true }) : JSON.stringify(value, null, minified ? 0 : 2);
}

const SHAPES = ['get', 'search', 'write'] as const;
/** The files a served resource may serve, written beside every manifest of these tests (`newRoot`). */
const SERVED = ['handbook.md', 'faq.md'] as const;
// The last one looks like a marker of a piece's text (emit/refs.ts): the run must not take it for one.
const WORDS = ['', 'Cheap.', 'Answers from the cache.', 'Not for bulk exports.', 'Returns the current version.', 'Marked \uE000abdefghijklm0\uE001'];

function initial(n: number): Model {
  const tools = Array.from({ length: n }, (_, i): Tool => ({ id: i, name: `shop.tool_${i}`, shape: SHAPES[i % 3]!, words: '', maxLength: 100, note: false, ...(i % 2 === 0 ? { http: `/collections/${i}` } : {}) }));
  // As many served resources as a quarter of the tools: a file of their contents grows with the manifest.
  const served = Array.from({ length: Math.max(2, n >> 2) }, (_, i) => SERVED[i % SERVED.length]!);
  return { tools, upstream: 'SHOP_BASE_URL', served, guide: 'How to use the shop.', promptText: 'Review item {{itemId}}. Point out missing fields.', complete: false, depth: false, itemMax: 100, version: '1.0.0', cache: false, embed: false, guideMime: 'text/markdown', guideUri: 'shop://guides/current', next: n };
}

type Edit =
  | { readonly kind: 'words'; readonly at: number; readonly words: string }
  | { readonly kind: 'schema'; readonly at: number; readonly maxLength: number; readonly note: boolean }
  | { readonly kind: 'add'; readonly shape: Tool['shape'] }
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'rename'; readonly at: number; readonly keepTrail: boolean }
  | { readonly kind: 'guide'; readonly words: string }
  | { readonly kind: 'prompt'; readonly words: string }
  | { readonly kind: 'pattern'; readonly at: number; readonly pattern: string | undefined }
  | { readonly kind: 'complete' }
  | { readonly kind: 'depth' }
  | { readonly kind: 'mention'; readonly at: number; readonly of: number }
  | { readonly kind: 'named'; readonly itemMax: number }
  | { readonly kind: 'instructions'; readonly of: number | undefined; readonly marked?: boolean }
  | { readonly kind: 'shape'; readonly at: number; readonly shape: Tool['shape'] }
  | { readonly kind: 'irreversible'; readonly at: number }
  | { readonly kind: 'server'; readonly version: string; readonly cache: boolean }
  | { readonly kind: 'embed' }
  | { readonly kind: 'guideRead'; readonly mime: string; readonly uri: string }
  | { readonly kind: 'stray'; readonly at: number }
  | { readonly kind: 'http'; readonly at: number; readonly path: string | undefined }
  | { readonly kind: 'upstream'; readonly env: string | undefined }
  | { readonly kind: 'served'; readonly at: number; readonly file: (typeof SERVED)[number] | 'add' | undefined };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('words' as const), at: fc.nat(), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('schema' as const), at: fc.nat(), maxLength: fc.constantFrom(20, 100, 200), note: fc.boolean() }),
  fc.record({ kind: fc.constant('add' as const), shape: fc.constantFrom(...SHAPES) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), keepTrail: fc.boolean() }),
  fc.record({ kind: fc.constant('guide' as const), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('prompt' as const), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('pattern' as const), at: fc.nat(), pattern: fc.constantFrom('^[a-z ]*$', '[', undefined) }),
  fc.record({ kind: fc.constant('complete' as const) }),
  fc.record({ kind: fc.constant('depth' as const) }),
  // One tool's description names another: the named tool's card lists it under what depends on it.
  fc.record({ kind: fc.constant('mention' as const), at: fc.nat(), of: fc.nat() }),
  fc.record({ kind: fc.constant('named' as const), itemMax: fc.constantFrom(8, 100, 123_456_789) }),
  // The server instructions (text no piece holds) may look like a marker of a piece's text (emit/refs.ts).
  fc.record({ kind: fc.constant('instructions' as const), of: fc.option(fc.nat(), { nil: undefined }), marked: fc.boolean() }),
  // A tool changes kind (its side effect, scopes, input and output), or a write tool becomes irreversible.
  fc.record({ kind: fc.constant('shape' as const), at: fc.nat(), shape: fc.constantFrom(...SHAPES) }),
  fc.record({ kind: fc.constant('irreversible' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('server' as const), version: fc.constantFrom('1.0.0', '1.1.0'), cache: fc.boolean() }),
  fc.record({ kind: fc.constant('embed' as const) }),
  // How the guide reads (which the prompt embedding it registers and tests), not the prompt itself.
  fc.record({ kind: fc.constant('guideRead' as const), mime: fc.constantFrom('text/markdown', 'text/plain', 'application/json'), uri: fc.constantFrom('shop://guides/current', 'shop://guides/next') }),
  // A tool entry's shape made invalid, or valid again: its piece's verdict must not outlive its text.
  fc.record({ kind: fc.constant('stray' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('http' as const), at: fc.nat(), path: fc.constantFrom('/items', '/v2/items', undefined) }),
  fc.record({ kind: fc.constant('upstream' as const), env: fc.constantFrom('SHOP_BASE_URL', 'SHOP_API_URL', undefined) }),
  // A served resource's file (its content) changed, or a served resource added or removed.
  fc.record({ kind: fc.constant('served' as const), at: fc.nat(), file: fc.constantFrom(...SERVED, 'add' as const, undefined) }),
);

function apply(m: Model, e: Edit): Model {
  const at = 'at' in e ? e.at % m.tools.length : 0;
  const replace = (f: (t: Tool) => Tool) => m.tools.map((t, i) => (i === at ? f(t) : t));
  switch (e.kind) {
    case 'words':
      return { ...m, tools: replace((t) => ({ ...t, words: e.words })) };
    case 'schema':
      return { ...m, tools: replace((t) => ({ ...t, maxLength: e.maxLength, note: e.note })) };
    case 'add':
      return { ...m, tools: [...m.tools, { id: m.next, name: `shop.tool_${m.next}`, shape: e.shape, words: '', maxLength: 100, note: false }], next: m.next + 1 };
    case 'remove':
      return m.tools.length > 1 ? { ...m, tools: m.tools.filter((_, i) => i !== at) } : m;
    case 'rename':
      return { ...m, tools: replace((t) => ({ ...t, name: `shop.renamed_${m.next}`, ...(e.keepTrail ? { renamedFrom: t.name } : {}) })), next: m.next + 1 };
    case 'guide':
      return { ...m, guide: `How to use the shop. ${e.words}` };
    case 'prompt':
      return { ...m, promptText: `Review item {{itemId}}. ${e.words} Point out missing fields.` };
    case 'pattern':
      return { ...m, tools: m.tools.map((t) => (t.shape === 'search' ? { ...t, pattern: e.pattern } : t)) };
    case 'complete':
      return { ...m, complete: !m.complete };
    case 'depth':
      return { ...m, depth: !m.depth };
    case 'mention':
      return { ...m, tools: replace((t) => ({ ...t, words: `Check with ${m.tools[e.of % m.tools.length]!.name} first.` })) };
    case 'named':
      return { ...m, itemMax: e.itemMax };
    case 'stray':
      return { ...m, tools: replace((t) => ({ ...t, stray: !t.stray })) };
    case 'instructions': {
      const { instructions: _, ...rest } = m;
      return e.of === undefined ? rest : { ...m, instructions: `Start with ${m.tools[e.of % m.tools.length]!.name}.${e.marked === true ? ` ${WORDS[5]}` : ''}` };
    }
    case 'shape':
      return { ...m, tools: replace((t) => ({ ...t, shape: e.shape })) };
    case 'irreversible':
      return { ...m, tools: replace((t) => ({ ...t, irreversible: !t.irreversible })) };
    case 'server':
      return { ...m, version: e.version, cache: e.cache };
    case 'embed':
      return { ...m, embed: !m.embed };
    case 'guideRead':
      return { ...m, guideMime: e.mime, guideUri: e.uri };
    case 'http':
      return { ...m, tools: replace(({ http: _, ...t }) => ({ ...t, ...(e.path !== undefined ? { http: e.path } : {}) })) };
    case 'upstream': {
      const { upstream: _, ...rest } = m;
      return e.env === undefined ? rest : { ...rest, upstream: e.env };
    }
    case 'served': {
      if (e.file === 'add') return { ...m, served: [...m.served, SERVED[m.served.length % SERVED.length]!] };
      if (m.served.length === 0) return m;
      const i = e.at % m.served.length;
      return { ...m, served: e.file === undefined ? m.served.filter((_, j) => j !== i) : m.served.map((f, j) => (j === i ? e.file! : f)) };
    }
  }
}

/**
 * What the author does to one generated file in both folders before a run (which may be forced): removes
 * it, writes it again as it is (a new modification time), or edits it (refused unless forced). The cached
 * run may then not take the texts of pieces from it.
 */
type FileChange = false | { readonly kind: 'remove' | 'touch' | 'edit'; readonly at: number; readonly force: boolean };
const fileChange: fc.Arbitrary<FileChange> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(false as const) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('remove' as const, 'touch' as const, 'edit' as const), at: fc.nat(), force: fc.boolean() }) },
);

const GENERATED = /\.gen(\.test)?\.ts$|mcp\.lock\.json$|CONTRACTS\.md$/;

/** Applies `change` to the same generated file of each folder. */
function changeFile(change: Exclude<FileChange, false>, dirs: readonly string[]): void {
  const files = Object.keys(tree(dirs[0]!)).filter((f) => GENERATED.test(f)).sort();
  const rel = files[change.at % files.length]!;
  for (const dir of dirs) {
    const path = join(dir, rel);
    const text = readFileSync(path, 'utf8');
    if (change.kind === 'remove') rmSync(path);
    else {
      // An edit in the middle: every text after it moved.
      const at = text.indexOf('\n', text.length >> 1) + 1;
      writeFileSync(path, change.kind === 'touch' ? text : `${text.slice(0, at)}// edited by hand\n${text.slice(at)}`);
    }
  }
}

/** What happens to the cached folder's cache between two runs. */
type Passage = 'kept' | 'skipped' | { readonly damage: number; readonly truncate: boolean };
const passage: fc.Arbitrary<Passage> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('kept' as const) },
  { weight: 1, arbitrary: fc.constant('skipped' as const) },
  { weight: 1, arbitrary: fc.record({ damage: fc.nat(), truncate: fc.boolean() }) },
);

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}


const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A new folder for a manifest, removed after the tests, with the files its resources may serve. */
function newRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gen-incremental-'));
  roots.push(root);
  writeFileSync(join(root, 'handbook.md'), '# Handbook\n\nHow the shop works: items, names, reviews.\n');
  writeFileSync(join(root, 'faq.md'), '# Questions\n\n- Can a name be restored? Yes, the previous name is kept.\n');
  return root;
}

/** A type compiler that counts the types compiled and notes how many were asked for when it was first told to start. */
class Watched extends TypeCompiler {
  compiled = 0;
  startedAfter: number | undefined;
  override need(): void {
    if (this.waiting && this.startedAfter === undefined) this.startedAfter = this.compiled;
    super.need();
  }
  override compile(body: object): Promise<string> {
    this.compiled++;
    return super.compile(body);
  }
}

/**
 * A generated folder of `n` tools with its cache, and a run of one edit after another on it (a `comment`
 * prepends a comment line, changing no entry), each with the cache passed on as bytes and a `Watched`
 * type compiler, which it returns.
 */
async function editRuns(n: number): Promise<(e: Edit | 'comment' | readonly Edit[]) => Promise<Watched>> {
  const root = newRoot();
  const file = join(root, 'mcp.manifest.yaml');
  const out = join(root, 'out');
  let model = initial(n);
  let comment = '';
  let cache = new GenerationCache('test');
  writeFileSync(file, manifest(model, true));
  await generate(file, { cwd: root, outDir: out, cache });
  return async (e) => {
    if (e === 'comment') comment = `# Edited by hand.\n${comment}`;
    else for (const one of Array.isArray(e) ? e : [e]) model = apply(model, one);
    writeFileSync(file, comment + manifest(model, true));
    cache = GenerationCache.parse(cache.serialize(), 'test');
    const types = new Watched();
    await generate(file, { cwd: root, outDir: out, cache, types });
    return types;
  };
}


describe('incremental generation', () => {
  it('writes exactly what a run without the cache writes, on random edits', { timeout: 600_000 }, async () => {
    let n = 0;
    let canaried = 0;
    let upstreamed = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.array(fc.tuple(edit, passage, fc.constantFrom(false as const, 'append' as const, 'strip' as const, 'break' as const), fileChange), { minLength: 1, maxLength: 4 }), async (size, steps) => {
        const root = newRoot();
        const file = join(root, 'mcp.manifest.yaml');
        const cached = join(root, 'cached');
        const plain = join(root, 'plain');
        let model = initial(size);
        let cache = new GenerationCache('test');
        const yaml = size % 2 === 0;
        const minified = size === 5;
        writeFileSync(file, manifest(model, yaml, minified));
        expect(await outcome(() => generate(file, { cwd: root, outDir: cached, cache }))).toMatch(/^ok/);
        expect(await outcome(() => generate(file, { cwd: root, outDir: plain }))).toMatch(/^ok/);
        for (const [e, p, handEdit, change] of steps) {
          model = apply(model, e);
          writeFileSync(file, manifest(model, yaml, minified));
          if (handEdit !== false) {
            // The author edits a handler in both folders: the cached run must notice it without the cache's help
            // (a comment added, a tool handler's declared return type taken out, which a contract change notes, or
            // a line that does not parse, which leaves the handler of a removed tool unmarked).
            const h = Object.keys(tree(cached)).filter((f) => f.startsWith(handEdit === 'append' ? 'handlers/' : 'handlers/tools/')).sort()[0];
            for (const dir of h === undefined ? [] : [cached, plain]) {
              if (handEdit === 'append') appendFileSync(join(dir, h!), '\n// kept by hand\n');
              else if (handEdit === 'break') appendFileSync(join(dir, h!), '\nexport const = ;\n');
              else writeFileSync(join(dir, h!), readFileSync(join(dir, h!), 'utf8').replace(/(=> \{|\)): Promise<Returns<\w+>>/, '$1'));
            }
          }
          if (change !== false) changeFile(change, [cached, plain]);
          const force = change !== false && change.force;
          if (typeof p === 'object') {
            const text = cache.serialize();
            const at = p.damage % text.length;
            const damaged = p.truncate ? text.slice(0, at) : `${text.slice(0, at)}${text[at] === 'x' ? 'y' : 'x'}${text.slice(at + 1)}`;
            cache = GenerationCache.parse(damaged, 'test');
          } else cache = GenerationCache.parse(cache.serialize(), 'test');
          const a = await outcome(() => generate(file, { cwd: root, outDir: cached, force, ...(p === 'skipped' ? {} : { cache }) }));
          const b = await outcome(() => generate(file, { cwd: root, outDir: plain, force }));
          expect(a).toBe(b);
          const out = tree(cached);
          expect(out).toEqual(tree(plain));
          if (out['contract/gates.gen.test.ts']?.includes('a record it creates for another tenant') === true) canaried++;
          if (out['upstream.gen.ts']?.includes('client.tool(') === true) upstreamed++;
          n++;
        }
      }),
      {
        numRuns: 12,
        seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729),
        // Always among the cases: a schema turned invalid and back, and a damaged cache after a schema change.
        examples: [
          [3, [[{ kind: 'pattern', at: 0, pattern: '[' }, 'kept', false, false], [{ kind: 'pattern', at: 0, pattern: '^[a-z ]*$' }, 'kept', 'append', false]]],
          // A tool handler loses its declared return type, then the contract changes twice: noted both times.
          [3, [[{ kind: 'stray', at: 1 }, 'kept', false, false], [{ kind: 'stray', at: 1 }, 'kept', false, false], [{ kind: 'words', at: 1, words: 'Cheap.' }, 'kept', false, false]]],
          [3, [[{ kind: 'schema', at: 0, maxLength: 30, note: true }, 'kept', 'strip', false], [{ kind: 'schema', at: 0, maxLength: 31, note: true }, 'kept', false, false]]],
          // A removed tool's handler: marked when it parses (known from the cache for a file as a run left it),
          // left unmarked when the author broke it, in the run that removes the tool or before.
          [3, [[{ kind: 'remove', at: 0 }, 'kept', 'break', false], [{ kind: 'remove', at: 0 }, 'kept', false, false]]],
          [3, [[{ kind: 'words', at: 1, words: 'Cheap.' }, 'kept', 'break', false], [{ kind: 'remove', at: 0 }, 'kept', false, false]]],
          [3, [[{ kind: 'words', at: 1, words: 'Cheap.' }, 'kept', 'strip', false], [{ kind: 'remove', at: 0 }, 'kept', false, false]]],
          [3, [[{ kind: 'schema', at: 1, maxLength: 20, note: true }, { damage: 77, truncate: false }, false, false], [{ kind: 'rename', at: 1, keepTrail: true }, 'skipped', false, false]]],
          // Cards and types kept from the last run, then what they read elsewhere changes: another tool's
          // text names a tool, the server instructions name one, a named schema changes, a mentioned tool is renamed.
          [4, [[{ kind: 'mention', at: 0, of: 1 }, 'kept', false, false], [{ kind: 'instructions', of: 2 }, 'kept', false, false], [{ kind: 'named', itemMax: 123_456_789 }, 'kept', false, false], [{ kind: 'rename', at: 1, keepTrail: false }, 'kept', false, false]]],
          // Pieces kept per primitive, then what they read elsewhere changes: a server-wide setting, a tool's
          // kind (the gate suite's reads of other tools), the resource a prompt embeds, a write made irreversible.
          [3, [[{ kind: 'embed' }, 'kept', false, false], [{ kind: 'guideRead', mime: 'application/json', uri: 'shop://guides/next' }, 'kept', false, false], [{ kind: 'server', version: '1.1.0', cache: true }, 'kept', false, false], [{ kind: 'shape', at: 0, shape: 'write' }, 'kept', false, false]]],
          [4, [[{ kind: 'irreversible', at: 2 }, 'kept', false, false], [{ kind: 'shape', at: 1, shape: 'get' }, 'kept', false, false], [{ kind: 'remove', at: 0 }, 'kept', false, false], [{ kind: 'add', shape: 'search' }, 'kept', false, false]]],
          // A generated file edited by hand (refused, then forced), removed, or written again as it was, while
          // the cache says which texts it holds; and a description that looks like a marker of a piece's text.
          [3, [[{ kind: 'words', at: 0, words: 'Cheap.' }, 'kept', false, { kind: 'edit', at: 10, force: true }], [{ kind: 'words', at: 1, words: 'Not for bulk exports.' }, 'kept', false, { kind: 'edit', at: 12, force: false }], [{ kind: 'words', at: 2, words: 'Cheap.' }, 'kept', false, { kind: 'remove', at: 13, force: false }]]],
          [3, [[{ kind: 'words', at: 0, words: 'Cheap.' }, 'kept', false, { kind: 'remove', at: 5, force: false }], [{ kind: 'words', at: 2, words: 'Cheap.' }, 'kept', false, { kind: 'touch', at: 7, force: false }], [{ kind: 'words', at: 2, words: '' }, 'kept', false, false]]],
          // A write tool's canary test reads by the searches: one search's schema changes, it is renamed, made a
          // get (which reads by another name), then a search is added.
          [3, [[{ kind: 'schema', at: 1, maxLength: 40, note: true }, 'kept', false, false], [{ kind: 'rename', at: 1, keepTrail: false }, 'kept', false, false], [{ kind: 'shape', at: 1, shape: 'get' }, 'kept', false, false], [{ kind: 'add', shape: 'search' }, 'kept', false, false]]],
          // The members of upstream.gen.ts: a tool's request changes, one loses it, the upstream goes and comes back
          // under another variable (every member reads it), a tool with a request is renamed.
          [4, [[{ kind: 'http', at: 0, path: '/v2/items' }, 'kept', false, false], [{ kind: 'http', at: 2, path: undefined }, 'kept', false, false], [{ kind: 'upstream', env: undefined }, 'kept', false, false], [{ kind: 'upstream', env: 'SHOP_API_URL' }, 'kept', false, false], [{ kind: 'rename', at: 0, keepTrail: false }, 'kept', false, false]]],
          [4, [[{ kind: 'words', at: 0, words: WORDS[5]! }, 'kept', false, false], [{ kind: 'instructions', of: 1, marked: true }, 'kept', false, false], [{ kind: 'words', at: 1, words: 'Cheap.' }, 'kept', false, false], [{ kind: 'instructions', of: 1 }, 'kept', false, false]]],
          // The contents of served files in server.gen.ts: one file's content changes, a served resource is
          // removed, the last one too (no constants left), then one is added again.
          // Minified JSON (five tools): a description, a schema, a removal and an addition, each one entry on the one line.
          [5, [[{ kind: 'words', at: 1, words: 'Cheap.' }, 'kept', false, false], [{ kind: 'schema', at: 2, maxLength: 25, note: true }, 'kept', 'append', false], [{ kind: 'remove', at: 0 }, 'kept', false, false], [{ kind: 'add', shape: 'write' }, 'kept', false, false]]],
          [3, [[{ kind: 'served', at: 0, file: 'faq.md' }, 'kept', false, false], [{ kind: 'served', at: 1, file: undefined }, 'kept', false, false], [{ kind: 'served', at: 0, file: undefined }, 'kept', false, false], [{ kind: 'served', at: 0, file: 'add' }, 'kept', false, false]]],
        ],
      },
    );
    expect(n).toBeGreaterThan(0);
    // The edits reach the canary tests (a write tool's test reads every search): they are among what is compared.
    expect(canaried).toBeGreaterThan(0);
    // And the members of upstream.gen.ts, one per tool with `http:`.
    expect(upstreamed).toBeGreaterThan(0);
  });

  // A tool added first shifts every other tool's place in the files: the units of the others are still reused.
  const addedFirst = (m: Model): Model => ({ ...m, tools: [{ id: m.next, name: `shop.tool_${m.next}`, shape: 'get', words: '', maxLength: 100, note: false }, ...m.tools], next: m.next + 1 });
  it.each<[string, (m: Model) => Model]>([
    ['a description', (m) => apply(m, { kind: 'words', at: 1, words: 'Cheap.' })],
    ['an input schema', (m) => apply(m, { kind: 'schema', at: 0, maxLength: 30, note: true })],
    ['a tool added first', addedFirst],
    ['a tool removed', (m) => apply(m, { kind: 'remove', at: 3 })],
    ['a served file', (m) => apply(m, { kind: 'served', at: 0, file: 'faq.md' })],
  ])('a change of %s recomputes as many cached steps with 24 tools as with 8', { timeout: 120_000 }, async (name, change) => {
    // What the second run computes again rather than reads back: the same for 8 tools as for 24.
    const recomputed = async (n: number) => {
      const root = newRoot();
      const file = join(root, 'mcp.manifest.yaml');
      const model = initial(n);
      writeFileSync(file, manifest(model, true));
      const first = new GenerationCache('test');
      await generate(file, { cwd: root, outDir: join(root, 'out'), cache: first });
      const next = GenerationCache.parse(first.serialize(), 'test');
      // Every result computed again is kept under its key (pieces of files through `put`, the rest too).
      const computed: string[] = [];
      const put = next.put.bind(next);
      next.put = (h, value) => (computed.push(h), put(h, value));
      writeFileSync(file, manifest(change(model), true));
      // And every unit of a list of a file (a registration, a card, a test) rendered again rather than taken from the old file.
      let rendered = 0;
      const add = PieceList.prototype.add;
      PieceList.prototype.add = function (this: PieceList, key, make) {
        add.call(this, key, () => (rendered++, make()));
      };
      try {
        await generate(file, { cwd: root, outDir: join(root, 'out'), cache: next });
      } finally {
        PieceList.prototype.add = add;
      }
      // The files were built from their texts as the last run recorded them, and record them again.
      const holding = (c: GenerationCache) => Object.entries(c.diskOf(join(root, 'out'))!.files).filter(([, f]) => f.sig !== undefined).map(([path]) => path);
      expect(holding(next)).toEqual(holding(first));
      expect(holding(next)).toContain('server.gen.ts');
      expect(holding(next)).toContain('upstream.gen.ts');
      return { computed: computed.length, rendered };
    };
    const small = await recomputed(8);
    // A removal renders nothing new: every other piece is the last run's.
    if (!name.includes('removed')) expect(small.rendered).toBeGreaterThan(0);
    expect(await recomputed(24)).toEqual(small);
  });

  it.each<[string, (m: Model) => Model]>([
    ['a tool added with the schemas of another', (m) => apply(m, { kind: 'add', shape: 'write' })],
    ['a removed tool put back', (m) => m],
  ])('%s, after runs that rendered no tool of its schemas, makes no sample', { timeout: 120_000 }, async (name, change) => {
    const root = newRoot();
    const file = join(root, 'mcp.manifest.yaml');
    const out = join(root, 'out');
    const model = initial(6);
    const run = async (m: Model, cache: GenerationCache): Promise<GenerationCache> => {
      writeFileSync(file, manifest(m, true));
      await generate(file, { cwd: root, outDir: out, cache });
      return GenerationCache.parse(cache.serialize(), 'test');
    };
    let cache = await run(model, new GenerationCache('test'));
    // Runs in which every tool's units are copied from the old files: a description changed, and changed back;
    // for the second case, the last write tool is removed in the first of them.
    const before = name.includes('removed') ? { ...model, tools: model.tools.filter((t) => t !== model.tools.at(-1)) } : model;
    cache = await run(apply(before, { kind: 'words', at: 0, words: 'Cheap.' }), cache);
    cache = await run(before, cache);
    const sample = SampleMaker.prototype.sample;
    let made = 0;
    SampleMaker.prototype.sample = function (this: SampleMaker, schema) {
      made++;
      return sample.call(this, schema);
    };
    try {
      await run(change(model), cache);
    } finally {
      SampleMaker.prototype.sample = sample;
    }
    // The units copied kept the samples they were made with, and the new tool's tests are made from them.
    expect(made).toBe(0);
  });

  it('keeps for one run what the run before used and it did not: a change undone in the next run compiles nothing, later it does', { timeout: 120_000 }, async () => {
    const root = newRoot();
    const file = join(root, 'mcp.manifest.yaml');
    const out = join(root, 'out');
    const run = async (m: Model, cache: GenerationCache): Promise<{ cache: GenerationCache; compiled: number; bytes: number }> => {
      writeFileSync(file, manifest(m, true));
      const types = new Watched();
      await generate(file, { cwd: root, outDir: out, cache, types });
      const bytes = cache.toBytes();
      return { cache: GenerationCache.parse(bytes, 'test'), compiled: types.compiled, bytes: bytes.length };
    };
    const model = initial(6);
    const removed = apply(model, { kind: 'remove', at: 2 });
    const other = apply(removed, { kind: 'words', at: 0, words: 'Cheap.' });
    const first = await run(model, new GenerationCache('test'));
    // Put back in the run after its removal: its type declarations are the removed run's spare ones.
    const back = await run(model, (await run(removed, first.cache)).cache);
    expect(back.compiled).toBe(0);
    // Put back after one more run that did not use them either: they were dropped, and are compiled again.
    const later = await run(model, (await run(other, (await run(removed, back.cache)).cache)).cache);
    expect(later.compiled).toBeGreaterThan(0);
    // What is spare is kept for one run only: the file comes back to its size once a run uses the same again.
    const settled = await run(model, (await run(model, later.cache)).cache);
    expect(settled.bytes).toBe((await run(model, settled.cache)).bytes);
  });

  it('a block rendered this run and asked for again comes with its text, not only its marker', () => {
    const refs = new TextRefs();
    const store = new Pieces(new GenerationCache('test'), 'global', refs, true, undefined).open('contract/tools.gen.test.ts', '');
    const first = store.block('gate.canaries', 'inputs', () => ({ text: 'describe 0\n', used: ['connect'] }), ['text']);
    const again = store.block('gate.canaries', 'inputs', () => ({ text: 'never\n', used: [] }), ['text']);
    expect(again.used).toEqual(['connect']);
    expect(again.text).toBe(first.text);
    expect([...refs.texts.values()]).toEqual(['describe 0\n']);
  });

  it('a list renders the units the last run did not have, and takes each other one from where it was', () => {
    const unique = fc.uniqueArray(fc.constantFrom(...'abcdefghij'), { maxLength: 10 });
    fc.assert(
      fc.property(unique, unique, (old, keys) => {
        const from = reuse(keys, old);
        // A unit the last run had under its key comes from where it was; each old unit is taken once at most.
        from.forEach((j, i) => j !== undefined && expect(old[j]).toBe(keys[i]));
        expect(new Set(from.filter((j) => j !== undefined)).size).toBe(from.filter((j) => j !== undefined).length);
        // Only a key the last run did not have is rendered.
        from.forEach((j, i) => j === undefined && expect(old).not.toContain(keys[i]));
      }),
    );
    const record = { keys: 'a\nb\nc', lens: [1, 0, 1], metas: '[["x"],null,["z"]]' };
    const made: string[] = [];
    const list = new PieceList<string[]>('blocks', '\n', record, 'marker');
    for (const k of ['a', 'n', 'c']) list.add(k, () => (made.push(k), { text: k.toUpperCase(), meta: [k] }));
    expect(list.done()).toBe('marker');
    expect(made).toEqual(['n']);
    expect(list.metas()).toEqual([['x'], ['n'], ['z']]);
    // Without the cache, every unit is rendered and the empty ones are left out.
    const plain = new PieceList('blocks', ', ', undefined, undefined);
    for (const t of ['A', '', 'C']) plain.add(undefined, () => ({ text: t }));
    expect(plain.done()).toBe('A, C');
  });

  it('compiles a few new types in the run\'s thread, and starts the worker before emission only for more', async () => {
    const run = await editRuns(4);
    // A few types to compile (a changed schema, an added tool) are compiled here: the worker is never told
    // to start. A description changed (of a tool whose types the last run held) or a tool removed compiles none.
    const here = { compiled: expect.any(Number), startedAfter: undefined };
    const none = { compiled: 0, startedAfter: undefined };
    const edits: [Edit | readonly Edit[], object][] = [
      [{ kind: 'words', at: 2, words: 'Now with more words.' }, none],
      [{ kind: 'schema', at: 2, maxLength: 7, note: true }, here],
      [{ kind: 'words', at: 2, words: 'Again.' }, none],
      [{ kind: 'add', shape: 'search' }, here],
      [{ kind: 'remove', at: 3 }, none],
      [{ kind: 'schema', at: 0, maxLength: 9, note: true }, here],
    ];
    for (const [e, expected] of edits) {
      const types = await run(e);
      const r = { compiled: types.compiled, startedAfter: types.startedAfter };
      expect(r, JSON.stringify(e)).toEqual(expected);
      if (expected === here) expect(r.compiled, JSON.stringify(e)).toBeGreaterThan(0);
      expect(r.compiled, JSON.stringify(e)).toBeLessThanOrEqual(FEW_TYPES);
    }
    // More new types than that (tools added, each with an input schema of its own): told to start before
    // the first type is asked for. The model holds 4 tools here; the added ones come after them.
    const many = Array.from({ length: FEW_TYPES + 1 }, (_, i): Edit[] => [{ kind: 'add', shape: 'search' }, { kind: 'schema', at: 4 + i, maxLength: 300 + i, note: true }]).flat();
    const types = await run(many);
    expect(types.startedAfter).toBe(0);
    expect(types.compiled).toBeGreaterThan(FEW_TYPES);
  });

  it('keeps what a copied unit of types.gen.ts was made from: each run compiles only the types of the primitive it changed or added', async () => {
    const run = await editRuns(5);
    // Each edit touches a primitive the runs before it copied from the old file rather than rendered; a
    // comment changes no entry, and types.gen.ts is then kept whole.
    const edits: [Edit | 'comment', 'compiles' | 'none'][] = [
      [{ kind: 'schema', at: 1, maxLength: 7, note: true }, 'compiles'],
      [{ kind: 'words', at: 3, words: 'Now with more words.' }, 'none'],
      ['comment', 'none'],
      [{ kind: 'words', at: 1, words: 'After a comment.' }, 'none'],
      [{ kind: 'add', shape: 'write' }, 'compiles'],
      [{ kind: 'words', at: 0, words: 'Cheap.' }, 'none'],
      [{ kind: 'schema', at: 4, maxLength: 9, note: true }, 'compiles'],
      [{ kind: 'words', at: 2, words: 'Again.' }, 'none'],
    ];
    for (const [e, expected] of edits) {
      const types = await run(e);
      // A changed or added tool has an input and an output type at most; a description compiles none.
      if (expected === 'none') expect(types.compiled, JSON.stringify(e)).toBe(0);
      else expect(types.compiled, JSON.stringify(e)).toBeGreaterThan(0), expect(types.compiled, JSON.stringify(e)).toBeLessThanOrEqual(2);
    }
  });

  it('reuses the cache: a run with nothing new compiles no type and reads no unchanged handler', async () => {
    const root = newRoot();
    const file = join(root, 'mcp.manifest.yaml');
    writeFileSync(file, manifest(initial(4), true));
    const out = join(root, 'out');
    const first = new GenerationCache('test');
    await generate(file, { cwd: root, outDir: out, cache: first });
    const next = GenerationCache.parse(first.serialize(), 'test');
    // What the last run left says the type compiler may wait for its first miss (see TypeCompiler.start).
    expect(next.hasTypes).toBe(true);
    expect(new GenerationCache('test').hasTypes).toBe(false);
    let compiled = 0;
    const types = { start() {}, stop() {}, compile: async () => { compiled++; return 'never'; } } as never;
    const r = await generate(file, { cwd: root, outDir: out, cache: next, types });
    expect(compiled).toBe(0);
    expect(r.report.written).toEqual([]);
    // Files kept unread or put together from the old ones still give their content to the caller.
    for (const f of r.files.filter((x) => x.owner === 'generator')) expect(f.content).toBe(readFileSync(join(out, f.path), 'utf8'));
    expect(r.files.find((f) => f.path === 'server.gen.ts')?.content).toMatch(/registerTool/);
    expect(next.diskOf(out)).toBeDefined();
    // A damaged file, or one from another build, is an empty cache: nothing of it is used.
    for (const other of [GenerationCache.parse(first.serialize().replace('interface', 'interfacf'), 'test'), GenerationCache.parse(first.serialize(), 'another build')]) {
      expect(other.diskOf(out)).toBeUndefined();
      let asked = 0;
      await generate(file, { cwd: root, outDir: out, cache: other, types: { start() {}, stop() {}, compile: async () => (asked++, 'unknown') } as never }).catch(() => undefined);
      expect(asked).toBeGreaterThan(0);
    }
  });
});
