/**
 * The named rules `mcp-gen diff` classifies changes with. Each rule owns some keys of a kind's lock
 * contract and says, for a change of those keys, what changed, where, and whether existing clients
 * break. A key that no rule owns and that changed is reported as `unclassified-change` and counted
 * as breaking until a rule says otherwise (see `classify`). Each rule has previous/current fixtures
 * in test/diff/rules.test.ts asserting its findings and their paths.
 */
import { canonicalJson } from '../runtime/security/hash.js';
import { audience, cacheHints, classification, listingCacheHints, sizeBudget, stewardship } from './governance.js';
import { compareSchemas } from './schema.js';
import type { ChangeKind, DiffKind, Finding, Severity } from './types.js';

type Contract = Readonly<Record<string, unknown>>;

/** One classification rule. */
export interface DiffRule {
  /** Stable name, shown in docs/diff.md and used to find its fixtures. */
  readonly name: string;
  /** What it decides, in a sentence. */
  readonly summary: string;
  readonly kinds: readonly ChangeKind[];
  /** The contract keys it owns (for `server`, keys of the lock's top level). */
  readonly keys: readonly string[];
  /** The findings for a change of its keys (called only when one of them differs). */
  compare(a: Contract, b: Contract): Finding[];
}

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown): string => (typeof v === 'string' ? v : canonicalJson(v));
const finding = (path: string, change: string, severity: Severity, detail: string): Finding => ({ path, change, severity, detail });
const ALL: readonly DiffKind[] = ['tool', 'resource', 'prompt'];
const SIDE_EFFECTS = ['read', 'write', 'irreversible'];

/** A policy switched on (`none` → `required`) is a new demand on callers. */
function policy(key: string, what: string): DiffRule['compare'] {
  return (a, b) =>
    // `none` ↔ `natural` (idempotent by nature): no key either way; only the published hint changes.
    a[key] !== 'required' && b[key] !== 'required'
      ? [finding(key, `${key}-changed`, 'compatible', `${key} changed from ${show(a[key] ?? 'none')} to ${show(b[key] ?? 'none')}`)]
      : b[key] === 'required'
        ? [finding(key, `${key}-required`, 'breaking', `now requires ${what}`)]
        : [finding(key, `${key}-dropped`, 'compatible', `no longer requires ${what}`)];
}

/** A boolean capability clients may rely on (`list`, `subscribe`): switching it off breaks them. */
function flag(key: string, what: string): DiffRule['compare'] {
  return (a, b) => {
    if (same(a[key] ?? false, b[key] ?? false)) return [];
    return b[key] === true ? [finding(key, `${key}-enabled`, 'compatible', `now ${what}`)] : [finding(key, `${key}-disabled`, 'breaking', `no longer ${what}`)];
  };
}

/** A schema present on both sides is compared keyword by keyword; removing one breaks, adding one does not. */
function schema(key: string, path: string, direction: 'input' | 'output', label: string, propertyLabel: string, codes?: { removed: string; added: string; noun: string }): DiffRule['compare'] {
  return (a, b) => {
    if (codes && a[key] !== undefined && b[key] === undefined) return [finding(path, codes.removed, 'breaking', `no longer declares ${codes.noun}`)];
    if (codes && a[key] === undefined && b[key] !== undefined) return [finding(path, codes.added, 'compatible', `now declares ${codes.noun}`)];
    return compareSchemas(a[key], b[key], { direction, path, label, propertyLabel });
  };
}

/**
 * The rule of a schema the server produces (a tool's output, a resource's content): it may narrow, not
 * widen; dropping it breaks clients that rely on it, adding one does not.
 */
function producedSchema(name: string, summary: string, kind: DiffKind, [key, path]: [string, string], what: 'output' | 'content', noun: string): DiffRule {
  const codes = { removed: `${what}-schema-removed`, added: `${what}-schema-added`, noun };
  return { name, summary, kinds: [kind], keys: [key], compare: schema(key, path, 'output', `${what} schema`, `${what} property`, codes) };
}

