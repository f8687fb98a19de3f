/**
 * Emits `contract/gates.gen.test.ts`: the seed's gates that are not a refusal of one call, each in a
 * `describe` named after its gate (hard · cross-tenant canary with a planted record, hard · hidden side
 * effect, hard · unauthorized write by a read tool, quality · stale revision, compatibility · capability
 * vs behaviour, recovery · retry after an ambiguous timeout), and the composition checks.
 * The per-call gates (cross-tenant canary, unauthorized write, …) stay in the primitives' suites, their
 * titles prefixed with the same gate names, so a failing test names its gate wherever it runs.
 */
import type { IrPrimitive, IrResource } from '../ir/types.js';
import { jsonExact, keyHash } from '../cache.js';
import { render } from './context.js';
import { renderBlock } from './suite.js';
import type { SuiteContext } from './contract.js';
import { type SetupView, type TestView, gateArgs, setup, test } from './attacks.js';
import { type Code, code, lit } from './text.js';

type Obj = Record<string, unknown>;

/** One `describe` of the gates suite. */
export interface GateBlock {
  readonly title: string;
  readonly setup: SetupView | undefined;
  /** Its tests, each a view or already rendered (`memoTest`). */
  readonly tests: readonly (TestView | string)[];
}

const block = (title: string, tests: (TestView | string)[]): GateBlock[] => (tests.length === 0 ? [] : [{ title, setup: undefined, tests }]);

/**
 * A primitive, its test of a gate (undefined when it has none) and, when the test reads other primitives,
 * a text standing for what it reads of them (undefined: it cannot be keyed, and is rendered every run).
 */
type Testing = readonly [IrPrimitive, (s: SuiteContext) => TestView | undefined, (string | undefined)?];

/**
 * Gate tests that each read one primitive (and what its `more` stands for), a list of the file
 * (emit/lists.ts): a primitive's test is reused from the old file while its IR entry, the server-wide
 * inputs and what it reads of others are unchanged; the harness names
 * the tests use are recorded on `ctx` either way. Nothing when no primitive has such a test.
 */
function testList(ctx: SuiteContext, gate: string, items: readonly Testing[]): string[] {
  const list = ctx.fragments.list<readonly string[]>(gate, '\n');
  for (const [p, make, more = ''] of items) {
    list.add(ctx.fragments.key(`gate.${gate}`, p, more), () => {
      const used = new Set<string>();
      const view = make({ ...ctx, use: (name) => (used.add(name), name) });
      return { text: view === undefined ? '' : render('contract-test.ts', view), meta: [...used] };
    });
  }
  const text = list.done();
  for (const names of list.metas()) for (const name of names ?? []) ctx.use(name);
  return text === '' ? [] : [text];
}

/** A URI of a resource the suites can read: its fixed URI, or its template filled with sample values. */
function readableUri(ctx: SuiteContext, r: IrResource): string | Code | undefined {
  if (r.uri !== undefined) return r.uri;
  const params = ctx.contract.resources.find((c) => c.ir.name === r.name)?.params ?? {};
  const sample = ctx.samples.sample({ type: 'object', properties: params, required: r.variables });
  return sample === undefined ? undefined : code(`${ctx.use('expand')}(${lit(r.uriTemplate)}, ${lit(sample)})`);
}

/** Sample arguments of a prompt (every required one), or undefined when one cannot be made. */
function promptArgs(ctx: SuiteContext, name: string): Record<string, string> | undefined {
  const c = ctx.contract.prompts.find((p) => p.ir.name === name)!;
  const args: Record<string, string> = {};
  for (const a of c.ir.arguments.filter((x) => x.required)) {
    const v = ctx.samples.sample(c.arguments.find((x) => x.name === a.name)!.schema);
    if (v === undefined) return undefined;
    args[a.name] = String(v);
  }
  return args;
}

