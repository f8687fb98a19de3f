/**
 * The manifest phases, each a function of its inputs, called in order by `pipeline.ts`: parse (YAML with
 * positions), shape (the manifest's JSON Schema), refs (`$ref`s resolved and inlined), checks (every
 * semantic rule, all findings collected). Files are read only through the `InputFiles` passed in.
 */
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { BuildInput } from '../ir/build.js';
import type { IrResourceSource } from '../ir/types.js';
import { checkExamples } from './checks/examples.js';
import { checkHttp } from './checks/http.js';
import { checkAnnotations } from './checks/annotations.js';
import { checkKinds } from './checks/kinds.js';
import { checkNames } from './checks/names.js';
import { checkPrompts } from './checks/prompts.js';
import { checkResources } from './checks/resources.js';
import { checkSchemas } from './checks/schemas.js';
import { checkScenarios, resourceMatcher } from './checks/scenarios.js';
import { checkScopes } from './checks/scopes.js';
import { checkServer } from './checks/server.js';
import { checkSources } from './checks/sources.js';
import { SECTIONS, type Check, type CheckContext, type Entry, type EntrySummary } from './checks/context.js';
import { summarise } from './checks/summary.js';
import { EntryMemo, type RefFile } from './entries.js';
import { display, type InputFiles } from './inputs.js';
import { SchemaRegistry } from './json-schema.js';
import { parseYaml } from './load.js';
import { projectRoot, RefResolver } from './refs.js';
import { Reporter } from './report.js';
import { validateShape } from './shape.js';
import { isObject } from './pointer.js';
import { entrySites, namedSites, setAt } from './sites.js';
import type { RawManifest } from './types.js';
import type { GenerationCache } from '../cache.js';

export { formatDiagnostic } from './format.js';
export { CODES, type Code } from './codes.js';
export { InputFiles, display } from './inputs.js';

/** The outcome of loading a manifest (see `loadManifest` in pipeline.ts). */
export interface LoadResult {
  /** Present only when no diagnostic is an error. */
  readonly ir?: import('../ir/types.js').Ir;
  /** Every finding, sorted by file, line, column and code. */
  readonly diagnostics: readonly Diagnostic[];
  /** Absolute paths of every file read (manifest, `$ref`'d schema files, `source:` files), for --watch and staleness. */
  readonly files: readonly string[];
}

/** The manifest parsed: its value, and the reporter that locates findings in it. */
export interface Parsed {
  readonly abs: string;
  readonly value: unknown;
  readonly reporter: Reporter;
  /** Findings of reading or parsing (a manifest that cannot be read or is not YAML). */
  readonly diagnostics: readonly Diagnostic[];
  /** With the cache: the text of the manifest piece each entry object was read from (see `readInPieces`). */
  readonly pieces?: WeakMap<object, string>;
  /**
   * With the cache: the entries of `tools:`, `resources:` and `prompts:` whose results an earlier run kept
   * (left unread in `value` until got), and what this run computes of the others (see entries.ts).
   */
  readonly entries?: EntryMemo;
}

/**
 * Parse: reads the manifest through `inputs` and parses it with positions. With a `cache`, the pieces of
 * the text (top-level keys, primitive entries) an earlier run read are taken from it, and the entries
 * whose results it kept are left unread.
 */
export async function parseManifest(abs: string, inputs: InputFiles, cache?: GenerationCache): Promise<Parsed> {
  const file = display(abs);
  const read = await inputs.text(abs);
  if ('error' in read) {
    const d: Diagnostic = { code: 'MG001', severity: 'error', message: `manifest ${file} ${read.error}`, path: '', file, line: 1, column: 1,
      hint: 'pass the path of an mcp.manifest.yaml, or run `mcp-gen init` to create one' };
    return { abs, value: undefined, reporter: new Reporter(file, parseYaml('', file).map), diagnostics: [d] };
  }
  const pieces = new WeakMap<object, string>();
  const memo = cache && {
    piece: (text: string, read: () => readonly unknown[], keep = true) => {
      const key = `yaml\0${text}`;
      const got = keep ? cache.fragment(key, read) : (cache.fragment<readonly unknown[] | undefined>(key, () => undefined) ?? read());
      if (got.length === 1 && got[0] !== null && typeof got[0] === 'object') pieces.set(got[0], text);
      return got;
    },
  };
  let root: string | undefined;
  const entries = cache && new EntryMemo(cache, refFileReader(abs, inputs), (file) => inputs.bytes(file), () => (root ??= projectRoot(dirname(abs), (p) => inputs.exists(p))));
  const parsed = parseYaml(read.text, file, memo, entries);
  return { abs, value: parsed.value, reporter: new Reporter(file, parsed.map), diagnostics: parsed.diagnostics, ...(memo ? { pieces } : {}), ...(entries ? { entries } : {}) };
}

