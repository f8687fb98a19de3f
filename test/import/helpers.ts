/** Shared steps of the import tests: import a document, write the draft, generate it in a scratch folder. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOpenApi, waiversFor, type ImportResult } from '../../generator/import/openapi/index.js';
import { generate, loadManifest } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';

/** A scratch folder under test/ (so generated code resolves `mcp-gen/runtime`), removed by `cleanup`. */
export function scratch(name: string): { dir: string; cleanup(): void } {
  const dir = join(repoRoot, 'test', `.tmp-import-${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The path of a document shipped by @readme/oas-examples. */
export const example = (path: string): string => join(repoRoot, 'node_modules', '@readme', 'oas-examples', path);

/** Imports `doc`, writes the manifest into `dir` (with the CLI's lint waivers pass) and generates it into `dir/out`. */
export async function importAndGenerate(doc: string, dir: string, config: Parameters<typeof importOpenApi>[1] = {}): Promise<{ imported: ImportResult; outDir: string; manifest: string }> {
  let imported = await importOpenApi(doc, config);
  const manifest = join(dir, 'mcp.manifest.yaml');
  writeFileSync(manifest, imported.yaml);
  const waivers = waiversFor((await loadManifest(manifest)).diagnostics, imported.draft.primitives);
  if (waivers.size > 0) {
    imported = await importOpenApi(doc, { ...config, waivers });
    writeFileSync(manifest, imported.yaml);
  }
  const r = await generate(manifest, { outDir: join(dir, 'out') });
  return { imported, outDir: r.outDir, manifest };
}
