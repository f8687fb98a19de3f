/**
 * Positions found by parsing one piece of a manifest (`SourcePiece`) are the positions the whole-text
 * parse gives: checked for every key and value, and for characters inside strings, of the example
 * manifests, a synthetic 300-primitive one and hand-made texts the cut must refuse or get right.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseYamlWithPositions } from '../../generator/manifest/load.js';
import { lazySourceMap, type ManifestPath } from '../../generator/manifest/source-map.js';
import { cutManifest } from '../../generator/manifest/yaml-chunks.js';
import { entryKeyAt } from '../../generator/lint/located.js';
// @ts-expect-error the benchmark's generator is plain JavaScript
import { manifestYaml } from '../../bench/synth.mjs';

/** Every path of a value, with a missing child of each mapping, and string paths with their lengths. */
function paths(value: unknown, at: ManifestPath = []): { path: ManifestPath; text?: string }[] {
  const out: { path: ManifestPath; text?: string }[] = [{ path: at, ...(typeof value === 'string' ? { text: value } : {}) }];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value !== null && typeof value === 'object') {
    out.push({ path: [...at, 'no-such-key'] }, { path: [...at, 'no-such-key', 'deeper'] });
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  }
  return out;
}

function comparePieceWithWhole(text: string): number {
  const keys = [0, 0];
  const whole = parseYamlWithPositions(text, 'm.yaml').map;
  const value = load(text);
  const pieced = lazySourceMap(text, value, () => whole);
  let compared = 0;
  for (const { path, text: s } of paths(value)) {
    for (const at of ['key', 'value'] as const) expect(pieced.locate(path, at), `${JSON.stringify(path)} ${at}`).toEqual(whole.locate(path, at));
    if (s !== undefined) {
      for (const i of new Set([0, 1, Math.floor(s.length / 2), s.length - 1, s.length])) {
        expect(pieced.locateInString(path, i), `${JSON.stringify(path)} [${i}]`).toEqual(whole.locateInString(path, i));
      }
    }
    // An entry's or a section's own key is found without parsing (lint/located.ts `entryKeyAt`): where the whole parse puts it.
    const piece = path.length === 1 || path.length === 2 ? pieced.pieceOf?.(path) : undefined;
    const key = piece && entryKeyAt(piece, { path, at: 'key' });
    if (key) {
      expect({ line: key.line, column: key.column }, `${JSON.stringify(path)} piece key`).toEqual(whole.locate(path, 'key'));
      expect(key.sourceLine).toBe(whole.lineText(key.line));
      keys[path.length - 1]!++;
    }
    compared++;
  }
  // Section keys and entry keys both.
  expect(keys[0]).toBeGreaterThan(0);
  expect(keys[1]).toBeGreaterThan(0);
  return compared;
}

const examples = readdirSync('manifests').map((d) => join('manifests', d, 'mcp.manifest.yaml'));