/**
 * Reads a schema file a named schema `$ref`s, as the resolver finds it (refs.ts: the path decoded, from the
 * manifest's folder), when it lies in that folder or below: an entry's kept results may then depend on it.
 */
function refFileReader(manifest: string, inputs: InputFiles): RefFile {
  const dir = dirname(manifest);
  return (path) => {
    let abs: string;
    try {
      abs = resolve(dir, decodeURI(path));
    } catch {
      return undefined;
    }
    const inside = relative(dir, abs);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
    const bytes = inputs.bytes(abs);
    return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
  };
}

/**
 * Shape: the manifest against schema/manifest.schema.json; the raw manifest when it conforms. With a
 * `cache`, the pieces an earlier run found valid are not validated again.
 */
export function checkShape(parsed: Parsed, cache?: GenerationCache): RawManifest | undefined {
  const entries = parsed.entries;
  const memo = cache && { cache, ...(parsed.pieces ? { pieces: parsed.pieces } : {}), ...(entries ? { known: (section: string, name: string) => entries.known(section, name) } : {}) };
  return validateShape(parsed.value, parsed.reporter, memo) ? (parsed.value as RawManifest) : undefined;
}

/** The manifest with every `$ref` resolved, and the findings located in other files. */
export interface Resolved {
  readonly manifest: RawManifest;
  readonly external: readonly Diagnostic[];
}

/**
 * Refs: every schema site's `$ref`s resolved (named schemas kept, files and pointers inlined), in a copy
 * of the manifest. An entry whose results the cache kept is resolved only if something gets it.
 */
export function resolveRefs(raw: RawManifest, parsed: Parsed, inputs: InputFiles): Resolved {
  const memo = parsed.entries;
  const resolver = new RefResolver({
    manifestFile: parsed.abs, reporter: parsed.reporter, namedSchemas: new Set(Object.keys(raw.schemas ?? {})), display,
    // A schema file an entry reads joins what its kept results are a function of (with the project folder
    // the resolver found it inside); the folder is found with `exists` (see entries.ts `readRef`).
    parse: (p) => (memo?.readRef(p, inputs.bytes(p)), inputs.yaml(p)),
    exists: (p) => inputs.exists(p),
  });
  const from = raw as unknown as Record<string, unknown>;
  const manifest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(from)) own(manifest, key, ENTRY_SECTIONS.has(key) && isObject(value) ? {} : structuredClone(value));
  for (const site of namedSites(from)) setAt(manifest, site.path, resolver.resolveSite(site.schema, site.path));
  const resolveEntry = (section: string, name: string, value: unknown): unknown => {
    const copy = structuredClone(value);
    const root = { [section]: { [name]: copy } };
    for (const site of entrySites(section, name, value)) setAt(root, site.path, resolver.resolveSite(site.schema, site.path));
    return root[section]![name];
  };
  const findings = () => parsed.reporter.diagnostics.length + resolver.externalDiagnostics.length;
  for (const section of SECTIONS) {
    const entries = from[section];
    if (!isObject(entries)) continue;
    const into = manifest[section] as Record<string, unknown>;
    for (const name of Object.keys(entries)) {
      if (memo?.known(section, name)) lazily(into, name, () => resolveEntry(section, name, entries[name]));
      else own(into, name, memo ? memo.during(section, name, findings, () => resolveEntry(section, name, entries[name])) : resolveEntry(section, name, entries[name]));
    }
  }
  return { manifest: manifest as unknown as RawManifest, external: resolver.externalDiagnostics };
}

