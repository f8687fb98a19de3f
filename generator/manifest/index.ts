/**
 * The manifest phases, each a function of its inputs, called in order by `pipeline.ts`: parse (YAML with
 * positions), shape (the manifest's JSON Schema), refs (`$ref`s resolved and inlined), checks (every
 * semantic rule, all findings collected). Files are read only through the `InputFiles` passed in.
 */
import { basename, dirname } from 'node:path';
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
import { checkScenarios } from './checks/scenarios.js';
import { checkScopes } from './checks/scopes.js';
import { checkServer } from './checks/server.js';
import { checkSources } from './checks/sources.js';
import type { CheckContext } from './checks/context.js';
import { display, type InputFiles } from './inputs.js';
import { SchemaRegistry } from './json-schema.js';
import { parseYaml } from './load.js';
import { RefResolver } from './refs.js';
import { Reporter } from './report.js';
import { validateShape } from './shape.js';
import { schemaSites, setAt } from './sites.js';
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
}

/**
 * Parse: reads the manifest through `inputs` and parses it with positions. With a `cache`, the pieces of
 * the text (top-level keys, primitive entries) an earlier run read are taken from it.
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
    piece: (text: string, read: () => readonly unknown[]) => {
      const got = cache.fragment(`yaml\0${text}`, read);
      if (got.length === 1 && got[0] !== null && typeof got[0] === 'object') pieces.set(got[0], text);
      return got;
    },
  };
  const parsed = parseYaml(read.text, file, memo);
  return { abs, value: parsed.value, reporter: new Reporter(file, parsed.map), diagnostics: parsed.diagnostics, ...(memo ? { pieces } : {}) };
}

/**
 * Shape: the manifest against schema/manifest.schema.json; the raw manifest when it conforms. With a
 * `cache`, the pieces an earlier run found valid are not validated again.
 */
export function checkShape(parsed: Parsed, cache?: GenerationCache): RawManifest | undefined {
  return validateShape(parsed.value, parsed.reporter, cache && { cache, ...(parsed.pieces ? { pieces: parsed.pieces } : {}) }) ? (parsed.value as RawManifest) : undefined;
}

/** The manifest with every `$ref` resolved, and the findings located in other files. */
export interface Resolved {
  readonly manifest: RawManifest;
  readonly external: readonly Diagnostic[];
}

/** Refs: every schema site's `$ref`s resolved (named schemas kept, files and pointers inlined). */
export function resolveRefs(raw: RawManifest, parsed: Parsed, inputs: InputFiles): Resolved {
  const resolver = new RefResolver({
    manifestFile: parsed.abs, reporter: parsed.reporter, namedSchemas: new Set(Object.keys(raw.schemas ?? {})), parse: (p) => inputs.yaml(p), display, exists: (p) => inputs.exists(p),
  });
  const manifest = structuredClone(raw);
  for (const site of schemaSites(raw as unknown as Record<string, unknown>)) {
    setAt(manifest as unknown as Record<string, unknown>, site.path, resolver.resolveSite(site.schema, site.path));
  }
  return { manifest, external: resolver.externalDiagnostics };
}

/** The semantic checks, in the order they run; each reports every finding it has. */
const CHECKS: readonly ((ctx: CheckContext) => void)[] = [
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
 * Checks: every semantic rule over the resolved manifest (findings go to the parse's reporter). Returns
 * what the IR builder needs: positions, source order and the `source:` files read. With a `cache`, a
 * schema found valid by an earlier run is not meta-validated again.
 */
export function runChecks(resolved: Resolved, parsed: Parsed, inputs: InputFiles, refsOk: boolean, cache?: GenerationCache): BuildInput {
  const r = parsed.reporter;
  const named = new Map<string, unknown>(Object.entries(resolved.manifest.schemas ?? {}));
  const sources = new Map<string, IrResourceSource>();
  const ctx: CheckContext = {
    m: resolved.manifest, r, map: r.map, named, registry: refsOk ? new SchemaRegistry(named, cache) : null,
    manifestDir: dirname(parsed.abs), readFile: (p) => inputs.bytes(p), sources,
  };
  for (const check of CHECKS) check(ctx);
  return {
    manifest: resolved.manifest,
    manifestName: basename(parsed.abs),
    locate: (path) => lazyLocation(r, path),
    keyOrder: (path) => r.map.keyOrder(path),
    sources,
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
