import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { sortDiagnostics, hasErrors, type Diagnostic } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import { lintManifest } from '../lint/engine.js';
import type { Ir, IrResourceSource } from '../ir/types.js';
import { checkExamples } from './checks/examples.js';
import { checkHttp } from './checks/http.js';
import { checkAnnotations } from './checks/annotations.js';
import { checkKinds } from './checks/kinds.js';
import { checkNames } from './checks/names.js';
import { checkPrompts } from './checks/prompts.js';
import { checkResources } from './checks/resources.js';
import { checkSchemas } from './checks/schemas.js';
import { checkScopes } from './checks/scopes.js';
import { checkServer } from './checks/server.js';
import { checkSources } from './checks/sources.js';
import type { CheckContext } from './checks/context.js';
import { SchemaRegistry } from './json-schema.js';
import { parseYaml, type ParsedFile } from './load.js';
import { RefResolver } from './refs.js';
import { Reporter } from './report.js';
import { validateShape } from './shape.js';
import { schemaSites, setAt } from './sites.js';
import type { RawManifest } from './types.js';

export { formatDiagnostic } from './format.js';
export { CODES, type Code } from './codes.js';

/** The outcome of loading a manifest. */
export interface LoadResult {
  /** Present only when no diagnostic is an error. */
  readonly ir?: Ir;
  /** Every finding, sorted by file, line, column and code. */
  readonly diagnostics: readonly Diagnostic[];
  /** Absolute paths of every file read (manifest, `$ref`'d schema files, `source:` files), for --watch and staleness. */
  readonly files: readonly string[];
}

/** Options of `loadManifest`. */
export interface LoadOptions {
  /** Run the lint rules (MG7xx) once the manifest is valid; default true. Their errors withhold the IR like any other. */
  readonly lint?: boolean;
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
];

/** A path for messages: relative to the working directory whenever one exists. */
function display(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !isAbsolute(rel) ? rel : abs;
}

/**
 * Loads a manifest: parses YAML with positions, validates its shape against
 * schema/manifest.schema.json, resolves `$ref`s, runs every semantic check,
 * builds the IR and runs the lint rules (generator/lint); the IR is returned
 * only when nothing, lint included, is an error. Reads files; never prints or exits.
 */
export async function loadManifest(manifestPath: string, options: LoadOptions = {}): Promise<LoadResult> {
  const abs = resolve(manifestPath);
  const file = display(abs);
  const files = new Set<string>([abs]);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})`;
    const d: Diagnostic = { code: 'MG001', severity: 'error', message: `manifest ${file} ${reason}`, path: '', file, line: 1, column: 1,
      hint: 'pass the path of an mcp.manifest.yaml, or run `mcp-gen init` to create one' };
    return { diagnostics: [d], files: [...files] };
  }
  const parsed = parseYaml(text, file);
  if (parsed.value === undefined) return { diagnostics: sortDiagnostics(parsed.diagnostics), files: [...files] };
  const r = new Reporter(file, parsed.map);
  if (!validateShape(parsed.value, r)) return { diagnostics: sortDiagnostics(r.diagnostics), files: [...files] };
  return analyse(parsed.value as RawManifest, abs, r, files, options.lint ?? true);
}

function analyse(raw: RawManifest, abs: string, r: Reporter, files: Set<string>, lint: boolean): LoadResult {
  const readBytes = (p: string): Uint8Array | undefined => {
    files.add(p);
    try {
      return readFileSync(p);
    } catch {
      return undefined;
    }
  };
  const cache = new Map<string, ParsedFile | undefined>();
  const parse = (p: string): ParsedFile | undefined => {
    if (!cache.has(p)) {
      const bytes = readBytes(p);
      cache.set(p, bytes ? parseYaml(Buffer.from(bytes).toString('utf8'), display(p)) : undefined);
    }
    return cache.get(p);
  };
  const m = resolveRefs(raw, abs, r, parse);
  const refsOk = !r.failed && !hasErrors(m.external);
  const named = new Map<string, unknown>(Object.entries(m.manifest.schemas ?? {}));
  const sources = new Map<string, IrResourceSource>();
  const ctx: CheckContext = {
    m: m.manifest, r, map: r.map, named, registry: refsOk ? new SchemaRegistry(named) : null,
    manifestDir: dirname(abs), readFile: readBytes, sources,
  };
  for (const check of CHECKS) check(ctx);
  const diagnostics = sortDiagnostics([...r.diagnostics, ...m.external]);
  if (hasErrors(diagnostics)) return { diagnostics, files: [...files] };
  const ir = buildIr({
    manifest: m.manifest,
    manifestName: basename(abs),
    locate: (path) => lazyLocation(r, path),
    keyOrder: (path) => r.map.keyOrder(path),
    sources,
  });
  if (!lint) return { ir, diagnostics, files: [...files] };
  const all = sortDiagnostics([...diagnostics, ...lintManifest({ manifest: m.manifest, ir, file: r.file, map: r.map })]);
  return hasErrors(all) ? { diagnostics: all, files: [...files] } : { ir, diagnostics: all, files: [...files] };
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

function resolveRefs(raw: RawManifest, abs: string, r: Reporter, parse: (p: string) => ParsedFile | undefined) {
  const resolver = new RefResolver({
    manifestFile: abs, reporter: r, namedSchemas: new Set(Object.keys(raw.schemas ?? {})), parse, display,
  });
  const manifest = structuredClone(raw);
  for (const site of schemaSites(raw as unknown as Record<string, unknown>)) {
    setAt(manifest as unknown as Record<string, unknown>, site.path, resolver.resolveSite(site.schema, site.path));
  }
  return { manifest, external: resolver.externalDiagnostics };
}