const ENTRY_SECTIONS = new Set<string>(SECTIONS);

/** Sets an own property, as parsing does, whatever the key (`__proto__` too). */
function own(into: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(into, key, { value, enumerable: true, configurable: true, writable: true });
}

/** A property computed when first got (an entry whose results are kept: something rarely needs its value). */
function lazily(into: Record<string, unknown>, key: string, compute: () => unknown): void {
  Object.defineProperty(into, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute();
      own(into, key, value);
      return value;
    },
  });
}

/** The semantic checks, in the order they run; each reports every finding it has. */
const CHECKS: readonly Check[] = [
  checkServer,
  checkNames,
  checkKinds,
  checkAnnotations,
  checkScopes,
  checkResources,
  checkSources,
  checkPrompts,
  checkSchemas,
  checkExamples,
  checkHttp,
  checkScenarios,
];

/**
 * Checks: every semantic rule over the resolved manifest (findings go to the parse's reporter), one entry
 * at a time, then across entries from their summaries. Returns what the IR builder needs: positions,
 * source order and the `source:` files read. With a `cache`, a schema found valid by an earlier run is not
 * meta-validated again, and an entry whose results it kept (valid, no finding) is not checked again.
 */
export function runChecks(resolved: Resolved, parsed: Parsed, inputs: InputFiles, refsOk: boolean, cache?: GenerationCache): BuildInput {
  const r = parsed.reporter;
  // Without every `$ref` resolved, the checks of an entry may find less: every entry is checked again.
  const memo = refsOk ? parsed.entries : undefined;
  const named = new Map<string, unknown>(Object.entries(resolved.manifest.schemas ?? {}));
  const sources = new Map<string, IrResourceSource>();
  const live: Entry[] = [];
  const summaries: EntrySummary[] = [];
  for (const section of SECTIONS) {
    const rec = (resolved.manifest[section] ?? {}) as Record<string, Entry['value']>;
    for (const name of Object.keys(rec)) {
      const kept = memo?.summary(section, name);
      if (kept) {
        summaries.push(kept);
        continue;
      }
      const e = { section, name, value: rec[name]! } as Entry;
      const summary = summarise(e);
      parsed.entries?.noteSummary(section, name, summary);
      live.push(e);
      summaries.push(summary);
    }
  }
  const resourceOf = resourceMatcher(summaries.filter((e) => e.section === 'resources'), cache);
  // A `source:` file read by an entry's check joins what its kept results are a function of.
  const readSource = (file: string): Uint8Array | undefined => {
    const bytes = inputs.bytes(file);
    parsed.entries?.readSource(file, bytes);
    return bytes;
  };
  const ctx: CheckContext = {
    m: resolved.manifest, r, map: r.map, named, registry: refsOk ? new SchemaRegistry(named, cache) : null,
    manifestDir: dirname(parsed.abs), readFile: readSource, sources, resourceOf,
  };
  const findings = () => r.diagnostics.length;
  for (const check of CHECKS) {
    const entry = check.entry;
    if (entry) for (const e of live) parsed.entries ? parsed.entries.during(e.section, e.name, findings, () => entry(ctx, e)) : entry(ctx, e);
    check.whole?.(ctx, summaries);
  }
  return {
    manifest: resolved.manifest,
    manifestName: basename(parsed.abs),
    locate: (path) => lazyLocation(r, path),
    keyOrder: (path) => r.map.keyOrder(path),
    sources,
    resourceOf,
    ...(memo ? { memo } : {}),
  };
}

/**
 * Where a primitive is declared, resolved on first read: positions cost a
 * second, position-keeping parse, and a valid manifest's IR rarely needs them.
 */
function lazyLocation(r: Reporter, path: readonly (string | number)[]): { readonly file: string; readonly line: number; readonly column: number } {
  let at: { line: number; column: number } | undefined;
  const position = () => (at ??= r.map.locate(path, 'key'));
  return {
    file: r.file,
    get line() {
      return position().line;
    },
    get column() {
      return position().column;
    },
  };
}
