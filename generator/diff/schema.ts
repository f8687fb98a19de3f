/**
 * Compares two published JSON Schemas and classifies every difference by who
 * is affected. An input schema constrains what clients send, so narrowing it
 * breaks them; an output (or content) schema describes what clients receive,
 * so widening it breaks them. Removing an enum value is breaking either way.
 */
import { canonicalJson } from '../runtime/security/hash.js';
import type { Finding, Severity } from './types.js';

/** Who writes the values a schema describes. */
export type Direction = 'input' | 'output';

/** Where a schema sits, for paths and messages. */
export interface SchemaSite {
  readonly direction: Direction;
  /** Dotted path of the schema below its primitive (`input`, `arguments.days`). */
  readonly path: string;
  /** How a person names the schema itself (`input schema`, `argument days`). */
  readonly label: string;
  /** How a person names a property below it (`input property`, `argument days property`). */
  readonly propertyLabel: string;
}

type Obj = Readonly<Record<string, unknown>>;

interface Walk {
  readonly site: SchemaSite;
  readonly roots: readonly [unknown, unknown];
  readonly seen: Set<string>;
  readonly out: Finding[];
}

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const NARROWING = ['pattern', 'format', 'multipleOf', 'contentMediaType', 'contentEncoding'];
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const PROSE = ['title', 'description', 'examples', 'default', 'deprecated', '$comment', 'readOnly', 'writeOnly', '$schema', '$id'];
const HANDLED = new Set([
  ...LOWER, ...UPPER, ...NARROWING, ...COMBINATORS, ...PROSE,
  'type', 'enum', 'const', 'properties', 'required', 'items', 'additionalProperties', 'uniqueItems', '$ref', '$defs',
]);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v));

/** Every difference between two schemas at one site; empty when they are equal. */
export function compareSchemas(before: unknown, after: unknown, site: SchemaSite): Finding[] {
  const w: Walk = { site, roots: [before, after], seen: new Set(), out: [] };
  compareNode(w, before, after, '');
  return w.out;
}

function report(w: Walk, rel: string, change: string, severity: Severity, text: string): void {
  const label = rel === '' ? w.site.label : `${w.site.propertyLabel} ${rel}`;
  w.out.push({ path: rel === '' ? w.site.path : `${w.site.path}.${rel}`, change, severity, detail: `${label} ${text}` });
}

/** Breaking when the schema accepts fewer values: for inputs only. */
const narrowed = (w: Walk): Severity => (w.site.direction === 'input' ? 'breaking' : 'compatible');
/** Breaking when the schema allows more values: for outputs only. */
const widened = (w: Walk): Severity => (w.site.direction === 'output' ? 'breaking' : 'compatible');

/** Follows local `$ref`s (`#/$defs/Name`, `#/...`) against the schema's own root; siblings win. */
function resolve(node: unknown, root: unknown): { node: unknown; ref?: string } {
  if (!isObj(node) || typeof node['$ref'] !== 'string' || !node['$ref'].startsWith('#')) return { node };
  const ref = node['$ref'];
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObj(target) ? target[key] : undefined;
  }
  if (!isObj(target)) return { node, ref };
  const { $ref: _ignored, ...siblings } = node;
  return { node: { ...target, ...siblings }, ref };
}

function compareNode(w: Walk, rawA: unknown, rawB: unknown, rel: string): void {
  const ra = resolve(rawA, w.roots[0]);
  const rb = resolve(rawB, w.roots[1]);
  if (ra.ref !== undefined || rb.ref !== undefined) {
    const key = `${ra.ref ?? ''}|${rb.ref ?? ''}`;
    if (w.seen.has(key)) return; // a recursive schema: this pair is already being compared above
    w.seen.add(key);
  }
  const a = ra.node;
  const b = rb.node;
  if (same(a, b)) return;
  if (!isObj(a) || !isObj(b)) {
    report(w, rel, 'schema-changed', 'breaking', `schema changed from ${show(a)} to ${show(b)}`);
    return;
  }
  compareTypes(w, a, b, rel);
  compareEnums(w, a, b, rel);
  compareProperties(w, a, b, rel);
  compareChildren(w, a, b, rel);
  compareBounds(w, a, b, rel);
  compareRest(w, a, b, rel);
}

