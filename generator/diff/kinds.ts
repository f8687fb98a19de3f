/**
 * Per-kind comparison of two lock contracts (tool, resource, prompt) and of
 * whole locks: which primitives were added, removed, renamed or changed.
 */
import { canonicalJson } from '../runtime/security/hash.js';
import { compareSchemas } from './schema.js';
import { SECTIONS, type Change, type DiffKind, type DiffResult, type Finding, type Lock, type Renames, type Severity } from './types.js';

type Contract = Readonly<Record<string, unknown>>;

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown): string => (typeof v === 'string' ? v : canonicalJson(v));
const finding = (path: string, change: string, severity: Severity, detail: string): Finding => ({ path, change, severity, detail });

const SIDE_EFFECTS = ['read', 'write', 'irreversible'];

/** Title and description: wording only, never breaking. */
function compareProse(a: Contract, b: Contract): Finding[] {
  return ['title', 'description']
    .filter((k) => !same(a[k], b[k]))
    .map((k) => finding(k, `${k}-changed`, 'compatible', `${k} changed`));
}

/** A scope added is one more permission every caller needs; a scope removed asks for less. */
function compareScopes(a: Contract, b: Contract): Finding[] {
  const sa = new Set((a['scopes'] as string[] | undefined) ?? []);
  const sb = new Set((b['scopes'] as string[] | undefined) ?? []);
  return [
    ...[...sb].filter((s) => !sa.has(s)).map((s) => finding('scopes', 'scope-added', 'breaking', `now requires scope ${s}`)),
    ...[...sa].filter((s) => !sb.has(s)).map((s) => finding('scopes', 'scope-removed', 'compatible', `no longer requires scope ${s}`)),
  ];
}

/** A policy switched on (`none` → `required`) is a new demand on callers. */
function comparePolicy(a: Contract, b: Contract, key: string, what: string): Finding[] {
  if (same(a[key], b[key])) return [];
  return b[key] === 'required'
    ? [finding(key, `${key}-required`, 'breaking', `now requires ${what}`)]
    : [finding(key, `${key}-dropped`, 'compatible', `no longer requires ${what}`)];
}

/** A boolean capability clients may rely on (`list`, `subscribe`): switching it off breaks them. */
function compareFlag(a: Contract, b: Contract, key: string, what: string): Finding[] {
  if (same(a[key] ?? false, b[key] ?? false)) return [];
  return b[key] === true
    ? [finding(key, `${key}-enabled`, 'compatible', `now ${what}`)]
    : [finding(key, `${key}-disabled`, 'breaking', `no longer ${what}`)];
}

/** Keys no specific rule looked at: reported so that no difference goes unmentioned. */
function compareOthers(a: Contract, b: Contract, handled: readonly string[]): Finding[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !handled.includes(k)).sort();
  return keys.filter((k) => !same(a[k], b[k])).map((k) => finding(k, `${k}-changed`, 'compatible', `${k} changed`));
}