describe('positions from one piece of the manifest', () => {
  it.each(examples)('equal the whole parse on %s', (file) => {
    expect(comparePieceWithWhole(readFileSync(file, 'utf8'))).toBeGreaterThan(50);
  });

  it('equal the whole parse on a synthetic 300-primitive manifest', () => {
    expect(comparePieceWithWhole(manifestYaml(300) as string)).toBeGreaterThan(3000);
  });

  it.each([
    ['opens with a key', ''],
    ['opens with a comment', '# saved with a byte-order mark\n'],
    ['opens with a start marker', '---\n'],
  ])('equal the whole parse on a manifest that starts with a byte-order mark and %s', (_name, head) => {
    const text = `\uFEFF${head}${manifestYaml(20) as string}`;
    expect(cutManifest(text)).toBeDefined();
    const map = lazySourceMap(text, load(text), () => parseYamlWithPositions(text, 'm.yaml').map);
    expect(map.pieceOf?.(['mcpgen'])?.locate(['mcpgen'], 'value')).toBeDefined();
    expect(comparePieceWithWhole(text)).toBeGreaterThan(200);
  });

  it.each([
    ['minified (one line)', (v: unknown) => JSON.stringify(v)],
    ['minified, with a byte-order mark', (v: unknown) => `\uFEFF${JSON.stringify(v)}`],
    ['with members sharing lines', (v: unknown) => JSON.stringify(v, null, 1).replace(/,\n */g, ', ').replace(/\{\n */g, '{ ')],
    ['with some members on lines of their own and tabs', (v: unknown) => JSON.stringify(v, null, '\t').replace(/,\n\t\t"/g, ', "')],
  ])('equal the whole parse on a synthetic manifest written as JSON %s', (_name, write) => {
    const text = write(load(manifestYaml(60) as string));
    const pieces = cutManifest(text);
    expect(pieces?.find((p) => p.key === 'tools')?.entries?.length).toBeGreaterThan(10);
    expect(pieces?.some((p) => p.columns !== undefined)).toBe(true);
    expect(comparePieceWithWhole(text)).toBeGreaterThan(500);
  });

  it('equal the whole parse on a text with a carriage return alone, where YAML breaks a line', () => {
    const yaml = manifestYaml(10) as string;
    const min = JSON.stringify(load(yaml));
    const pretty = JSON.stringify(load(yaml), null, 2);
    const texts = [
      min.replace(/,"tools":/, ',\r"tools":'), min.replace(/"description":"([^"]*)"/, '"description":"$1\rmore"'), `${min}\r`,
      pretty.replace(/,\n( {2}"tools")/, ',\r$1'), pretty.replace(/"description": "([^"]*)"/, '"description": "$1\r  more"'),
      yaml.replace(/\n(tools:)/, '\n# c\r# d\n$1'), yaml.replace(/description: "([^"]*)"/, 'description: "$1\r      more"'),
    ];
    for (const text of texts) {
      const whole = parseYamlWithPositions(text, 'm.json').map;
      const value = load(text);
      const pieced = lazySourceMap(text, value, () => whole);
      for (const { path } of paths(value)) expect(pieced.locate(path), JSON.stringify(path)).toEqual(whole.locate(path));
    }
  });

  it('equal the whole parse around comments, block scalars, folded and quoted strings', () => {
    const text = [
      '# leading comment',
      'server:',
      '  name: x # trailing',
      'tools:',
      '  # a comment before the first entry',
      '  a.b:',
      '    description: |',
      '      Line one.',
      '',
      '      Line three, after a blank line.',
      '    title: >-',
      '      folded',
      '      text',
      '  # between entries',
      '  c_d:',
      '    description: "escaped \\" quote and \\u00e9"',
      "    title: 'it''s'",
      '    input: {"type": "object",',
      '      "properties": {}}',
      '',
      'prompts:',
      '  p:',
      '    messages:',
      '      - role: user',
      '        text: plain',
      '          continued',
      '',
    ].join('\n');
    expect(comparePieceWithWhole(text)).toBeGreaterThan(20);
  });

  it('equal the whole parse around tabs in strings, block scalars, comments and after a colon', () => {
    const text = [
      'server:',
      '  name:\tx\t# a tab before the comment',
      'tools:',
      '  a.b:',
      '    description: |',
      '      make:',
      '      \t$(CC) -o out main.c',
      '',
      '      \tdone',
      '  c_d:',
      '    description: "a\ttab and \\t an escaped one"',
      "    title: 'col\tumns'",
      '    input: {"type": "object"}',
      '  \t# a comment after a tab',
      '',
    ].join('\n');
    expect(cutManifest(text)?.find((p) => p.key === 'tools')?.entries).toHaveLength(2);
    // Each entry answers by itself, without the whole parse.
    const map = lazySourceMap(text, load(text), () => parseYamlWithPositions(text, 'm.yaml').map);
    for (const name of ['a.b', 'c_d']) expect(map.pieceOf?.(['tools', name])?.locate(['tools', name, 'description'], 'value'), name).toBeDefined();
    expect(comparePieceWithWhole(text)).toBeGreaterThan(15);
  });

  it('equal the whole parse on entries named in other scripts', () => {
    const text = (manifestYaml(20) as string).replace(/^prompts:$/m, 'prompts:\n  résumé:\n    description: "Résumé de la semaine"\n  要約:\n    description: 週の要約 # 注\n');
    expect(cutManifest(text)?.find((p) => p.key === 'prompts')?.entries?.slice(0, 2).map((e) => e.key)).toEqual(['résumé', '要約']);
    expect(comparePieceWithWhole(text)).toBeGreaterThan(200);
  });

  it('equal the whole parse on entries named with spaces and punctuation, as resources and prompts may be', () => {
    const text = (manifestYaml(20) as string).replace(/^resources:$/m, "resources:\n  Refund policy (2026):\n    uri: shop://policies/refunds\n    mimeType: text/markdown\n  Q&A, it's here:\n    uri: shop://faq # the questions\n    mimeType: text/markdown\n");
    expect(cutManifest(text)?.find((p) => p.key === 'resources')?.entries?.slice(0, 2).map((e) => e.key)).toEqual(['Refund policy (2026)', "Q&A, it's here"]);
    expect(comparePieceWithWhole(text)).toBeGreaterThan(200);
  });

  it('equal the whole parse on a synthetic manifest whose sections have comments after their heads', () => {
    const text = (manifestYaml(30) as string).replace(/^(schemas|tools|resources|prompts):$/gm, '$1:   # the $1 of the catalog');
    expect(cutManifest(text)?.filter((p) => p.entries !== undefined).map((p) => p.key)).toEqual(['schemas', 'tools', 'resources', 'prompts']);
    expect(comparePieceWithWhole(text)).toBeGreaterThan(300);
  });

  it('equal the whole parse on a synthetic manifest whose keys are all quoted', () => {
    // As some YAML writers leave them: every key in double quotes, and some entries in single quotes.
    const quoted = (manifestYaml(60) as string).replace(/^( *)([A-Za-z_][A-Za-z0-9_./-]*):(?= |$)/gm, (_, pad: string, k: string) => (pad.length === 2 && k.endsWith('1') ? `${pad}'${k}':` : `${pad}"${k}":`));
    expect(quoted).toContain('\n"tools":\n');
    const map = lazySourceMap(quoted, load(quoted), () => parseYamlWithPositions(quoted, 'm.yaml').map);
    expect(map.pieceOf?.(['tools', Object.keys((load(quoted) as { tools: object }).tools)[0]!])?.path).toHaveLength(2);
    expect(comparePieceWithWhole(quoted)).toBeGreaterThan(600);
  });

  it.each([[2, '\n'], [4, '\r\n'], ['\t', '\n']] as const)('equal the whole parse on a synthetic manifest written as JSON (indent %j)', (indent, eol) => {
    const json = `${JSON.stringify(load(manifestYaml(40) as string), null, indent)}\n`.replace(/\n/g, eol);
    const map = lazySourceMap(json, load(json), () => parseYamlWithPositions(json, 'm.json').map);
    const tool = Object.keys((load(json) as { tools: object }).tools)[0]!;
    const piece = map.pieceOf?.(['tools', tool]);
    expect(piece?.path).toHaveLength(2);
    // The piece answers by itself, without the whole parse.
    expect(piece?.locate(['tools', tool, 'description'], 'value')).toBeDefined();
    expect(comparePieceWithWhole(json)).toBeGreaterThan(400);
  });

  it('equal the whole parse on a synthetic manifest between document markers', () => {
    const marked = `# generated\n%YAML 1.2\n---\n${manifestYaml(40) as string}...\n# end\n`;
    const map = lazySourceMap(marked, load(marked), () => parseYamlWithPositions(marked, 'm.yaml').map);
    expect(map.pieceOf?.(['tools', Object.keys((load(marked) as { tools: object }).tools)[0]!])?.path).toHaveLength(2);
    expect(comparePieceWithWhole(marked)).toBeGreaterThan(400);
  });

  it('do not cut a text with a tab for indentation, another directive, a second document or an odd key', () => {
    // A line indented with a tab is never an entry of its own: the text or its section is read whole.
    for (const text of ['tools:\n\ta: 1\n', 'tools:\n  \ta: 1\n', 'tools:\n  x: 1\n\ta: 1\n', 'tools:\n  x: 1\n  \ta: 1\n']) {
      const piece = lazySourceMap(text, {}, () => parseYamlWithPositions(text, 'm.yaml').map).pieceOf?.(['tools', 'a']);
      expect(piece === undefined || piece.path.length === 1, JSON.stringify(text)).toBe(true);
    }
    const texts = ['%YAML 1.1\n---\ntools:\n  a: 1\n', '%TAG !e! tag:x,2000:\n---\ntools:\n  a: 1\n', '--- {tools: {a: 1}}\n', '---\ntools:\n  a: 1\n---\nx: 1\n', 'tools:\n  a: 1\n...\nx: 1\n', '"to\\u006fls":\n  a: 1\n', "'to''ols':\n  a: 1\n", '"tools" :\n  a: 1\n', 'tools:\n  "a b": {}\n  c: 1\n'];
    for (const text of texts) {
      const map = lazySourceMap(text, {}, () => parseYamlWithPositions(text, 'm.yaml').map);
      const piece = map.pieceOf?.(['tools', 'a']);
      expect(piece === undefined || piece.path.length === 1 || piece.text.startsWith('  a:')).toBe(true);
      if (!text.startsWith('tools:\n  "a b"')) expect(piece, JSON.stringify(text)).toBeUndefined();
    }
  });

  it('agree with the whole parse on an alias to another piece, and fall back to it when a piece does not read alone', () => {
    const alias = 'schemas:\n  A: &a {"type": "string"}\n  B: *a\n';
    const aliasWhole = parseYamlWithPositions(alias, 'm.yaml').map;
    expect(lazySourceMap(alias, {}, () => aliasWhole).locate(['schemas', 'B'])).toEqual(aliasWhole.locate(['schemas', 'B']));
    const text = 'tools:\n  a:\n    x: 1\n    x: 2\n  b:\n    y: 1\n';
    const whole = parseYamlWithPositions(text, 'm.yaml').map;
    const map = lazySourceMap(text, {}, () => whole);
    expect(map.pieceOf?.(['tools', 'a', 'x'])?.locate(['tools', 'a', 'x'])).toBeUndefined();
    expect(map.locate(['tools', 'a', 'x'])).toEqual(whole.locate(['tools', 'a', 'x']));
    expect(map.pieceOf?.(['tools', 'b', 'y'])?.locate(['tools', 'b', 'y'])).toEqual(whole.locate(['tools', 'b', 'y']));
  });
});