function hiddenEffects(ctx: SuiteContext): string[] {
  const resources = ctx.ir.resources.map((r): Testing => [r, (s) => {
    const uri = readableUri(s, r);
    if (uri === undefined) return undefined;
    const subject = { kind: 'resource', uri, ...(r.list ? { list: true } : {}) };
    return test(s, 'hidden-effect', `resource ${r.name}: reading it${r.list ? ' and listing it' : ''} changes no state`, { subject });
  }]);
  const prompts = ctx.ir.prompts.map((p): Testing => [p, (s) => {
    const args = promptArgs(s, p.name);
    return args === undefined ? undefined : test(s, 'hidden-effect', `prompt ${p.name}: getting it changes no state`, { subject: { kind: 'prompt', name: p.name, args } });
  }]);
  return testList(ctx, 'hidden', [...resources, ...prompts]);
}

/** Read tools: called twice, no state may change (a write no write scope or approval authorized). */
function readToolWrites(ctx: SuiteContext): string[] {
  const reads = ctx.contract.tools.filter((c) => c.ir.sideEffect === 'read');
  return testList(ctx, 'read-tool', reads.map((c): Testing => [c.ir, (s) => {
    const input = c.ir.examples[0]?.input ?? s.samples.sample(c.input);
    if (input === undefined) return undefined;
    const subject = { tool: c.ir.name, args: gateArgs(s, c.ir, input) };
    return test(s, 'read-tool-unchanged', `tool ${c.ir.name}: declared read, calling it changes no state`, { subject });
  }]));
}

/** The top-level properties of an object schema (through one local `$ref`). */
function properties(schema: unknown): Record<string, Obj> {
  let s = schema as Obj | undefined;
  const ref = s?.['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let target: unknown = s;
    for (const part of ref.slice(2).split('/')) target = (target as Obj | undefined)?.[part];
    s = target as Obj | undefined;
  }
  return (s?.['properties'] as Record<string, Obj> | undefined) ?? {};
}

const propertyNames = (schema: unknown): string[] => Object.keys(properties(schema));

/** A property that can name one record: a string or integer that is not one of a fixed set of values. */
function identifying(schema: Obj | undefined): boolean {
  return schema !== undefined && (schema['type'] === 'string' || schema['type'] === 'integer') && schema['enum'] === undefined && schema['const'] === undefined;
}

/** The value of `name` in `input`, at its top level or one object down (a template variable the plant input also fills). */
function valueIn(input: Obj, name: string): unknown {
  if (name in input) return input[name];
  for (const v of Object.values(input)) if (typeof v === 'object' && v !== null && !Array.isArray(v) && name in v) return (v as Obj)[name];
  return undefined;
}

type ToolContract = SuiteContext['contract']['tools'][number];
type ResourceContract = SuiteContext['contract']['resources'][number];
type Readers = (param: string) => { tools: Obj[]; templates: { c: ResourceContract; sample: Obj }[] };

/** `value` added to the list of `key` in `map`. */
function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** What the canaries read of a read tool or template: the names it takes a record by, and its part in a test (hashed). */
interface Reader {
  /** Its identifying parameters (`identifying`): none when it cannot be called (no sample). */
  readonly names: readonly string[];
  /** A hash of what a test that reads by it prints of it; null when that is not exact JSON. */
  readonly hash: string | null;
}

const NO_READER: Reader = { names: [], hash: null };

/** What a kept fact of a primitive is, or the fact computed when it cannot be kept. */
const fact = <T>(ctx: SuiteContext, name: string, p: IrPrimitive, compute: () => T): T => ctx.fragments.summary(name, p, compute) ?? compute();

/** A read tool's arguments in a canary test: its first example, or a sample of its input. */
const readArgs = (ctx: SuiteContext, c: ToolContract): Obj | undefined => (c.ir.examples[0]?.input ?? ctx.samples.sample(c.input)) as Obj | undefined;

