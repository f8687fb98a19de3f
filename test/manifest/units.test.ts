import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../generator/manifest/index.js';
import { loadManifest } from '../../generator/pipeline.js';
import { parseYaml } from '../../generator/manifest/load.js';
import { isJsonMime, isMimeType, isTextualMime } from '../../generator/manifest/mime.js';
import { manifestSchema } from '../../generator/manifest/shape.js';
import { closest, editDistance } from '../../generator/manifest/suggest.js';
import { parseUriTemplate } from '../../generator/manifest/uri-template.js';

describe('URI templates', () => {
  it('lists variables in order of first appearance across operators', () => {
    const t = parseUriTemplate('x://a/{b}{/c}{.d}{;e}{+f}{#g}{?h,i}{&j}/{b}');
    expect(t.problems).toEqual([]);
    expect(t.variables).toEqual(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(t.positions.get('c')).toBe(11);
  });

  it('rejects reserved operators, stray braces, modifiers and multi-variable path expressions', () => {
    expect(parseUriTemplate('x://{=a}').problems.map((p) => p.code)).toEqual(['MG403']);
    expect(parseUriTemplate('x://a}').problems.map((p) => p.code)).toEqual(['MG403']);
    expect(parseUriTemplate('x://{a*}{b:2}').problems.map((p) => p.code)).toEqual(['MG405', 'MG405']);
    expect(parseUriTemplate('x://{/a,b}').problems.map((p) => p.code)).toEqual(['MG404']);
    expect(parseUriTemplate('x://{?a,b}').problems).toEqual([]);
  });
});

describe('MIME types', () => {
  it('classifies textual, JSON and binary types', () => {
    for (const m of ['text/markdown', 'application/json', 'application/ld+json', 'image/svg+xml', 'application/x-yaml', 'application/sql', 'text/plain; charset=utf-8']) {
      expect(isTextualMime(m), m).toBe(true);
    }
    for (const m of ['image/png', 'application/pdf', 'application/octet-stream']) expect(isTextualMime(m), m).toBe(false);
    expect(isJsonMime('application/vnd.api+json')).toBe(true);
    expect(isJsonMime('text/json')).toBe(false);
    expect(isMimeType('markdown')).toBe(false);
  });
});

describe('suggestions', () => {
  it('counts a swap of neighbours as one edit and stays quiet for far words', () => {
    expect(editDistance('raed', 'read')).toBe(1);
    expect(closest('sideEfect', ['sideEffect', 'scopes'])).toBe('sideEffect');
    expect(closest('banana', ['sideEffect', 'scopes'])).toBeUndefined();
  });
});

describe('YAML positions', () => {
  it('maps paths to key and value positions, falling back to the nearest ancestor', () => {
    const { map } = parseYaml('a:\n  b: [1, 2]\n  c: |\n    line one\n    {{x}} here\n', 'f.yaml');
    expect(map.locate(['a', 'b'], 'key')).toEqual({ line: 2, column: 3 });
    expect(map.locate(['a', 'b', 1])).toEqual({ line: 2, column: 10 });
    expect(map.locate(['a', 'zz', 'y'])).toEqual({ line: 1, column: 1 });
    expect(map.locateInString(['a', 'c'], 'line one\n'.length + 2)).toEqual({ line: 5, column: 7 });
    expect(map.keyOrder(['a'])).toEqual(['b', 'c']);
  });
});

describe('loadManifest', () => {
  it('reports a missing manifest as MG001 without throwing', async () => {
    const r = await loadManifest('test/fixtures/does-not-exist/mcp.manifest.yaml');
    expect(r.ir).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([['MG001', 'test/fixtures/does-not-exist/mcp.manifest.yaml', 1, 1]]);
  });

  it('publishes a server version that is not semver as written, with a warning (serverInfo.version is any string)', async () => {
    const r = await loadManifest('test/fixtures/invalid/bad-server-version/mcp.manifest.yaml');
    expect(r.ir?.server.version).toBe('v1');
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['MG202', 'warning']]);
  });
});

describe('the shipped manifest schema', () => {
  it('documents every property and forbids unknown keys on every object', () => {
    const problems: string[] = [];
    const walk = (s: unknown, at: string): void => {
      if (s === null || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      if (o.properties) {
        if (o.additionalProperties !== false) problems.push(`${at}: additionalProperties is not false`);
        for (const [k, v] of Object.entries(o.properties as Record<string, Record<string, unknown>>)) {
          if (!v.$ref && (!v.title || !v.description)) problems.push(`${at}.${k}: no title/description`);
          walk(v, `${at}.${k}`);
        }
      }
      for (const key of ['items', 'additionalProperties']) walk(o[key], `${at}.${key}`);
      for (const [k, v] of Object.entries((o.$defs ?? {}) as Record<string, unknown>)) walk(v, `$defs.${k}`);
    };
    walk(manifestSchema(), '#');
    expect(problems).toEqual([]);
  });
});

describe('docs/diagnostics.md', () => {
  it('lists every code', () => {
    const doc = readFileSync('docs/diagnostics.md', 'utf8');
    expect(Object.keys(CODES).filter((c) => !doc.includes(`\`${c}\``))).toEqual([]);
  });
});
