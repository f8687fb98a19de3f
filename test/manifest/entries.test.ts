/**
 * The front's results kept per manifest entry (manifest/entries.ts) never change what analysis gives: on
 * random sequences of edits to one entry that change what the checks of other entries, or across
 * entries, see — a tool renamed (so another's text names a tool that no longer exists, an identifier
 * collides, a `renamedFrom` names a live tool), a scope declared, dropped or used, a resource's URI made a
 * template that a prompt embeds without the variable, `subscribe` against the capability, a named schema
 * changed (so an input it names is no object), an entry moved or reformatted, an entry named `__proto__`, a
 * `$ref`'d input file or a `source:` file changed under an unchanged entry — the diagnostics (every field, in
 * order), the IR (locations read) and the contract are the same with a cache carried from the earlier
 * runs (kept, skipped for a run, or damaged) as without one. A manifest written as JSON is read whole
 * and keeps nothing; one written as YAML keeps its entries, also when it names objects by alias (then
 * each entry is kept under its value, which a change of the anchor it names reaches).
 */
import * as fc from 'fast-check';
import { dump } from 'js-yaml';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { EMPTY_INPUT } from '../../generator/ir/build.js';
import type { Ir } from '../../generator/ir/types.js';
import { analyseManifest } from '../../generator/pipeline.js';

const NAMES = ['shop.get', 'shop.list', 'shop.remove', 'orders.find', 'shop_get', 'Shop-Get', '__proto__'];
const SCOPES = ['items:read', 'items:write', 'items:admin'];

interface Tool {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly effect: 'read' | 'write' | 'irreversible';
  /** `idempotency: required` (a warning on a read tool). */
  readonly keyed: boolean;
  /** The tool's input: a named schema, none (the shared default), its own, or the file `ItemQuery` is read from. */
  readonly input: 'named' | 'none' | 'own' | 'file';
  readonly renamedFrom?: string;
  /** Another tool named in the description. */
  readonly mentions?: string;
  /** Blank and comment lines inside the entry: its text changes, its value does not. */
  readonly padding: boolean;
}

interface Model {
  readonly tools: readonly Tool[];
  readonly declared: readonly string[];
  readonly itemMax: number;
  /** `ItemQuery` (the input some tools name) is an object schema; a string schema is no tool input (MG602). */
  readonly queryObject: boolean;
  /** The view resource: a fixed URI or a template with `{itemId}`; scoped or not; subscribed or not. */
  readonly view: { readonly templated: boolean; readonly scoped: boolean; readonly subscribe: boolean };
  /** `server.capabilities.resources.subscribe: false`. */
  readonly noSubscribe: boolean;
  /** The prompt embeds the view (or a resource that is not declared), and takes `itemId` or not. */
  readonly prompt: { readonly embeds: 'view' | 'missing' | undefined; readonly itemArg: boolean; readonly scoped: boolean; readonly text: string };
  /** Comment lines above `tools:`: every entry below moves. */
  readonly shift: number;
  /**
   * Files the manifest reads, which change while its text does not: the input of `files.get` (`$ref`'d,
   * bounded or not), and the text a `guide` resource serves (`source:`).
   */
  readonly queryBound: boolean;
  readonly guide: string;
  /**
   * Where `ItemQuery` is written: in the manifest, in a file it `$ref`s, or in a file that `$ref`s another
   * for its item id; the files change with the model while the manifest's text does not.
   */
  readonly queryIn: 'manifest' | 'file' | 'nested';
  /**
   * Every tool takes the first tool's scopes (one array) and the one own input (one object), which the
   * YAML text writes once with an anchor and names by alias after: an edit of the first tool's scopes
   * changes every tool while the others' texts stay the same.
   */
  readonly aliases: boolean;
}

