/**
 * Reads an OpenAPI 3.0 / 3.1 or Swagger 2.0 document (YAML or JSON) and
 * returns it as one bundled OpenAPI 3.x object: relative-file `$ref`s are
 * pulled in by @apidevtools/swagger-parser with its HTTP resolver turned off
 * (a network `$ref` is an error, never a fetch), and Swagger 2.0 is converted
 * by swagger2openapi. Local `$ref`s stay in place for the schema converter.
 */
import { createRequire } from 'node:module';
import { UserError } from '../../diagnostics.js';

/** A loaded document: OpenAPI 3.x, with the version it was written in. */
export interface LoadedApi {
  readonly doc: OpenApiDoc;
  /** The version of the source document: `2.0`, `3.0` or `3.1`. */
  readonly sourceVersion: '2.0' | '3.0' | '3.1';
}

/** The parts of an OpenAPI 3.x document the importer reads. */
export interface OpenApiDoc {
  readonly openapi: string;
  readonly info?: { title?: string; version?: string; description?: string };
  readonly servers?: readonly { url: string; variables?: Record<string, { default?: unknown }> }[];
  readonly paths?: Record<string, Record<string, unknown>>;
  readonly components?: Record<string, Record<string, unknown>>;
  readonly security?: readonly Record<string, string[]>[];
  readonly [key: string]: unknown;
}

const require = createRequire(import.meta.url);

function dependency<T>(name: string): T {
  try {
    return require(name) as T;
  } catch {
    throw new UserError(`mcp-gen import openapi needs ${name}: npm install --save-dev @apidevtools/swagger-parser swagger2openapi`);
  }
}

/** A located, one-line account of why the document could not be read, with what to do. */
function describeFailure(file: string, message: string): string {
  const first = message.split('\n')[0]!.trim();
  const at = /\((\d+):(\d+)\)/.exec(first);
  if (/^Error parsing /.test(first) && at) return `${file}:${at[1]}:${at[2]}: not valid YAML or JSON: ${first.replace(/^Error parsing \S+: /, '').replace(/\s*\(\d+:\d+\)\s*$/, '')}; fix the syntax there`;
  if (/ENOENT/.test(first)) {
    const missing = /open '([^']+)'/.exec(first)?.[1];
    return missing && missing !== file && !missing.endsWith(file.replace(/^\.\//, ''))
      ? `${file}: a $ref points at ${missing}, which does not exist; \$ref paths are relative to the file that holds them`
      : `${file}: no such file`;
  }
  if (/https?:/i.test(first)) return `${file}: ${first}; network $refs are never fetched: download the file and refer to it by a relative path`;
  return `${file}: cannot read this OpenAPI document: ${first}`;
}

/** Loads and bundles `file`; a bad document is a UserError naming the file and what is wrong. */
export async function loadOpenApi(file: string): Promise<LoadedApi> {
  const parser = dependency<{ bundle(path: string, options: object): Promise<Record<string, unknown>> }>('@apidevtools/swagger-parser');
  let bundled: Record<string, unknown>;
  try {
    bundled = await parser.bundle(file, { resolve: { http: false, external: true }, validate: { schema: false, spec: false } });
  } catch (e) {
    throw new UserError(describeFailure(file, e instanceof Error ? e.message : String(e)));
  }
  if (typeof bundled['swagger'] === 'string') {
    const converter = dependency<{ convertObj(doc: object, options: object): Promise<{ openapi: OpenApiDoc }> }>('swagger2openapi');
    const { openapi } = await converter.convertObj(bundled, { patch: true, warnOnly: true, resolve: false, direct: false });
    return { doc: openapi, sourceVersion: '2.0' };
  }
  const version = String(bundled['openapi'] ?? '');
  if (!/^3\.[01]\./.test(version)) throw new UserError(`${file}: not an OpenAPI 3.0, 3.1 or Swagger 2.0 document (no \`openapi: 3.x\` or \`swagger: "2.0"\` at the top)`);
  return { doc: bundled as unknown as OpenApiDoc, sourceVersion: version.startsWith('3.1') ? '3.1' : '3.0' };
}