/** A set-valued key (`scopes`, `complete`): one finding per member added, one per member removed. */
function members(key: string, added: (m: string) => Finding, removed: (m: string) => Finding): DiffRule['compare'] {
  return (a, b) => {
    const sa = new Set((a[key] as string[] | undefined) ?? []);
    const sb = new Set((b[key] as string[] | undefined) ?? []);
    return [...[...sb].filter((m) => !sa.has(m)).map(added), ...[...sa].filter((m) => !sb.has(m)).map(removed)];
  };
}

const scopes = members(
  'scopes',
  (s) => finding('scopes', 'scope-added', 'breaking', `now requires scope ${s}`),
  (s) => finding('scopes', 'scope-removed', 'compatible', `no longer requires scope ${s}`),
);

function sideEffect(a: Contract, b: Contract): Finding[] {
  const ra = SIDE_EFFECTS.indexOf(String(a['sideEffect']));
  const rb = SIDE_EFFECTS.indexOf(String(b['sideEffect']));
  const text = (how: string) => `side effect ${how} from ${show(a['sideEffect'])} to ${show(b['sideEffect'])}`;
  return rb > ra ? [finding('sideEffect', 'side-effect-raised', 'breaking', text('raised'))] : [finding('sideEffect', 'side-effect-lowered', 'compatible', text('lowered'))];
}

/**
 * Tool annotations: `openWorldHint` is the manifest's own and its change is compatible; the other hints
 * follow `sideEffect` and `idempotency`, whose rules report them. A hint that changed while both stayed
 * the same is a change of derivation no rule explains: breaking.
 */
function toolAnnotations(a: Contract, b: Contract): Finding[] {
  const ha = (a['annotations'] ?? {}) as Contract;
  const hb = (b['annotations'] ?? {}) as Contract;
  const out: Finding[] = [];
  if (!same(ha['openWorldHint'], hb['openWorldHint'])) {
    out.push(finding('annotations.openWorldHint', 'open-world-changed', 'compatible', `openWorldHint changed from ${show(ha['openWorldHint'] ?? 'unset')} to ${show(hb['openWorldHint'] ?? 'unset')}`));
  }
  const explained = !same(a['sideEffect'], b['sideEffect']) || !same(a['idempotency'], b['idempotency']);
  for (const k of [...new Set([...Object.keys(ha), ...Object.keys(hb)])].filter((x) => x !== 'openWorldHint').sort()) {
    if (!explained && !same(ha[k], hb[k])) out.push(finding(`annotations.${k}`, 'annotation-changed', 'breaking', `${k} changed from ${show(ha[k] ?? 'unset')} to ${show(hb[k] ?? 'unset')}`));
  }
  return out;
}

function uris(a: Contract, b: Contract): Finding[] {
  const out: Finding[] = [];
  for (const [key, code, what] of [['uri', 'uri-changed', 'URI'], ['uriTemplate', 'uri-template-changed', 'URI template']] as const) {
    if (same(a[key], b[key])) continue;
    const text = a[key] === undefined ? `now has ${what} ${show(b[key])}` : b[key] === undefined ? `no longer has ${what} ${show(a[key])}` : `${what} changed from ${show(a[key])} to ${show(b[key])}`;
    out.push(finding(key, code, 'breaking', text));
  }
  return out;
}

function params(a: Contract, b: Contract): Finding[] {
  const pa = (a['params'] as Contract | undefined) ?? {};
  const pb = (b['params'] as Contract | undefined) ?? {};
  // A variable added or removed comes with a changed URI template, which its own rule reports.
  return Object.keys(pa)
    .filter((n) => n in pb)
    .flatMap((name) => compareSchemas(pa[name], pb[name], { direction: 'input', path: `params.${name}`, label: `template parameter ${name}`, propertyLabel: `template parameter ${name} property` }));
}

const completions = members(
  'complete',
  (v) => finding('complete', 'completion-added', 'compatible', `now completes ${v}`),
  (v) => finding('complete', 'completion-removed', 'breaking', `no longer completes ${v}; clients that offer its completion get an error`),
);

interface Argument {
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: unknown;
  readonly [key: string]: unknown;
}

