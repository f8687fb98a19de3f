/**
 * `mcp-gen import openapi`: an OpenAPI document → a curated manifest draft.
 * load (bundle, convert 2.0) → operations → classify (with config and x-mcp)
 * → build (schemas, names, scopes, upstream) → YAML with comments. Pure apart
 * from reading the document and the config; the CLI writes and lints.
 */
import { basename } from 'node:path';
import type { Draft } from './build.js';
import { buildDraft } from './build.js';
import { loadImportConfig, type ImportConfig } from './config.js';
import { loadOpenApi } from './load.js';
import { draftYaml } from './yaml.js';

export { summarize, summaryLines, type ImportSummary } from './summary.js';
export type { ImportConfig, OverrideRule } from './config.js';

/** Options of one import. */
export interface ImportOptions {
  /** An import config file (YAML or JSON). */
  readonly configFile?: string;
  /** Config given in code; merged over the file's. */
  readonly config?: ImportConfig;
  /** The `$schema` reference of the draft's first line (relative to where it is written). */
  readonly schemaRef?: string;
}

/** The draft manifest's text and what became of every operation. */
export interface ImportResult {
  readonly yaml: string;
  readonly draft: Draft;
  readonly sourceVersion: '2.0' | '3.0' | '3.1';
}

/** Imports `file` into a manifest draft. */
export async function importOpenApi(file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const config = { ...(options.configFile ? loadImportConfig(options.configFile) : {}), ...options.config };
  const api = await loadOpenApi(file);
  const draft = buildDraft(api, config);
  return { yaml: draftYaml(draft, basename(file), options.schemaRef ?? 'node_modules/mcp-gen/schema/manifest.schema.json'), draft, sourceVersion: api.sourceVersion };
}
