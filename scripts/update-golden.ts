/**
 * Rewrites the golden files from the current generator:
 * `npx tsx scripts/update-golden.ts [case...]`. Each case's folder under
 * `test/golden/` is replaced whole, so files the generator no longer emits
 * disappear; folders of cases that no longer exist are removed. Review the
 * diff before committing it. The manifests of the importer cases
 * (test/fixtures/import/) are imported again first.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { emitCase, goldenCases } from '../test/helpers/golden.js';
import { importCase, importCases, importGoldenPath } from '../test/helpers/import-golden.js';
import { goldenDir } from '../test/helpers/paths.js';

// Importer cases first: their manifests are generator cases below.
for (const name of importCases()) {
  await mkdir(dirname(importGoldenPath(name)), { recursive: true });
  await writeFile(importGoldenPath(name), await importCase(name), 'utf8');
  process.stdout.write(`test/fixtures/golden/imported-${name}/mcp.manifest.yaml: imported\n`);
}

const all = goldenCases();
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!all.includes(name)) throw new Error(`no golden case ${name}; cases: ${all.join(', ')}`);
}

for (const name of wanted.length > 0 ? wanted : all) {
  const files = await emitCase(name);
  const root = join(goldenDir, name);
  await rm(root, { recursive: true, force: true });
  for (const [path, content] of files) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content, 'utf8');
  }
  process.stdout.write(`test/golden/${name}: ${files.size} files\n`);
}

if (wanted.length === 0) {
  await mkdir(goldenDir, { recursive: true });
  for (const e of await readdir(goldenDir, { withFileTypes: true })) {
    if (e.isDirectory() && !all.includes(e.name)) {
      await rm(join(goldenDir, e.name), { recursive: true, force: true });
      process.stdout.write(`test/golden/${e.name}: removed (no fixture)\n`);
    }
  }
}