/** Compares two tool contracts. */
export function compareTool(a: Contract, b: Contract): Finding[] {
  const out = [...compareProse(a, b)];
  out.push(...compareSchemas(a['inputSchema'], b['inputSchema'], { direction: 'input', path: 'input', label: 'input schema', propertyLabel: 'input property' }));
  if (a['outputSchema'] !== undefined && b['outputSchema'] === undefined) {
    out.push(finding('output', 'output-schema-removed', 'breaking', 'no longer declares an output schema (structured content)'));
  } else if (a['outputSchema'] === undefined && b['outputSchema'] !== undefined) {
    out.push(finding('output', 'output-schema-added', 'compatible', 'now declares an output schema'));
  } else {
    out.push(...compareSchemas(a['outputSchema'], b['outputSchema'], { direction: 'output', path: 'output', label: 'output schema', propertyLabel: 'output property' }));
  }
  const ra = SIDE_EFFECTS.indexOf(String(a['sideEffect']));
  const rb = SIDE_EFFECTS.indexOf(String(b['sideEffect']));
  const text = `side effect changed from ${show(a['sideEffect'])} to ${show(b['sideEffect'])}`;
  if (rb > ra) out.push(finding('sideEffect', 'side-effect-raised', 'breaking', text.replace('changed', 'raised')));
  if (rb < ra) out.push(finding('sideEffect', 'side-effect-lowered', 'compatible', text.replace('changed', 'lowered')));
  out.push(...compareScopes(a, b));
  out.push(...comparePolicy(a, b, 'idempotency', 'an idempotency key'));
  out.push(...comparePolicy(a, b, 'approval', 'approval'));
  const open = (c: Contract) => (c['annotations'] as Contract | undefined)?.['openWorldHint'];
  if (!same(open(a), open(b))) out.push(finding('annotations.openWorldHint', 'open-world-changed', 'compatible', `openWorldHint changed from ${show(open(a) ?? 'unset')} to ${show(open(b) ?? 'unset')}`));
  if (!same(a['timeoutMs'], b['timeoutMs'])) out.push(finding('timeoutMs', 'timeout-changed', 'compatible', `timeout changed from ${show(a['timeoutMs'] ?? 'default')} to ${show(b['timeoutMs'] ?? 'default')}`));
  // `annotations` other than openWorldHint are derived from sideEffect and idempotency, reported above.
  return [...out, ...compareOthers(a, b, ['title', 'description', 'inputSchema', 'outputSchema', 'sideEffect', 'scopes', 'idempotency', 'approval', 'annotations', 'timeoutMs'])];
}

/** Compares two resource contracts. */
export function compareResource(a: Contract, b: Contract): Finding[] {
  const out = [...compareProse(a, b)];
  for (const [key, code, what] of [['uri', 'uri-changed', 'URI'], ['uriTemplate', 'uri-template-changed', 'URI template']] as const) {
    if (same(a[key], b[key])) continue;
    const text = a[key] === undefined ? `now has ${what} ${show(b[key])}` : b[key] === undefined ? `no longer has ${what} ${show(a[key])}` : `${what} changed from ${show(a[key])} to ${show(b[key])}`;
    out.push(finding(key, code, 'breaking', text));
  }
  if (!same(a['mimeType'], b['mimeType'])) out.push(finding('mimeType', 'mime-type-changed', 'breaking', `MIME type changed from ${show(a['mimeType'])} to ${show(b['mimeType'])}`));
  const pa = (a['params'] as Contract | undefined) ?? {};
  const pb = (b['params'] as Contract | undefined) ?? {};
  for (const name of Object.keys(pa).filter((n) => n in pb)) {
    out.push(...compareSchemas(pa[name], pb[name], { direction: 'input', path: `params.${name}`, label: `template parameter ${name}`, propertyLabel: `template parameter ${name} property` }));
  }
  if (a['schema'] !== undefined && b['schema'] === undefined) out.push(finding('schema', 'content-schema-removed', 'breaking', 'no longer declares a content schema'));
  else if (a['schema'] === undefined && b['schema'] !== undefined) out.push(finding('schema', 'content-schema-added', 'compatible', 'now declares a content schema'));
  else out.push(...compareSchemas(a['schema'], b['schema'], { direction: 'output', path: 'schema', label: 'content schema', propertyLabel: 'content property' }));
  out.push(...compareScopes(a, b));
  out.push(...compareFlag(a, b, 'list', 'listed in resources/list'));
  out.push(...compareFlag(a, b, 'subscribe', 'supports subscriptions'));
  if (!same(a['sourceHash'], b['sourceHash'])) out.push(finding('source', 'content-changed', 'compatible', 'static content changed'));
  if (!same(a['_meta'], b['_meta'])) out.push(finding('_meta', 'revision-changed', 'compatible', 'revision changed'));
  const handled = ['title', 'description', 'uri', 'uriTemplate', 'mimeType', 'params', 'schema', 'scopes', 'list', 'subscribe', 'sourceHash', '_meta'];
  return [...out, ...compareOthers(a, b, handled)];
}

interface Argument {
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: unknown;
  readonly [key: string]: unknown;
}