function toolEntry(t: Tool, own: object = ownInput()): [string, object] {
  const input = t.input === 'named' ? { $ref: '#/schemas/ItemQuery' } : t.input === 'own' ? own : t.input === 'file' ? { $ref: './item-query.json' } : undefined;
  return [t.name, {
    description: `Works on items.${t.mentions !== undefined ? ` Call ${t.mentions} first.` : ''}`,
    sideEffect: t.effect,
    ...(t.keyed || t.effect !== 'read' ? { idempotency: 'required' } : {}),
    ...(t.effect === 'irreversible' ? { approval: 'required' } : {}),
    ...(t.scopes.length > 0 ? { scopes: t.scopes } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(t.renamedFrom !== undefined ? { renamedFrom: t.renamedFrom } : {}),
  }];
}

const ownInput = () => ({ type: 'object', properties: { q: { type: 'string', maxLength: 30 } }, additionalProperties: false });

function valueOf(m: Model): object {
  const own = ownInput();
  const shared = (t: Tool): Tool => (m.aliases ? { ...t, scopes: m.tools[0]!.scopes } : t);
  return {
    mcpgen: 1,
    server: {
      name: 'entries-shop', version: '1.0.0',
      ...(m.declared.length > 0 ? { scopes: Object.fromEntries(m.declared.map((s) => [s, `Scope ${s}`])) } : {}),
      ...(m.noSubscribe ? { capabilities: { resources: { subscribe: false } } } : {}),
    },
    schemas: {
      ItemId: { type: 'string', maxLength: m.itemMax },
      ItemQuery: m.queryIn !== 'manifest' ? { $ref: './item-query.json' } : m.queryObject ? { type: 'object', properties: { itemId: { $ref: '#/schemas/ItemId' } }, required: ['itemId'], additionalProperties: false } : { type: 'string' },
    },
    tools: { ...Object.fromEntries(m.tools.map((t) => (m.aliases ? toolEntry(shared(t), own) : toolEntry(t)))), 'files.get': { description: 'Finds files.', sideEffect: 'read', input: { $ref: './query.json' } } },
    resources: {
      guide: { uri: 'shop://guide', description: 'The guide.', mimeType: 'text/markdown', source: './guide.md' },
      view: {
        ...(m.view.templated ? { uriTemplate: 'shop://items/{itemId}', params: { itemId: { $ref: '#/schemas/ItemId' } } } : { uri: 'shop://items/current' }),
        description: 'One item.', mimeType: 'application/json',
        ...(m.view.scoped ? { scopes: ['items:read'] } : {}),
        ...(m.view.subscribe ? { subscribe: true } : {}),
      },
    },
    prompts: {
      review: {
        description: 'Review an item.',
        ...(m.prompt.scoped ? { scopes: ['items:read'] } : {}),
        ...(m.prompt.itemArg ? { arguments: { itemId: { required: true, schema: { $ref: '#/schemas/ItemId' } } } } : {}),
        messages: [{ role: 'user', text: m.prompt.text }, ...(m.prompt.embeds !== undefined ? [{ role: 'user', resource: m.prompt.embeds === 'view' ? 'view' : 'gone' }] : [])],
      },
    },
  };
}

/** The manifest as block YAML (read in pieces), padded and shifted as the model says, or as JSON (read whole). */
function textOf(m: Model, json: boolean): string {
  if (json) return JSON.stringify(valueOf(m), null, 2);
  let text = dump(valueOf(m), { lineWidth: -1, noRefs: !m.aliases });
  for (const t of m.tools.filter((x) => x.padding)) {
    const key = new RegExp(`\\n  '?${t.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'?:\\n`);
    text = text.replace(key, (line) => `${line}    # kept by hand\n\n`);
  }
  return text.replace('\ntools:\n', `\n${'# moved\n'.repeat(m.shift)}tools:\n`);
}

/** Mostly what a valid manifest holds (an analysis with errors keeps nothing), sometimes what breaks it. */
const mostly = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: usual }, { weight: 1, arbitrary: odd });
// `shop_get` and `Shop-Get` derive the identifier of `shop.get`; `__proto__` is never cut into a piece of its own.
const name = mostly(fc.constantFrom('shop.get', 'shop.list', 'shop.remove', 'orders.find'), fc.constantFrom('shop_get', 'Shop-Get', '__proto__'));
const declared = mostly(fc.constant(SCOPES), fc.subarray(SCOPES));
const renamedFrom = mostly(fc.constantFrom(undefined, 'shop.old'), fc.constantFrom(...NAMES));
const prompt = fc.record({
  embeds: mostly(fc.constantFrom('view' as const, undefined), fc.constant('missing' as const)),
  itemArg: mostly(fc.constant(true), fc.constant(false)),
  scoped: fc.boolean(),
  text: fc.constantFrom('Review it.', 'Review it, then call shop.remove.', 'Review {{itemId}}.'),
});