function typesOf(s: Obj): Set<string> | undefined {
  const t = s['type'];
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return undefined;
}

/** Types in `from` that `to` does not accept (`integer` is inside `number`). */
function missing(from: Set<string>, to: Set<string>): string[] {
  return [...from].filter((t) => !to.has(t) && !(t === 'integer' && to.has('number')));
}

function compareTypes(w: Walk, a: Obj, b: Obj, rel: string): void {
  const ta = typesOf(a);
  const tb = typesOf(b);
  const name = (t: Set<string> | undefined) => (t === undefined ? 'any' : [...t].join(' | '));
  if (ta === undefined && tb === undefined) return;
  const lost = ta === undefined ? ['any'] : tb === undefined ? [] : missing(ta, tb);
  const gained = tb === undefined ? ['any'] : ta === undefined ? [] : missing(tb, ta);
  const text = `type changed from ${name(ta)} to ${name(tb)}`;
  if (lost.length > 0 && gained.length > 0) report(w, rel, 'type-changed', 'breaking', text);
  else if (lost.length > 0) report(w, rel, 'type-narrowed', narrowed(w), text);
  else if (gained.length > 0) report(w, rel, 'type-widened', widened(w), text);
}

function enumOf(s: Obj): readonly unknown[] | undefined {
  if (Array.isArray(s['enum'])) return s['enum'];
  return 'const' in s ? [s['const']] : undefined;
}

function compareEnums(w: Walk, a: Obj, b: Obj, rel: string): void {
  const ea = enumOf(a);
  const eb = enumOf(b);
  if (ea === undefined && eb === undefined) return;
  if (ea === undefined) {
    report(w, rel, 'enum-added', narrowed(w), `restricted to ${eb!.map(show).join(', ')}`);
    return;
  }
  if (eb === undefined) {
    report(w, rel, 'enum-lifted', widened(w), `no longer restricted to ${ea.map(show).join(', ')}`);
    return;
  }
  const has = (list: readonly unknown[], v: unknown) => list.some((x) => same(x, v));
  for (const v of ea) if (!has(eb, v)) report(w, rel, 'enum-value-removed', 'breaking', `enum value ${show(v)} removed`);
  for (const v of eb) if (!has(ea, v)) report(w, rel, 'enum-value-added', 'compatible', `enum value ${show(v)} added`);
}

const child = (rel: string, key: string) => (rel === '' ? key : `${rel}.${key}`);

function compareProperties(w: Walk, a: Obj, b: Obj, rel: string): void {
  const pa = isObj(a['properties']) ? a['properties'] : {};
  const pb = isObj(b['properties']) ? b['properties'] : {};
  const req = (s: Obj) => new Set(Array.isArray(s['required']) ? (s['required'] as string[]) : []);
  const ra = req(a);
  const rb = req(b);
  const input = w.site.direction === 'input';
  for (const key of Object.keys(pa)) {
    const p = child(rel, key);
    if (!(key in pb)) {
      report(w, p, 'property-removed', 'breaking', 'removed');
      continue;
    }
    if (!ra.has(key) && rb.has(key)) report(w, p, 'made-required', input ? 'breaking' : 'compatible', 'is now required');
    if (ra.has(key) && !rb.has(key)) report(w, p, 'made-optional', input ? 'compatible' : 'breaking', 'is now optional');
    compareNode(w, pa[key], pb[key], p);
  }
  for (const key of Object.keys(pb)) {
    if (key in pa) continue;
    const p = child(rel, key);
    if (input && rb.has(key)) report(w, p, 'required-property-added', 'breaking', 'added as required');
    else report(w, p, 'property-added', 'compatible', rb.has(key) ? 'added' : 'added as optional');
  }
}

