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

/** A primitive, and its test of a gate (undefined when it has none). */
type Testing = readonly [IrPrimitive, (s: SuiteContext) => TestView | undefined];

/**
 * Gate tests that each read one primitive alone, a list of the file (emit/lists.ts): a primitive's test is
 * reused from the old file while its IR entry and the server-wide inputs are unchanged; the harness names
 * the tests use are recorded on `ctx` either way. Nothing when no primitive has such a test.
 */
function testList(ctx: SuiteContext, gate: string, items: readonly Testing[]): string[] {
  const list = ctx.fragments.list<readonly string[]>(gate, '\n');
  for (const [p, make] of items) {
    list.add(ctx.fragments.key(`gate.${gate}`, p, ''), () => {
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

/**
 * The read tools and templates that take a value of a property name, worked out once per name (every write
 * tool asks). Which primitives take a name is indexed in one pass over them, in manifest order; their
 * samples are made for the names asked for only.
 */
function readerIndex(ctx: SuiteContext): Readers {
  const byParam = new Map<string, ReturnType<Readers>>();
  let takers: { tools: Map<string, ToolContract[]>; templates: Map<string, ResourceContract[]> } | undefined;
  const index = () => {
    const tools = new Map<string, ToolContract[]>();
    const templates = new Map<string, ResourceContract[]>();
    for (const c of ctx.contract.tools) if (c.ir.sideEffect === 'read') for (const name of new Set(propertyNames(c.input))) push(tools, name, c);
    for (const c of ctx.contract.resources) if (c.ir.uriTemplate !== undefined) for (const name of new Set(c.ir.variables)) push(templates, name, c);
    return { tools, templates };
  };
  return (param: string) => {
    let known = byParam.get(param);
    if (known === undefined) {
      takers ??= index();
      const tools = (takers.tools.get(param) ?? []).flatMap((c) => {
        const args = (c.ir.examples[0]?.input ?? ctx.samples.sample(c.input)) as Obj | undefined;
        return args === undefined || !identifying(properties(c.input)[param]) ? [] : [{ tool: c.ir.name, args, param }];
      });
      const templates = (takers.templates.get(param) ?? []).flatMap((c) => {
        const r = c.ir;
        const sample = ctx.samples.sample({ type: 'object', properties: c.params ?? {}, required: r.variables }) as Obj | undefined;
        return sample === undefined ? [] : [{ c, sample }];
      });
      known = { tools, templates };
      byParam.set(param, known);
    }
    return known;
  };
}

/**
 * Cross-tenant canaries: a write tool whose output names the record it created by a property its input
 * does not carry (an identifier the server assigned), and the reads that take a value of that name (a
 * read tool's argument, a template variable). One test per write tool, on its first such identifier.
 */
function canaries(ctx: SuiteContext): TestView[] {
  const readers = readerIndex(ctx);
  const reads = (param: string, planted: Obj) => {
    const { tools, templates } = readers(param);
    // The other variables locate the record as the plant input did (its repository, its customer).
    const values = (sample: Obj) => Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, valueIn(planted, k) ?? v]));
    return [...tools, ...templates.map(({ c, sample }) => ({ template: c.ir.uriTemplate, values: values(sample), param }))];
  };
  return ctx.contract.tools.flatMap((c) => {
    const t = c.ir;
    if (t.sideEffect === 'read' || c.output === undefined) return [];
    const input = (t.examples[0]?.input ?? ctx.samples.sample(c.input)) as Obj | undefined;
    const given = propertyNames(c.input);
    if (input === undefined) return [];
    const out = properties(c.output);
    const link = Object.keys(out).find((p) => !given.includes(p) && identifying(out[p]) && reads(p, input).length > 0);
    if (link === undefined) return [];
    const plant = { id: t.id, tool: t.name, input, ...(t.idempotency === 'required' ? { key: true } : {}), ...(t.approval === 'required' ? { receipt: true } : {}) };
    const subject = { plant, link, reads: reads(link, input) };
    return [
      test(ctx, 'planted-canary', `tool ${t.name}: a record it creates for another tenant never reaches this tenant's reads by ${link}`, { subject }, 'context'),
    ];
  });
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

/**
 * What the cross-tenant canaries read of every tool and resource, each primitive's part hashed and kept
 * under its IR entry: a tool's name, gates, published input and output and first example; a resource's
 * template, variables and their schemas. Undefined when a part cannot be hashed.
 */
function canaryInputs(ctx: SuiteContext): string | undefined {
  const tools = ctx.contract.tools.map((c) =>
    ctx.fragments.summary('gate.canary-tool', c.ir, () => {
      const t = c.ir;
      const example = t.examples[0]?.input;
      return hashOf([t.name, t.id, t.sideEffect, t.idempotency, t.approval, c.input, c.output ?? null, example === undefined ? null : [example]]);
    }),
  );
  const resources = ctx.contract.resources.map((c) => ctx.fragments.summary('gate.canary-resource', c.ir, () => hashOf([c.ir.uriTemplate ?? null, c.ir.variables, c.params ?? null])));
  const all = [...tools, ...resources];
  return all.some((h) => typeof h !== 'string') ? undefined : `${tools.length} ${all.join(' ')}`;
}

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
    ...spanBlock(ctx, 'canaries', canaryInputs(ctx), (s) => block('hard gate · cross-tenant canary', canaries(s))),
    ...block('hard gate · hidden side effect', hiddenEffects(ctx)),
    ...block('hard gate · unauthorized write', readToolWrites(ctx)),
    ...block('quality gate · stale revision', revisions(ctx)),
    ...spanBlock(ctx, 'capabilities', capabilityInputs(ctx), (s) => block('compatibility gate · capability vs behaviour', capabilities(s))),
    ...block('recovery gate · retry after an ambiguous timeout', recovery(ctx)),
    ...spanBlock(ctx, 'composition', compositionInputs(ctx), composition),
  ];
}
