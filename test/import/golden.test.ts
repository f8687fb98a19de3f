/** The importer's output for each fixture document equals the committed manifest, byte for byte, and is stable. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCase, importCases, importGoldenPath } from '../helpers/import-golden.js';

describe.each(importCases())('import golden %s', (name) => {
  it('imports to the committed manifest (update: npx tsx scripts/update-golden.ts)', async () => {
    expect(await importCase(name)).toBe(readFileSync(importGoldenPath(name), 'utf8'));
  });
  it('imports to the same bytes twice', async () => {
    expect(await importCase(name)).toBe(await importCase(name));
  });
});
