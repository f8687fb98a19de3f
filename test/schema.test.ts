/** Editor support: every example manifest is valid against the shipped manifest JSON Schema. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const schema = JSON.parse(readFileSync(new URL('../schema/manifest.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
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
});