const tool = fc.record({
  name,
  scopes: fc.subarray(SCOPES),
  effect: fc.constantFrom('read' as const, 'write' as const, 'irreversible' as const),
  keyed: fc.boolean(),
  input: fc.constantFrom('named' as const, 'none' as const, 'own' as const, 'file' as const),
  renamedFrom,
  mentions: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
  padding: fc.boolean(),
}, { requiredKeys: ['name', 'scopes', 'effect', 'keyed', 'input', 'padding'] });

const model: fc.Arbitrary<Model> = fc.record({
  tools: fc.uniqueArray(tool, { minLength: 1, maxLength: 4, selector: (t) => t.name }),
  declared,
  itemMax: fc.constantFrom(12, 40),
  queryObject: mostly(fc.constant(true), fc.constant(false)),
  view: fc.record({ templated: fc.boolean(), scoped: fc.boolean(), subscribe: mostly(fc.constant(false), fc.constant(true)) }),
  noSubscribe: mostly(fc.constant(false), fc.constant(true)),
  prompt,
  shift: fc.nat({ max: 2 }),
  queryBound: fc.boolean(),
  guide: fc.constantFrom('# Guide', '# Guide\n\nRead it twice.'),
  queryIn: fc.constantFrom('manifest' as const, 'file' as const, 'nested' as const),
  aliases: fc.boolean(),
});

/**
 * The files `ItemQuery` is read from when the manifest `$ref`s it (see `Model.queryIn`): the schema itself,
 * or a file that `$ref`s the file holding it (which then changes alone when the schema does).
 */
function queryFiles(m: Model): Record<string, object> {
  const query = m.queryObject ? { type: 'object', properties: { itemId: { type: 'string', maxLength: m.itemMax } }, required: ['itemId'], additionalProperties: false } : { type: 'string' };
  return m.queryIn === 'nested' ? { 'item-query.json': { $ref: './query-body.json' }, 'query-body.json': query } : { 'item-query.json': query, 'query-body.json': {} };
}

type Edit = (m: Model) => Model;
const at = (m: Model, i: number, f: (t: Tool) => Tool): Model => ({ ...m, tools: m.tools.map((t, j) => (j === i % m.tools.length ? f(t) : t)) });
const unique = (m: Model): Model => ({ ...m, tools: m.tools.filter((t, i) => m.tools.findIndex((u) => u.name === t.name) === i) });

/** Edits of one tool entry. */
const toolEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.nat(), name).map(([i, n]): Edit => (m) => unique(at(m, i, (t) => ({ ...t, name: n })))),
  fc.tuple(fc.nat(), renamedFrom).map(([i, r]): Edit => (m) => at(m, i, (t) => { const { renamedFrom: _, ...rest } = t; return r === undefined ? rest : { ...rest, renamedFrom: r }; })),
  fc.tuple(fc.nat(), fc.subarray(SCOPES)).map(([i, scopes]): Edit => (m) => at(m, i, (t) => ({ ...t, scopes }))),
  fc.tuple(fc.nat(), fc.constantFrom('read' as const, 'write' as const, 'irreversible' as const), fc.boolean()).map(([i, effect, keyed]): Edit => (m) => at(m, i, (t) => ({ ...t, effect, keyed }))),
  fc.tuple(fc.nat(), fc.constantFrom('named' as const, 'none' as const, 'own' as const, 'file' as const)).map(([i, input]): Edit => (m) => at(m, i, (t) => ({ ...t, input }))),
  fc.tuple(fc.nat(), fc.option(fc.constantFrom(...NAMES), { nil: undefined })).map(([i, x]): Edit => (m) => at(m, i, (t) => { const { mentions: _, ...rest } = t; return x === undefined ? rest : { ...rest, mentions: x }; })),
  fc.nat().map((i): Edit => (m) => at(m, i, (t) => ({ ...t, padding: !t.padding }))),
  tool.map((t): Edit => (m) => unique({ ...m, tools: [...m.tools, t] })),
  fc.nat().map((i): Edit => (m) => (m.tools.length > 1 ? { ...m, tools: m.tools.filter((_, j) => j !== i % m.tools.length) } : m)),
  fc.nat().map((i): Edit => (m) => ({ ...m, tools: [...m.tools.slice(i % m.tools.length), ...m.tools.slice(0, i % m.tools.length)] })),
);

