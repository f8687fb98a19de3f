/**
 * Field-by-field comparison of two catalogs (or any JSON values): key order is ignored, everything
 * else must be equal. List entries are matched by name (resources by URI), so a missing or extra
 * primitive is one difference, not a cascade.
 */
import type { Catalog } from './catalog.js';

type Obj = Record<string, unknown>;

/** One field that differs: where, what was expected, what was found (undefined: absent). */
export interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every difference between two JSON values, below `path`. */
export function diffValues(expected: unknown, actual: unknown, path: string, out: Difference[] = []): Difference[] {
  if (isObj(expected) && isObj(actual)) {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) diffValues(expected[k], actual[k], `${path}.${k}`, out);
  } else if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) out.push({ path, expected, actual });
    else expected.forEach((e, i) => diffValues(e, actual[i], `${path}[${i}]`, out));
  } else if (expected !== actual && !(expected === undefined && actual === undefined)) {
    out.push({ path, expected, actual });
  }
  return out;
}

function byKey(list: readonly Obj[], key: string): Map<string, Obj> {
  return new Map(list.map((e) => [String(e[key]), e]));
}

function diffList(section: string, key: string, expected: readonly Obj[], actual: readonly Obj[], out: Difference[]): void {
  const want = byKey(expected, key);
  const got = byKey(actual, key);
  for (const [k, e] of want) diffValues(e, got.get(k), `${section}[${JSON.stringify(k)}]`, out);
  for (const [k, a] of got) if (!want.has(k)) out.push({ path: `${section}[${JSON.stringify(k)}]`, expected: undefined, actual: a });
}

/** Every difference between an expected and an actual catalog, except under the `ignore`d paths. */
export function diffCatalogs(expected: Catalog, actual: Catalog, ignore: readonly string[] = []): Difference[] {
  const out: Difference[] = [];
  diffValues(expected.serverInfo, actual.serverInfo, 'serverInfo', out);
  diffValues(expected.capabilities, actual.capabilities, 'capabilities', out);
  diffValues(expected.instructions, actual.instructions, 'instructions', out);
  diffList('tools', 'name', expected.tools, actual.tools, out);
  diffList('resources', 'uri', expected.resources, actual.resources, out);
  diffList('resourceTemplates', 'uriTemplate', expected.resourceTemplates, actual.resourceTemplates, out);
  diffList('prompts', 'name', expected.prompts, actual.prompts, out);
  return out.filter((d) => !ignore.some((p) => d.path === p || d.path.startsWith(`${p}.`) || d.path.startsWith(`${p}[`)));
}

/** One difference as a line a reader can act on. */
export function formatDifference(d: Difference): string {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  const cut = (s: string) => (s.length > 160 ? `${s.slice(0, 157)}...` : s);
  return `${d.path}: expected ${cut(show(d.expected))}, found ${cut(show(d.actual))}`;
}

/** The fields a manifest can declare, per place in a catalog; a published field outside them cannot be expected. */
const EXPRESSIBLE: readonly [RegExp, ReadonlySet<string>][] = [
  [/^serverInfo$/, new Set(['name', 'version', 'title', 'description', 'websiteUrl', 'icons'])],
  [/^capabilities$/, new Set(['tools', 'resources', 'prompts', 'completions', 'logging'])],
  [/^capabilities\.(tools|prompts)$/, new Set(['listChanged'])],
  [/^capabilities\.resources$/, new Set(['listChanged', 'subscribe'])],
  [/^tools\[[^\]]*\]$/, new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'])],
  [/^(resources|resourceTemplates)\[[^\]]*\]$/, new Set(['name', 'uri', 'uriTemplate', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'])],
  [/^prompts\[[^\]]*\]$/, new Set(['name', 'title', 'description', 'arguments', 'icons', '_meta'])],
];

/**
 * True for a difference that is a published field no manifest can declare (a tool's `execution`, the
 * `tasks` capability): the server has more than the manifest can say, which verify reports apart.
 */
export function isInexpressible(d: Difference): boolean {
  if (d.expected !== undefined) return false;
  const dot = d.path.lastIndexOf('.');
  if (dot < 0) return false;
  const parent = d.path.slice(0, dot);
  const field = d.path.slice(dot + 1);
  const rule = EXPRESSIBLE.find(([re]) => re.test(parent));
  return rule !== undefined && !rule[1].has(field);
}
