/**
 * YAML aliases (manifest/aliases.ts): a manifest with aliases reads as the same manifest written out in
 * full, whichever parser reads it and however many times an anchor is named; a cycle and an expansion past
 * the budget are located errors (MG004, see the fixtures `yaml-alias-cycle` and `yaml-alias-expansion`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { ALIAS_BUDGET, sharingOf, unshare } from '../../generator/manifest/aliases.js';
import { parseYaml, parseYamlWithPositions } from '../../generator/manifest/load.js';
import { analyseManifest } from '../../generator/pipeline.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** True when some object of `value` is reached twice. */
function shares(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (seen.has(value)) return true;
  seen.add(value);
  return Object.values(value).some((v) => shares(v, seen));
}

/**
 * `tools` tools whose inputs are one anchored schema of `properties` properties, each described by one
 * anchored string: `yaml`'s own limit counted every alias of the schema times the aliases inside it.
 */
function nested(tools: number, properties: number): string {
  const props = Array.from({ length: properties }, (_, i) => `        p${i}: { type: string, maxLength: 10, description: ${i === 0 ? '&d "An item field."' : '*d'} }`).join('\n');
  const entries = Array.from({ length: tools }, (_, i) => `  shop.tool_${i}:\n    description: Looks up item ${i}.\n    sideEffect: read\n    input: ${i === 0 ? `&q\n      type: object\n      additionalProperties: false\n      properties:\n${props}` : '*q'}`).join('\n');
  return `mcpgen: 1\nserver:\n  name: aliases\n  version: 1.0.0\ntools:\n${entries}\n`;
}