/** Edits of what the tool entries' checks read beside themselves: the server, the named schemas, the other entries. */
const otherEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constantFrom(...SCOPES).map((s): Edit => (m) => ({ ...m, declared: m.declared.includes(s) ? m.declared.filter((d) => d !== s) : [...m.declared, s] })),
  fc.constantFrom(12, 40, 41).map((itemMax): Edit => (m) => ({ ...m, itemMax })),
  fc.constant((m: Model) => ({ ...m, queryObject: !m.queryObject })),
  fc.constantFrom('manifest' as const, 'file' as const, 'nested' as const).map((queryIn): Edit => (m) => ({ ...m, queryIn })),
  fc.record({ templated: fc.boolean(), scoped: fc.boolean(), subscribe: fc.boolean() }).map((view): Edit => (m) => ({ ...m, view })),
  fc.constant((m: Model) => ({ ...m, noSubscribe: !m.noSubscribe })),
  fc.constant((m: Model) => ({ ...m, aliases: !m.aliases })),
  prompt.map((p): Edit => (m) => ({ ...m, prompt: p })),
  fc.nat({ max: 2 }).map((shift): Edit => (m) => ({ ...m, shift })),
);

/** One edit: to one tool entry, or to what other entries' checks read. */
const edit: fc.Arbitrary<Edit> = fc.oneof(toolEdit, otherEdit);

