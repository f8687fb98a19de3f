/**
 * Golden-file cases: each `test/fixtures/golden/<case>/mcp.manifest.yaml` is
 * compiled in memory and its every emitted file is compared with
 * `test/golden/<case>/<path>`. Shared by the golden test and
 * `scripts/update-golden.ts`, so both agree on what a case emits.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileManifest } from '../../generator/pipeline.js';
import { goldenDir, goldenFixturesDir } from './paths.js';
import { snapshotTree } from './tree.js';

/** The names of every golden case (folders holding a manifest), sorted. */
export function goldenCases(): string[] {
  return readdirSync(goldenFixturesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(goldenFixturesDir, e.name, 'mcp.manifest.yaml')))
    .map((e) => e.name)
    .sort();
}

/** What the generator emits for one case, by relative path (generator- and author-owned alike). */
export async function emitCase(name: string): Promise<Map<string, string>> {
  const result = await compileManifest(join(goldenFixturesDir, name, 'mcp.manifest.yaml'));
  return new Map(result.files.map((f) => [f.path, f.content]));
}

/** The committed golden files of one case, by relative path (UTF-8). */
export async function readGoldens(name: string): Promise<Map<string, string>> {
  const tree = await snapshotTree(join(goldenDir, name));
  return new Map([...tree].map(([p, f]) => [p, Buffer.from(f.content, 'latin1').toString('utf8')]));
}
