/**
 * Importer golden cases: `test/fixtures/import/<case>/openapi.yaml` imports to the manifest committed as
 * `test/fixtures/golden/imported-<case>/mcp.manifest.yaml`, which is in turn a generator golden case
 * (so the importer's output is generated, type-checked and its contract suites run).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importOpenApi } from '../../generator/import/openapi/index.js';
import { goldenFixturesDir, repoRoot } from './paths.js';

/** Folder of the importer's input documents. */
export const importFixturesDir = join(repoRoot, 'test', 'fixtures', 'import');

/** The importer cases (folders holding an openapi.yaml), sorted. */
export function importCases(): string[] {
  return readdirSync(importFixturesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(importFixturesDir, e.name, 'openapi.yaml')))
    .map((e) => e.name)
    .sort();
}

/** Where a case's manifest is committed. */
export const importGoldenPath = (name: string): string => join(goldenFixturesDir, `imported-${name}`, 'mcp.manifest.yaml');

/** The manifest the importer writes for one case (with the `$schema` line a file at that place needs). */
export async function importCase(name: string): Promise<string> {
  const r = await importOpenApi(join(importFixturesDir, name, 'openapi.yaml'), { schemaRef: '../../../../schema/manifest.schema.json' });
  return r.yaml;
}