/** Everything analysis gives that a later phase or the user reads: diagnostics with their positions, the IR and contract as JSON. */
async function analysed(file: string, cache?: GenerationCache): Promise<unknown> {
  const a = await analyseManifest(file, cache ? { cache } : {});
  const defaults = (ir: Ir) => ir.tools.map((t) => t.input === EMPTY_INPUT);
  return {
    diagnostics: a.diagnostics.map((d) => ({ ...d })),
    ir: a.ir && JSON.parse(JSON.stringify(a.ir)),
    defaults: a.ir && defaults(a.ir),
    contract: a.contract && JSON.stringify({ ...a.contract, graph: undefined }),
    files: a.files,
  };
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Counts the entries whose kept results a cache answered (their records were found). */
function counting(cache: GenerationCache, hits: { n: number }): GenerationCache {
  const fragment = cache.fragment.bind(cache);
  cache.fragment = <T>(key: string, compute: () => T): T => {
    let computed = false;
    const v = fragment(key, () => ((computed = true), compute()));
    if (key.startsWith('front-entry\0') && !computed) hits.n++;
    return v;
  };
  return cache;
}

/**
 * Runs that each start from the cache file the last one left; `next` starts one and returns the fragments
 * it computes, named by `name` (those it names undefined are left out).
 */
function carried(name: (key: string) => string | undefined): { readonly cache: GenerationCache; next(): string[] } {
  let cache = new GenerationCache('test');
  return {
    get cache() {
      return cache;
    },
    next() {
      cache = GenerationCache.parse(cache.serialize(), 'test');
      const computed: string[] = [];
      const fragment = cache.fragment.bind(cache);
      cache.fragment = <T>(key: string, compute: () => T): T => fragment(key, () => {
        const n = name(key);
        if (n !== undefined) computed.push(n);
        return compute();
      });
      return computed;
    },
  };
}

describe('front results kept per entry', () => {
  it('change nothing analysis gives, on random edits that change what other entries read', { timeout: 600_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-entries-'));
    roots.push(root);
    writeFileSync(join(root, 'package.json'), '{}');
    let runs = 0;
    const hits = { n: 0 };
    const aliasHits = { n: 0 };
    let aliasSteps = 0;
    await fc.assert(
      fc.asyncProperty(model, fc.array(fc.tuple(edit, fc.constantFrom('kept', 'kept', 'kept', 'skipped', 'damaged'), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 5 }), fc.boolean(), async (start, steps, json) => {
        const file = join(root, `m${runs}.yaml`);
        let aliased = false;
        const write = (m: Model) => {
          const text = textOf(m, json);
          aliased = /\*ref_/.test(text);
          if (aliased) aliasSteps++;
          writeFileSync(file, text);
          writeFileSync(join(root, 'query.json'), JSON.stringify({ type: 'object', properties: { q: { type: 'string', ...(m.queryBound ? { maxLength: 40 } : {}) } }, additionalProperties: false }));
          writeFileSync(join(root, 'guide.md'), m.guide);
          for (const [f, schema] of Object.entries(queryFiles(m))) writeFileSync(join(root, f), JSON.stringify(schema));
        };
        let m = start;
        let cache = new GenerationCache('test');
        write(m);
        expect(await analysed(file, cache)).toEqual(await analysed(file));
        for (const [e, passage, bound, guide] of steps) {
          // Besides the edit, the files it reads may change under unchanged entries.
          m = { ...e(m), queryBound: bound, guide: guide ? '# Guide' : '# Guide\n\nRead it twice.' };
          write(m);
          const text = cache.serialize();
          // A damaged file is dropped whole (its checksum fails): the run starts from an empty cache.
          cache = counting(GenerationCache.parse(passage === 'damaged' ? text.replace('"', "'") : text, 'test'), aliased ? aliasHits : hits);
          expect(await analysed(file, passage === 'skipped' ? undefined : cache)).toEqual(await analysed(file));
          runs++;
        }
      }),
      { numRuns: 120, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    expect(runs).toBeGreaterThan(100);
    // The cases are not all read whole, nor all invalid (which keeps nothing): kept entries answered many runs.
    expect(hits.n).toBeGreaterThan(60);
    // Texts with aliases were written, and their kept entries answered runs too.
    expect(aliasSteps).toBeGreaterThan(20);
    expect(aliasHits.n).toBeGreaterThan(5);
  });
});

describe('a one-entry change', () => {
  it('reads, checks and builds that entry only: the others are neither parsed nor resolved', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-entries-'));
    roots.push(root);
    const file = join(root, 'mcp.manifest.yaml');
    const tools = (changed: string) =>
      Array.from({ length: 30 }, (_, i) => `  shop.tool_${i}:\n    description: "${i === 7 ? changed : `Looks up item ${i}.`}"\n    sideEffect: read\n    input: { type: object, properties: { itemId: { $ref: '#/schemas/ItemId' } }, additionalProperties: false }\n`).join('');
    const text = (changed: string) => `mcpgen: 1\nserver:\n  name: one-change\n  version: 1.0.0\nschemas:\n  ItemId: { type: string, maxLength: 20 }\ntools:\n${tools(changed)}`;
    writeFileSync(file, text('Looks up item 7.'));
    const first = new GenerationCache('test');
    await analyseManifest(file, { cache: first });
    const next = GenerationCache.parse(first.serialize(), 'test');
    const asked: string[] = [];
    const computed: string[] = [];
    const fragment = next.fragment.bind(next);
    next.fragment = <T>(key: string, compute: () => T): T => {
      asked.push(key.slice(0, key.indexOf('\0')));
      return fragment(key, () => (computed.push(key.slice(0, key.indexOf('\0'))), compute()));
    };
    writeFileSync(file, text('Looks up item 7, by id.'));
    const a = await analyseManifest(file, { cache: next });
    expect(a.ir?.tools.map((t) => t.description)[7]).toBe('Looks up item 7, by id.');
    const count = (list: string[], kind: string) => list.filter((k) => k === kind).length;
    // The pieces read: the skeleton's (mcpgen, server, the named schema) and the changed entry; no other entry.
    expect(count(asked, 'yaml')).toBe(4);
    expect(count(computed, 'yaml')).toBe(1);
    // Every entry's record is looked up; the changed one's misses (it is computed, and put for the next run).
    expect(count(asked, 'front-entry')).toBe(30);
    expect(count(computed, 'front-entry')).toBe(1);
    expect(a.diagnostics).toEqual((await analyseManifest(file)).diagnostics);
  });

  // Read through a second file, the schema is not followed there: nothing is kept, and the change is still seen.
  it.each([['read from a file', false], ['read from a file that $refs another', true]])('keeps the other entries when a named schema is %s, and checks them all again when the file changes', async (_, nested) => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-entries-'));
    roots.push(root);
    writeFileSync(join(root, 'package.json'), '{}');
    const file = join(root, 'mcp.manifest.yaml');
    // The query schema, with a local reference of its own: an object, or a string (no tool input: MG602 on every tool).
    if (nested) writeFileSync(join(root, 'query.json'), JSON.stringify({ $ref: './query-body.json' }));
    const schemaFile = (object: boolean) => writeFileSync(join(root, nested ? 'query-body.json' : 'query.json'), JSON.stringify(object
      ? { type: 'object', properties: { itemId: { $ref: '#/$defs/Id' } }, additionalProperties: false, $defs: { Id: { type: 'string', maxLength: 20 } } }
      : { type: 'string' }));
    const tools = (changed: string) =>
      Array.from({ length: 30 }, (_, i) => `  shop.tool_${i}:\n    description: "${i === 7 ? changed : `Looks up item ${i}.`}"\n    sideEffect: read\n    input: { $ref: '#/schemas/ItemQuery' }\n`).join('');
    const text = (changed: string) => `mcpgen: 1\nserver:\n  name: one-change\n  version: 1.0.0\nschemas:\n  ItemQuery: { $ref: './query.json' }\ntools:\n${tools(changed)}`;
    schemaFile(true);
    writeFileSync(file, text('Looks up item 7.'));
    const runs = carried((key) => key.slice(0, key.indexOf('\0')));
    await analyseManifest(file, { cache: runs.cache });
    const fronts = (list: string[]) => list.filter((k) => k === 'front-entry').length;
    const errors = (a: Awaited<ReturnType<typeof analyseManifest>>) => a.diagnostics.filter((d) => d.code === 'MG602').length;
    // One entry edited: only its record misses (it is computed again), as when the named schema is in the manifest.
    let computed = runs.next();
    writeFileSync(file, text('Looks up item 7, by id.'));
    let a = await analyseManifest(file, { cache: runs.cache });
    expect(fronts(computed)).toBe(nested ? 0 : 1);
    expect(errors(a)).toBe(0);
    expect(a.diagnostics).toEqual((await analyseManifest(file)).diagnostics);
    // The file changes, the manifest does not: no kept entry answers, and every tool is checked against the new schema.
    computed = runs.next();
    schemaFile(false);
    a = await analyseManifest(file, { cache: runs.cache });
    // All 30 records are looked up and missed; none is kept, as each entry now has a finding.
    expect(fronts(computed)).toBe(nested ? 0 : 30);
    expect(errors(a)).toBe(30);
    expect(a.diagnostics).toEqual((await analyseManifest(file)).diagnostics);
  });

  it('keeps the entries whose inputs are schema files while those files and the project folder are unchanged', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-entries-'));
    roots.push(root);
    writeFileSync(join(root, 'package.json'), '{}');
    const dir = join(root, 'api');
    mkdirSync(dir);
    const file = join(dir, 'mcp.manifest.yaml');
    // Three files: each tool's input is one of them, two of them read a third; one lies above the manifest's folder.
    const write = (max: number) => {
      writeFileSync(join(dir, 'a.json'), JSON.stringify({ type: 'object', properties: { id: { $ref: './id.json' } }, additionalProperties: false }));
      writeFileSync(join(dir, 'id.json'), JSON.stringify({ type: 'string', maxLength: max }));
      writeFileSync(join(root, 'b.json'), JSON.stringify({ type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false }));
    };
    const tools = (changed: string) =>
      Array.from({ length: 30 }, (_, i) => `  shop.tool_${i}:\n    description: "${i === 7 ? changed : `Looks up item ${i}.`}"\n    sideEffect: read\n    input: { $ref: '${i % 3 === 0 ? '../b.json' : './a.json'}' }\n`).join('');
    const text = (changed: string) => `mcpgen: 1\nserver:\n  name: file-inputs\n  version: 1.0.0\ntools:\n${tools(changed)}`;
    write(20);
    writeFileSync(file, text('Looks up item 7.'));
    const runs = carried((key) => key.slice(0, key.indexOf('\0')));
    await analyseManifest(file, { cache: runs.cache });
    // Entries read from the manifest's text (a kept entry is not; one whose files changed is, and is built again).
    const reads = (list: string[]) => list.filter((k) => k === 'yaml').length;
    const same = async (a: Awaited<ReturnType<typeof analyseManifest>>) => expect(JSON.stringify(a)).toBe(JSON.stringify(await analyseManifest(file)));
    // One entry edited: only its record misses; the files are inputs all the same.
    let computed = runs.next();
    writeFileSync(file, text('Looks up item 7, by id.'));
    let a = await analyseManifest(file, { cache: runs.cache });
    expect(reads(computed)).toBe(1);
    expect(a.files).toEqual([file, ...[join(root, 'b.json'), join(dir, 'a.json'), join(dir, 'id.json')].sort()]);
    await same(a);
    // A file read through another changes under an unchanged manifest: the 20 tools that read it are built again.
    computed = runs.next();
    write(8);
    a = await analyseManifest(file, { cache: runs.cache });
    expect(reads(computed)).toBe(20);
    expect(JSON.stringify(a.ir?.tools[1]?.input)).toContain('"maxLength":8');
    await same(a);
    // The project folder moves to the manifest's own (a package.json beside it): `../b.json` now leaves the
    // project, which the 10 tools that read it are told (MG606), though no file they read changed.
    computed = runs.next();
    writeFileSync(join(dir, 'package.json'), '{}');
    a = await analyseManifest(file, { cache: runs.cache });
    expect(reads(computed)).toBe(30);
    expect(a.diagnostics.filter((d) => d.code === 'MG606')).toHaveLength(10);
    await same(a);
  });

  it('keeps a resource that serves a file while the file is unchanged, and reads the file as an input either way', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-entries-'));
    roots.push(root);
    const file = join(root, 'mcp.manifest.yaml');
    const docs = Array.from({ length: 20 }, (_, i) => join(root, `doc${i}.md`));
    docs.forEach((d, i) => writeFileSync(d, `# Document ${i}\n`));
    const resources = Array.from({ length: 20 }, (_, i) => `  doc${i}:\n    uri: docs://doc${i}\n    description: Document ${i}.\n    mimeType: text/markdown\n    source: ./doc${i}.md\n`).join('');
    const text = (words: string) => `mcpgen: 1\nserver:\n  name: docs\n  version: 1.0.0\ntools:\n  docs.find:\n    description: "Finds documents. ${words}"\n    sideEffect: read\nresources:\n${resources}`;
    writeFileSync(file, text(''));
    // The manifest's pieces each run reads (parses).
    const runs = carried((key) => (key.startsWith('yaml\0') ? key.slice(5, key.indexOf(':')) : undefined));
    await analyseManifest(file, { cache: runs.cache });
    const source = (a: Awaited<ReturnType<typeof analyseManifest>>, i: number) => a.ir?.resources[i]?.source?.content;
    // The tool changes: only its entry is read; every served file is still an input.
    let read = runs.next();
    writeFileSync(file, text('Read only.'));
    let a = await analyseManifest(file, { cache: runs.cache });
    expect(read).toEqual(['  docs.find']);
    expect(a.files).toEqual([file, ...[...docs].sort()]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(await analyseManifest(file)));
    // One served file changes under an unchanged manifest: that resource is read and checked again, with the new text.
    read = runs.next();
    writeFileSync(docs[4]!, '# Document 4, revised\n');
    a = await analyseManifest(file, { cache: runs.cache });
    expect(read).toEqual(['  doc4']);
    expect(source(a, 4)).toBe('# Document 4, revised\n');
    expect(JSON.stringify(a)).toBe(JSON.stringify(await analyseManifest(file)));
    // Kept again with the new file: the next edit of the tool reads the tool alone.
    read = runs.next();
    writeFileSync(file, text('Read only, by title.'));
    a = await analyseManifest(file, { cache: runs.cache });
    expect(read).toEqual(['  docs.find']);
    expect(source(a, 4)).toBe('# Document 4, revised\n');
  });
});