/** A template's variables in a canary test, sampled. */
const templateSample = (ctx: SuiteContext, c: ResourceContract): Obj | undefined =>
  ctx.samples.sample({ type: 'object', properties: c.params ?? {}, required: c.ir.variables }) as Obj | undefined;

/** The read tools and templates that take each identifying name, in manifest order, from facts kept by their IR entries. */
interface Takers {
  readonly tools: Map<string, { readonly c: ToolContract; readonly hash: string | null }[]>;
  readonly templates: Map<string, { readonly c: ResourceContract; readonly hash: string | null }[]>;
}

function takers(ctx: SuiteContext): Takers {
  const tools: Takers['tools'] = new Map();
  const templates: Takers['templates'] = new Map();
  for (const c of ctx.contract.tools) {
    if (c.ir.sideEffect !== 'read') continue;
    const r = fact(ctx, 'gate.canary-reader', c.ir, (): Reader => {
      const args = readArgs(ctx, c);
      if (args === undefined) return NO_READER;
      const props = properties(c.input);
      return { names: Object.keys(props).filter((n) => identifying(props[n])), hash: hashOf([c.ir.name, args]) };
    });
    for (const name of r.names) push(tools, name, { c, hash: r.hash });
  }
  for (const c of ctx.contract.resources) {
    if (c.ir.uriTemplate === undefined) continue;
    const r = fact(ctx, 'gate.canary-template', c.ir, (): Reader => {
      const sample = templateSample(ctx, c);
      return sample === undefined ? NO_READER : { names: [...new Set(c.ir.variables)], hash: hashOf([c.ir.uriTemplate, sample]) };
    });
    for (const name of r.names) push(templates, name, { c, hash: r.hash });
  }
  return { tools, templates };
}

/**
 * Cross-tenant canaries: a write tool whose output names the record it created by a property its input
 * does not carry (an identifier the server assigned), and the reads that take a value of that name (a
 * read tool's argument, a template variable). One test per write tool, on its first such identifier.
 * Each tool's test is a unit of a list, keyed on the tool and on what the reads of its identifier print
 * (the names a tool may link by are kept by its IR entry, as are each reader's names): a tool no read
 * takes an identifier of has no test and is not read further.
 */
function canaries(ctx: SuiteContext): string[] {
  const index = takers(ctx);
  const has = (name: string) => index.tools.has(name) || index.templates.has(name);
  const items: Testing[] = [];
  for (const c of ctx.contract.tools) {
    if (c.ir.sideEffect === 'read') continue;
    // The output's identifying properties the input does not carry, in order: the test links by the first some read takes.
    const links = fact(ctx, 'gate.canary-links', c.ir, (): string[] => {
      if (c.output === undefined) return [];
      const given = propertyNames(c.input);
      const out = properties(c.output);
      return Object.keys(out).filter((p) => !given.includes(p) && identifying(out[p]));
    });
    const at = links.findIndex(has);
    if (at < 0) continue;
    const link = links[at]!;
    const readers = [...(index.tools.get(link) ?? []), ...(index.templates.get(link) ?? [])];
    const more = readers.some((r) => r.hash === null) ? undefined : `${link} ${readers.map((r) => r.hash).join(' ')}`;
    items.push([c.ir, (s) => canary(s, c, link, index), more]);
  }
  return testList(ctx, 'canary', items);
}

