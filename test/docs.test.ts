/** docs/manifest.md documents every field of the manifest's JSON Schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documents, schemaPaths, type ManifestSchema } from './helpers/schema-paths.js';

const schema = JSON.parse(readFileSync(new URL('../schema/manifest.schema.json', import.meta.url), 'utf8')) as ManifestSchema;
const doc = readFileSync(new URL('../docs/manifest.md', import.meta.url), 'utf8');

describe('docs/manifest.md', () => {
  const all = schemaPaths(schema);
  it('finds the fields of the schema', () => {
    expect(all).toContain('tools.<name>.sideEffect');
    expect(all.length).toBeGreaterThan(60);
  });
  it.each(all.filter((p) => !p.includes('.lint.disable.<CODE>')))('documents `%s`', (path) => {
    expect(documents(doc, path)).toBe(true);
  });
});
