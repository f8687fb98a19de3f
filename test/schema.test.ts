/** Editor support: every example manifest is valid against the shipped manifest JSON Schema. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const schema = JSON.parse(readFileSync(new URL('../schema/manifest.schema.json', import.meta.url), 'utf8')) as object;
// The schema uses `format` (date-time for lastModified): with ajv-formats the formats are checked, as editors do.
const addFormats = createRequire(import.meta.url)('ajv-formats') as typeof import('ajv-formats').default;
const validate = addFormats(new Ajv2020({ strict: false, allErrors: true })).compile(schema);
const examples = readdirSync(new URL('../manifests/', import.meta.url));

describe('manifest JSON Schema', () => {
  it.each(examples)('accepts manifests/%s', (name) => {
    const text = readFileSync(new URL(`../manifests/${name}/mcp.manifest.yaml`, import.meta.url), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/manifest.schema.json');
    const ok = validate(parse(text));
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
  });
  it('rejects a typo, so editors flag it too', () => {
    expect(validate({ mcpgen: 1, server: { name: 'x', version: '1.0.0' }, tools: { t: { sideEfect: 'read' } } })).toBe(false);
  });
  it('checks formats: a lastModified that is no date-time is flagged', () => {
    const manifest = (lastModified: string) => ({ mcpgen: 1, server: { name: 'x', version: '1.0.0' }, resources: { r: { uri: 'x://r', mimeType: 'text/plain', annotations: { lastModified } } } });
    expect(validate(manifest('2025-01-01T00:00:00Z')), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(manifest('last tuesday'))).toBe(false);
  });
});