/** The canary test of write tool `c`, which links by `link` (some read takes it). */
function canary(ctx: SuiteContext, c: ToolContract, link: string, index: Takers): TestView | undefined {
  const t = c.ir;
  const input = (t.examples[0]?.input ?? ctx.samples.sample(c.input)) as Obj | undefined;
  if (input === undefined) return undefined;
  // The other variables locate the record as the plant input did (its repository, its customer).
  const values = (sample: Obj) => Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, valueIn(input, k) ?? v]));
  const reads = [
    ...(index.tools.get(link) ?? []).map(({ c: r }) => ({ tool: r.ir.name, args: readArgs(ctx, r)!, param: link })),
    ...(index.templates.get(link) ?? []).map(({ c: r }) => ({ template: r.ir.uriTemplate, values: values(templateSample(ctx, r)!), param: link })),
  ];
  const plant = { id: t.id, tool: t.name, input, ...(t.idempotency === 'required' ? { key: true } : {}), ...(t.approval === 'required' ? { receipt: true } : {}) };
  return test(ctx, 'planted-canary', `tool ${t.name}: a record it creates for another tenant never reaches this tenant's reads by ${link}`, { subject: { plant, link, reads } }, 'context');
}

function revisions(ctx: SuiteContext): string[] {
  const revised = ctx.ir.resources.filter((r) => r.revision !== undefined);
  return testList(ctx, 'revision', revised.map((r): Testing => [r, (s) => {
    const uri = readableUri(s, r);
    const subject = { name: r.name, ...(r.uri !== undefined ? { uri: r.uri } : uri ? { readUri: uri } : {}), revision: r.revision };
    return test(s, 'revision', `resource ${r.name}: the listing and the read state its declared revision ${r.revision}`, { subject });
  }]));
}

function capabilities(ctx: SuiteContext): TestView[] {
  const prompt = ctx.ir.prompts.find((p) => p.arguments.some((a) => a.complete));
  const template = ctx.ir.resources.find((r) => r.complete.length > 0);
  const completion = prompt
    ? { ref: { type: 'ref/prompt', name: prompt.name }, argument: prompt.arguments.find((a) => a.complete)!.name }
    : template
      ? { ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: template.complete[0] }
      : undefined;
  return [test(ctx, 'capabilities-behave', 'each advertised capability answers its methods; one not advertised answers -32601', { completion })];
}

function recovery(ctx: SuiteContext): string[] {
  const keyed = ctx.contract.tools.filter((c) => c.ir.idempotency === 'required');
  return testList(ctx, 'recovery', keyed.map((c): Testing => [c.ir, (s) => {
    const t = c.ir;
    const input = (t.examples[0]?.input ?? s.samples.sample(c.input)) as Obj | undefined;
    const result = c.output === undefined ? 'mcpgen ok' : s.samples.sample(c.output);
    if (input === undefined || result === undefined) return undefined;
    const subject = { id: t.id, name: t.name, input, ...(t.approval === 'required' ? { receipt: true } : {}), result };
    return test(s, 'retry-after-timeout', `tool ${t.name}: a retry with the same key after the client gave up runs no second effect and keeps the audit chain`, { subject });
  }]));
}

function composition(ctx: SuiteContext): GateBlock[] {
  const { ir } = ctx;
  const declared = {
    tools: ir.tools.map((t) => t.name),
    resources: ir.resources.flatMap((r) => (r.uri !== undefined ? [r.uri] : [])),
    templates: ir.resources.flatMap((r) => (r.uriTemplate !== undefined ? [r.name] : [])),
    prompts: ir.prompts.map((p) => p.name),
  };
  const probes: Record<string, unknown> = {};
  const tool = ctx.contract.tools[0];
  const toolInput = tool && (tool.ir.examples[0]?.input ?? ctx.samples.sample(tool.input));
  if (tool && toolInput !== undefined) probes['tools'] = { tool: tool.ir.name, args: gateArgs(ctx, tool.ir, toolInput) };
  const fixed = ir.resources.find((r) => r.uri !== undefined);
  if (fixed) probes['resources'] = { uri: fixed.uri };
  const prompt = ir.prompts[0];
  const args = prompt && promptArgs(ctx, prompt.name);
  if (prompt && args) probes['prompts'] = { prompt: prompt.name, args };
  const kinds = (['tools', 'resources', 'prompts'] as const).filter((k) => (k === 'tools' ? ir.tools : k === 'resources' ? ir.resources : ir.prompts).length > 0);
  const tests = kinds.map((k) => {
    // The probe calls `expectServed` inside the test (templates/partials/contract/alone.hbs).
    if (probes[k] !== undefined) ctx.use('expectServed');
    return test(ctx, 'alone', `${k} alone: listed exactly as declared, the other kinds gone, and still served`, { kind: k, probe: probes[k] });
  });
  if (kinds.length > 1) tests.push(test(ctx, 'together', 'all three together: everything declared is listed'));
  for (const k of kinds) tests.push(test(ctx, 'catalog-change', `after a catalog change (${k}): the listing follows, notified exactly where listChanged is advertised`, { kind: k }));
  if (tests.length === 0) return [];
  // The declared catalog, bound once for the block: what every composition is compared with.
  return [{ title: 'composition', setup: setup(ctx, 'declared-setup', { declared }), tests }];
}