function changedArgument(x: Argument, y: Argument, path: string): Finding[] {
  const out: Finding[] = [];
  if (!x.required && y.required) out.push(finding(path, 'argument-made-required', 'breaking', `argument ${x.name} is now required`));
  if (x.required && !y.required) out.push(finding(path, 'argument-made-optional', 'compatible', `argument ${x.name} is now optional`));
  out.push(...compareSchemas(x.schema, y.schema, { direction: 'input', path, label: `argument ${x.name}`, propertyLabel: `argument ${x.name} property` }));
  for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
    if (['name', 'required', 'schema'].includes(k) || same(x[k], y[k])) continue;
    out.push(finding(`${path}.${k}`, `argument-${k}-changed`, 'compatible', `argument ${x.name} ${k} changed`));
  }
  return out;
}

function promptArguments(a: Contract, b: Contract): Finding[] {
  const before = (a['arguments'] as Argument[] | undefined) ?? [];
  const after = (b['arguments'] as Argument[] | undefined) ?? [];
  const byName = new Map(after.map((x) => [x.name, x]));
  const out: Finding[] = [];
  for (const x of before) {
    const y = byName.get(x.name);
    const path = `arguments.${x.name}`;
    out.push(...(y === undefined ? [finding(path, 'argument-removed', 'breaking', `argument ${x.name} removed`)] : changedArgument(x, y, path)));
  }
  const old = new Set(before.map((x) => x.name));
  for (const y of after.filter((x) => !old.has(x.name))) {
    const path = `arguments.${y.name}`;
    out.push(y.required ? finding(path, 'required-argument-added', 'breaking', `argument ${y.name} added as required`) : finding(path, 'argument-added', 'compatible', `argument ${y.name} added as optional`));
  }
  return out;
}

const changed = (key: string, change: string, detail: string, path = key): DiffRule['compare'] => (a, b) => (same(a[key], b[key]) ? [] : [finding(path, change, 'compatible', detail)]);