function compareArguments(a: readonly Argument[], b: readonly Argument[]): Finding[] {
  const out: Finding[] = [];
  const byName = new Map(b.map((x) => [x.name, x]));
  const before = new Set(a.map((x) => x.name));
  for (const x of a) {
    const y = byName.get(x.name);
    const path = `arguments.${x.name}`;
    if (y === undefined) {
      out.push(finding(path, 'argument-removed', 'breaking', `argument ${x.name} removed`));
      continue;
    }
    if (!x.required && y.required) out.push(finding(path, 'argument-made-required', 'breaking', `argument ${x.name} is now required`));
    if (x.required && !y.required) out.push(finding(path, 'argument-made-optional', 'compatible', `argument ${x.name} is now optional`));
    out.push(...compareSchemas(x.schema, y.schema, { direction: 'input', path, label: `argument ${x.name}`, propertyLabel: `argument ${x.name} property` }));
    for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
      if (['name', 'required', 'schema'].includes(k) || same(x[k], y[k])) continue;
      out.push(finding(`${path}.${k}`, `argument-${k}-changed`, 'compatible', `argument ${x.name} ${k} changed`));
    }
  }
  for (const y of b.filter((x) => !before.has(x.name))) {
    const path = `arguments.${y.name}`;
    if (y.required) out.push(finding(path, 'required-argument-added', 'breaking', `argument ${y.name} added as required`));
    else out.push(finding(path, 'argument-added', 'compatible', `argument ${y.name} added as optional`));
  }
  return out;
}

/** Compares two prompt contracts. */
export function comparePrompt(a: Contract, b: Contract): Finding[] {
  const out = [...compareProse(a, b)];
  out.push(...compareArguments((a['arguments'] as Argument[] | undefined) ?? [], (b['arguments'] as Argument[] | undefined) ?? []));
  if (!same(a['messages'], b['messages'])) out.push(finding('messages', 'messages-changed', 'compatible', 'messages changed'));
  out.push(...compareScopes(a, b));
  return [...out, ...compareOthers(a, b, ['title', 'description', 'arguments', 'messages', 'scopes'])];
}

const COMPARE: Readonly<Record<DiffKind, (a: Contract, b: Contract) => Finding[]>> = {
  tool: compareTool,
  resource: compareResource,
  prompt: comparePrompt,
};

/**
 * Every change from `baseline` to `current`. A current primitive whose
 * `renamedFrom` names a baseline primitive that is gone is one rename
 * (breaking: clients call it by its old name), compared field by field with
 * its old contract — not a removal plus an addition.
 */
export function compareLocks(baseline: Lock, current: Lock, renames: Renames): DiffResult {
  const all: Change[] = [];
  for (const kind of ['tool', 'resource', 'prompt'] as const) {
    const section = SECTIONS[kind];
    const before = baseline[section];
    const after = current[section];
    const tag = (name: string) => (f: Finding): Change => ({ kind, name, ...f, path: f.path === '' ? `${section}.${name}` : `${section}.${name}.${f.path}` });
    const consumed = new Set<string>();
    for (const name of Object.keys(after).sort()) {
      const old = renames[kind].get(name);
      const from = Object.hasOwn(before, name) ? name : old !== undefined && Object.hasOwn(before, old) && !Object.hasOwn(after, old) ? old : undefined;
      if (from === undefined) {
        all.push(tag(name)(finding('', 'added', 'compatible', 'added')));
        continue;
      }
      consumed.add(from);
      if (from !== name) all.push(tag(name)(finding('', 'renamed', 'breaking', `renamed from ${from}; clients that use ${from} break`)));
      if (before[from]!.hash !== after[name]!.hash || from !== name) all.push(...COMPARE[kind](before[from]!.contract, after[name]!.contract).map(tag(name)));
    }
    for (const name of Object.keys(before).sort()) {
      if (!Object.hasOwn(after, name) && !consumed.has(name)) all.push(tag(name)(finding('', 'removed', 'breaking', 'removed')));
    }
  }
  return { breaking: all.filter((c) => c.severity === 'breaking'), compatible: all.filter((c) => c.severity === 'compatible') };
}