/**
 * A block of the gates suite that reads many primitives, rendered and reused from the incremental cache
 * while `inputs` (a text of everything it reads beyond the server-wide inputs) are unchanged; the harness
 * names it uses are recorded on `ctx` either way. Nothing when it has no tests.
 */
function spanBlock(ctx: SuiteContext, kind: string, inputs: string | undefined, make: (s: SuiteContext) => GateBlock[]): string[] {
  const piece = ctx.fragments.block(`gate.${kind}`, inputs, () => {
    const used = new Set<string>();
    const blocks = make({ ...ctx, use: (name) => (used.add(name), name) });
    return { text: blocks.length === 0 ? null : blocks.map(renderBlock).join(''), used: [...used] };
  }, ['text']);
  for (const name of piece.used) ctx.use(name);
  return piece.text === null ? [] : [piece.text];
}

/** A hash of `value` (JSON), or null when it is not exact JSON (a key holding it could stand for two). */
const hashOf = (value: unknown): string | null => (jsonExact(value) ? keyHash(JSON.stringify(value)) : null);

/** What the composition block reads: every primitive's name (and URI), and the entries of the first tool and prompt it probes. */
function compositionInputs(ctx: SuiteContext): string | undefined {
  const { tools, resources, prompts } = ctx.ir;
  const first = [tools[0], prompts[0]].map((p) => (p === undefined ? '' : ctx.fragments.entry(p)));
  if (first.includes(undefined)) return undefined;
  return JSON.stringify([first, tools.map((t) => t.name), resources.map((r) => [r.name, r.uri ?? null]), prompts.map((p) => p.name)]);
}

/** What the capability block reads: the first completing prompt argument or template variable. */
function capabilityInputs(ctx: SuiteContext): string {
  const prompt = ctx.ir.prompts.find((p) => p.arguments.some((a) => a.complete));
  const template = ctx.ir.resources.find((r) => r.complete.length > 0);
  return JSON.stringify([prompt?.name ?? null, prompt?.arguments.find((a) => a.complete)?.name ?? null, template?.uriTemplate ?? null, template?.complete[0] ?? null]);
}

/**
 * The gates suite's blocks. The blocks of tests each reading one primitive are laid out from those tests'
 * pieces; a block reading many primitives is one piece, keyed on what it reads.
 */
export function gateBlocks(ctx: SuiteContext): (GateBlock | string)[] {
  return [
    ...block('hard gate · cross-tenant canary', canaries(ctx)),
    ...block('hard gate · hidden side effect', hiddenEffects(ctx)),
    ...block('hard gate · unauthorized write', readToolWrites(ctx)),
    ...block('quality gate · stale revision', revisions(ctx)),
    ...spanBlock(ctx, 'capabilities', capabilityInputs(ctx), (s) => block('compatibility gate · capability vs behaviour', capabilities(s))),
    ...block('recovery gate · retry after an ambiguous timeout', recovery(ctx)),
    ...spanBlock(ctx, 'composition', compositionInputs(ctx), composition),
  ];
}