describe('YAML aliases', () => {
  it('read as the text written out in full, by both parsers, with no object shared', () => {
    const text = nested(30, 40);
    const full = YAML.parse(text, { maxAliasCount: -1 }) as unknown;
    const written = YAML.stringify(full, { aliasDuplicateObjects: false });
    expect(written).not.toMatch(/[&*][a-z]/);
    const quick = parseYaml(text, 'm.yaml');
    const slow = parseYamlWithPositions(text, 'm.yaml');
    expect(quick.diagnostics).toEqual([]);
    expect(slow.diagnostics).toEqual([]);
    expect(quick.value).toEqual(parseYaml(written, 'm.yaml').value);
    expect(slow.value).toEqual(quick.value);
    expect(shares(quick.value)).toBe(false);
    expect(shares(slow.value)).toBe(false);
    // Changing one tool's copy changes no other tool.
    const tools = (quick.value as { tools: Record<string, { input: { type: string } }> }).tools;
    tools['shop.tool_3']!.input.type = 'array';
    expect(tools['shop.tool_4']!.input.type).toBe('object');
  });

  // 30 aliases of a schema holding 40 aliases: `yaml`'s limit (1,000 per anchor, times the aliases inside)
  // threw at the 26th tool, which ended the run as an internal error.
  it('analyse a manifest whose anchors are named past yaml\'s own alias limit, as if written out', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-aliases-'));
    roots.push(root);
    const text = nested(30, 40);
    writeFileSync(join(root, 'aliased.yaml'), text);
    writeFileSync(join(root, 'written.yaml'), YAML.stringify(YAML.parse(text, { maxAliasCount: -1 }), { aliasDuplicateObjects: false }));
    const aliased = await analyseManifest(join(root, 'aliased.yaml'));
    const written = await analyseManifest(join(root, 'written.yaml'));
    expect(aliased.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(aliased.ir?.tools).toHaveLength(30);
    // The same contract and findings, but where the texts differ: positions.
    const placeless = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (k === 'location' ? undefined : x));
    expect(placeless(aliased.contract)).toBe(placeless(written.contract));
    expect(aliased.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual(written.diagnostics.map((d) => [d.code, d.path, d.message]));
  });

  it('analyse 1,200 tools that yaml.stringify wrote with one anchor for their shared objects', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-aliases-'));
    roots.push(root);
    const input = { type: 'object', properties: { id: { type: 'string', maxLength: 20 } }, required: ['id'], additionalProperties: false };
    const scopes = ['items:read'];
    const tools = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`get_thing_${i}`, { description: `Looks up thing ${i} by id.`, sideEffect: 'read', scopes, input }]));
    const text = YAML.stringify({ mcpgen: 1, server: { name: 'shared', version: '1.0.0', scopes: { 'items:read': 'Read items' } }, tools });
    expect(text.match(/\*a2/g)).toHaveLength(1199);
    writeFileSync(join(root, 'mcp.manifest.yaml'), text);
    const a = await analyseManifest(join(root, 'mcp.manifest.yaml'));
    expect(a.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(a.ir?.tools).toHaveLength(1200);
  });

  it('keep the entries that name an anchor while it is unchanged, and see a change to the anchor in every entry naming it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-aliases-'));
    roots.push(root);
    const file = join(root, 'mcp.manifest.yaml');
    const text = (scope: string, described: string) => `mcpgen: 1\nserver:\n  name: aliases\n  version: 1.0.0\n  scopes: { items:read: Read, items:write: Write }\ntools:\n${
      Array.from({ length: 12 }, (_, i) => `  shop.tool_${i}:\n    description: ${i === 5 ? described : `Looks up item ${i}.`}\n    sideEffect: read\n    scopes: ${i === 0 ? `&s [${scope}]` : '*s'}\n`).join('')}`;
    let cache = new GenerationCache('test');
    const run = async () => {
      cache = GenerationCache.parse(cache.serialize(), 'test');
      const computed: string[] = [];
      const fragment = cache.fragment.bind(cache);
      // The records of the tools' entries computed this run (an entry naming the anchor is keyed by its own text and the anchor's).
      cache.fragment = <T>(key: string, compute: () => T): T => fragment(key, () => (key.startsWith('front-entry\0') && key.includes('\0tools\0') && computed.push(key), compute()));
      const a = await analyseManifest(file, { cache });
      expect(a.diagnostics).toEqual((await analyseManifest(file)).diagnostics);
      return { scopes: a.ir?.tools.map((t) => t.scopes.join()), computed: computed.length };
    };
    writeFileSync(file, text('items:read', 'Looks up item 5.'));
    expect((await run()).computed).toBe(12);
    // One entry edited: the others, aliases included, are kept.
    writeFileSync(file, text('items:read', 'Looks up item 5, by id.'));
    expect(await run()).toEqual({ scopes: Array(12).fill('items:read'), computed: 1 });
    // The anchor changed: every entry naming it is computed again, though its text is the same.
    writeFileSync(file, text('items:write', 'Looks up item 5, by id.'));
    expect(await run()).toEqual({ scopes: Array(12).fill('items:write'), computed: 12 });
  });

  it('are measured in time linear in the text, whatever they expand to', () => {
    // 40 levels, each naming the one before twice: 2^41 - 1 values written out, of which 42 are written once
    // (the 40 arrays and the two strings of the innermost).
    let value: unknown = 'x';
    for (let i = 0; i < 40; i++) value = [value, value];
    const sharing = sharingOf(value);
    expect(sharing).toEqual({ kind: 'shared', added: 2 ** 41 - 1 - 42 });
    expect(sharing.kind === 'shared' && sharing.added > ALIAS_BUDGET).toBe(true);
    expect(sharingOf({ a: [1, { b: 2 }], c: 'd' })).toEqual({ kind: 'tree' });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = [cyclic];
    expect(sharingOf(cyclic)).toEqual({ kind: 'cycle' });
  });

  it('are copied, so that the copy equals the value and shares nothing', () => {
    const leaf = { x: [1, 2] };
    const value = { a: leaf, b: [leaf, leaf], c: null };
    const copy = unshare(value);
    expect(copy).toEqual(value);
    expect(shares(copy)).toBe(false);
    expect(sharingOf(copy)).toEqual({ kind: 'tree' });
  });
});