function compareChildren(w: Walk, a: Obj, b: Obj, rel: string): void {
  if (isObj(a['items']) || isObj(b['items'])) compareNode(w, a['items'] ?? {}, b['items'] ?? {}, `${rel}[]`);
  if (isObj(a['additionalProperties']) && isObj(b['additionalProperties'])) {
    compareNode(w, a['additionalProperties'], b['additionalProperties'], child(rel, '*'));
  } else if (!same(a['additionalProperties'], b['additionalProperties'])) {
    const closes = b['additionalProperties'] === false || (isObj(b['additionalProperties']) && !isObj(a['additionalProperties']));
    const text = `additionalProperties changed from ${show(a['additionalProperties'] ?? true)} to ${show(b['additionalProperties'] ?? true)}`;
    report(w, rel, 'additional-properties-changed', closes ? narrowed(w) : widened(w), text);
  }
  for (const k of COMBINATORS) {
    const la = Array.isArray(a[k]) ? (a[k] as unknown[]) : undefined;
    const lb = Array.isArray(b[k]) ? (b[k] as unknown[]) : undefined;
    if (same(la, lb)) continue;
    if (la === undefined || lb === undefined || la.length !== lb.length) {
      report(w, rel, 'schema-changed', 'breaking', `${k} changed`);
      continue;
    }
    la.forEach((x, i) => compareNode(w, x, lb[i], `${rel}${k === 'prefixItems' ? '' : `.${k}`}[${i}]`.replace(/^\./, '')));
  }
}

function compareBounds(w: Walk, a: Obj, b: Obj, rel: string): void {
  for (const k of [...LOWER, ...UPPER]) {
    const x = a[k];
    const y = b[k];
    if (same(x, y)) continue;
    const lower = LOWER.includes(k);
    let tighter: boolean;
    if (typeof x === 'number' && typeof y === 'number') tighter = lower ? y > x : y < x;
    else tighter = x === undefined; // a bound added narrows; a bound removed widens
    const text = x === undefined ? `${k} ${show(y)} added` : y === undefined ? `${k} ${show(x)} removed` : `${k} changed from ${show(x)} to ${show(y)}`;
    report(w, rel, tighter ? 'constraint-tightened' : 'constraint-loosened', tighter ? narrowed(w) : widened(w), text);
  }
  const uniq = (s: Obj) => s['uniqueItems'] === true;
  if (uniq(a) !== uniq(b)) {
    const text = uniq(b) ? 'now requires unique items' : 'no longer requires unique items';
    report(w, rel, uniq(b) ? 'constraint-tightened' : 'constraint-loosened', uniq(b) ? narrowed(w) : widened(w), text);
  }
  for (const k of NARROWING) {
    if (same(a[k], b[k])) continue;
    if (a[k] === undefined) report(w, rel, 'constraint-tightened', narrowed(w), `${k} ${show(b[k])} added`);
    else if (b[k] === undefined) report(w, rel, 'constraint-loosened', widened(w), `${k} ${show(a[k])} removed`);
    else report(w, rel, 'constraint-changed', 'breaking', `${k} changed from ${show(a[k])} to ${show(b[k])}`);
  }
}

function compareRest(w: Walk, a: Obj, b: Obj, rel: string): void {
  for (const k of PROSE) {
    if (!same(a[k], b[k])) report(w, rel, `${k.replace(/^\$/, '')}-changed`, 'compatible', `${k} changed`);
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of [...keys].sort()) {
    if (HANDLED.has(k) || same(a[k], b[k])) continue;
    if (k.startsWith('x-')) report(w, rel, 'annotation-changed', 'compatible', `${k} changed`);
    // A keyword mcp-gen does not reason about: assume the worst rather than miss a break.
    else report(w, rel, 'schema-changed', 'breaking', `keyword ${k} changed`);
  }
}