/** Every rule, in the order their findings are reported. */
export const RULES: readonly DiffRule[] = [
  { name: 'title', summary: 'Wording only: never breaking.', kinds: ALL, keys: ['title'], compare: changed('title', 'title-changed', 'title changed') },
  { name: 'description', summary: 'Wording only: never breaking.', kinds: ALL, keys: ['description'], compare: changed('description', 'description-changed', 'description changed') },
  { name: 'uri', summary: 'A changed URI or URI template breaks every client that reads it.', kinds: ['resource'], keys: ['uri', 'uriTemplate'], compare: uris },
  {
    name: 'mime-type',
    summary: 'Clients decode content by its MIME type: a change breaks them.',
    kinds: ['resource'],
    keys: ['mimeType'],
    compare: (a, b) => [finding('mimeType', 'mime-type-changed', 'breaking', `MIME type changed from ${show(a['mimeType'])} to ${show(b['mimeType'])}`)],
  },
  { name: 'input-schema', summary: 'Inputs may widen, not narrow.', kinds: ['tool'], keys: ['inputSchema'], compare: schema('inputSchema', 'input', 'input', 'input schema', 'input property') },
  producedSchema('output-schema', 'Outputs may narrow, not widen; dropping the output schema breaks structured clients.', 'tool', ['outputSchema', 'output'], 'output', 'an output schema (structured content)'),
  { name: 'template-parameters', summary: 'Template variables are inputs: they may widen, not narrow.', kinds: ['resource'], keys: ['params'], compare: params },
  producedSchema('content-schema', 'Content is output: it may narrow, not widen; dropping its schema breaks clients that rely on it.', 'resource', ['schema', 'schema'], 'content', 'a content schema'),
  { name: 'arguments', summary: 'Prompt arguments: a new required one or a removed one breaks callers.', kinds: ['prompt'], keys: ['arguments'], compare: promptArguments },
  { name: 'messages', summary: 'Static messages are the server’s wording: compatible.', kinds: ['prompt'], keys: ['messages'], compare: changed('messages', 'messages-changed', 'messages changed') },
  { name: 'side-effect', summary: 'Raising a side effect breaks callers that relied on a weaker one.', kinds: ['tool'], keys: ['sideEffect'], compare: sideEffect },
  { name: 'scopes', summary: 'A scope added is a new permission every caller needs.', kinds: ALL, keys: ['scopes'], compare: scopes },
  { name: 'idempotency', summary: 'Requiring an idempotency key is a new demand on callers.', kinds: ['tool'], keys: ['idempotency'], compare: policy('idempotency', 'an idempotency key') },
  { name: 'approval', summary: 'Requiring approval is a new demand on callers.', kinds: ['tool'], keys: ['approval'], compare: policy('approval', 'approval') },
  { name: 'tool-annotations', summary: 'openWorldHint is wording; the other hints follow the side effect and idempotency.', kinds: ['tool'], keys: ['annotations'], compare: toolAnnotations },
  {
    name: 'timeout',
    summary: 'A timeout is the server’s own budget: compatible.',
    kinds: ['tool'],
    keys: ['timeoutMs'],
    compare: (a, b) => [finding('timeoutMs', 'timeout-changed', 'compatible', `timeout changed from ${show(a['timeoutMs'] ?? 'default')} to ${show(b['timeoutMs'] ?? 'default')}`)],
  },
  { name: 'list', summary: 'Clients may rely on listed instances: switching listing off breaks them.', kinds: ['resource'], keys: ['list'], compare: flag('list', 'listed in resources/list') },
  { name: 'subscribe', summary: 'Switching subscriptions off breaks subscribers.', kinds: ['resource'], keys: ['subscribe'], compare: flag('subscribe', 'supports subscriptions') },
  { name: 'completions', summary: 'Removing a completion breaks clients that offer it.', kinds: ['resource'], keys: ['complete'], compare: completions },
  { name: 'source', summary: 'Embedded content changed: same URI, new bytes.', kinds: ['resource'], keys: ['sourceHash'], compare: changed('sourceHash', 'content-changed', 'static content changed', 'source') },
  { name: 'revision', summary: 'A new revision marker: compatible.', kinds: ['resource'], keys: ['_meta'], compare: changed('_meta', 'revision-changed', 'revision changed') },
  { name: 'resource-annotations', summary: 'Audience, priority and lastModified are hints: compatible.', kinds: ['resource'], keys: ['annotations'], compare: changed('annotations', 'annotations-changed', 'annotations changed') },
  { name: 'outcome', summary: 'The user outcome is the card’s wording: compatible.', kinds: ALL, keys: ['outcome'], compare: stewardship('outcome') },
  { name: 'owner', summary: 'A new owner is reported; clients see no difference: compatible.', kinds: ALL, keys: ['owner'], compare: stewardship('owner') },
  { name: 'classification', summary: 'A stricter classification (or a first confidential one) changes how reads are handled: breaking.', kinds: ['resource'], keys: ['classification'], compare: classification },
  { name: 'audience', summary: 'A narrower audience drops readers (breaking); a wider one is reported for review (compatible).', kinds: ['resource'], keys: ['audience'], compare: audience },
  { name: 'size-budget', summary: 'A lower size budget (or a first one) refuses content that used to be served: breaking.', kinds: ['resource'], keys: ['maxBytes'], compare: sizeBudget },
  { name: 'cache', summary: 'Cache hints are freshness hints: compatible (a move to public is said).', kinds: ['resource'], keys: ['cache'], compare: cacheHints },
  {
    name: 'listing-cache',
    summary: 'Discovery and listing cache hints are freshness hints: compatible (a move to public is said).',
    kinds: ['server'],
    keys: ['cacheHints'],
    compare: listingCacheHints,
  },
];

/**
 * Every finding between two contracts of one kind: each rule whose keys changed, then one
 * `unclassified-change` (breaking) per changed key that no rule of the kind owns.
 */
export function classify(kind: ChangeKind, a: Contract, b: Contract, rules: readonly DiffRule[] = RULES): Finding[] {
  const mine = rules.filter((r) => r.kinds.includes(kind));
  const out: Finding[] = [];
  for (const rule of mine) if (rule.keys.some((k) => !same(a[k], b[k]))) out.push(...rule.compare(a, b));
  const owned = new Set(mine.flatMap((r) => r.keys));
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !owned.has(k)).sort();
  for (const k of keys.filter((x) => !same(a[x], b[x]))) {
    out.push(finding(k, 'unclassified-change', 'breaking', `${k} changed, and no rule classifies it: treated as breaking until one does`));
  }
  return out;
}
