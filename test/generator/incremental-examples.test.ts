/**
 * Incremental generation on the example manifests, which hold what the synthetic model of
 * `incremental.test.ts` does not: resource templates, served files, schema files, prompts that embed
 * resources, scenarios, waivers, comments and block scalars. Random edits, through `yaml`'s document (which
 * leaves every other entry's text as it was) or on the text itself (which keeps the author's layout, and may
 * open it with a byte-order mark), must leave a folder regenerated with the cache byte for byte what a run
 * without it writes, with the same outcome and notes, whether the edit is valid or not.
 */
import * as fc from 'fast-check';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML, { isMap, type Document } from 'yaml';
import { GenerationCache } from '../../generator/cache.js';
import { generate } from '../../generator/pipeline.js';
import { outcome } from '../helpers/outcome.js';
import { contentsOf, snapshotTree } from '../helpers/tree.js';

const EXAMPLES = ['clinic', 'code-host', 'conformance', 'support-desk'] as const;
const SECTIONS = ['tools', 'resources', 'prompts'] as const;

/** Texts that need escaping somewhere along the way: YAML, TypeScript, Markdown, JSON, templates. */
const WORDS = ["it's \"quoted\"", 'a: colon', '# hash', 'ünïcødé ✓', 'back\\slash', '${x}', '`tick`', '*/ end', 'line\nbreak', '</script>', '{{handlebars}}', '  padded  '];

const DOC_KINDS = ['description', 'title', 'delete', 'move', 'copy', 'property', 'version'] as const;
const TEXT_KINDS = ['comment', 'blank', 'append', 'tab', 'mark'] as const;
type DocEdit = { readonly kind: (typeof DOC_KINDS)[number]; readonly at: number; readonly word: number };
type TextEdit = { readonly kind: (typeof TEXT_KINDS)[number]; readonly at: number; readonly word: number };
type Step = { readonly doc: DocEdit } | { readonly text: TextEdit };

const index = fc.nat({ max: 10_000 });
const docEdit: fc.Arbitrary<DocEdit> = fc.record({ kind: fc.constantFrom(...DOC_KINDS), at: index, word: index });
const textEdit: fc.Arbitrary<TextEdit> = fc.record({ kind: fc.constantFrom(...TEXT_KINDS), at: index, word: index });
const step: fc.Arbitrary<Step> = fc.oneof(docEdit.map((doc) => ({ doc })), textEdit.map((text) => ({ text })));

/** Applies `e` to the document: one entry of one section changed, removed, moved to the end or copied under a new key. */
function applyDoc(doc: Document, e: DocEdit): void {
  const sections = SECTIONS.filter((s) => (doc.get(s) as { items?: unknown[] } | undefined)?.items?.length);
  if (e.kind === 'version') {
    doc.setIn(['server', 'version'], `1.${e.word % 100}.0`);
    return;
  }
  const section = sections[e.at % sections.length]!;
  const map = doc.get(section) as YAML.YAMLMap<YAML.Scalar<string>, YAML.YAMLMap>;
  const pair = map.items[e.at % map.items.length]!;
  const key = String(pair.key.value ?? pair.key);
  const word = WORDS[e.word % WORDS.length]!;
  const entry = pair.value!;
  switch (e.kind) {
    case 'description':
    case 'title':
      entry.set(e.kind, `${String(entry.get(e.kind) ?? '')} ${word}`.trim());
      return;
    case 'delete':
      map.delete(pair.key);
      return;
    case 'move':
      map.delete(pair.key);
      map.set(pair.key, entry);
      return;
    case 'copy': {
      const copy = entry.clone() as YAML.YAMLMap;
      copy.delete('renamedFrom');
      // A resource's URI or template must not repeat another's: the copy's gets a path segment of its own.
      for (const field of ['uri', 'uriTemplate']) {
        const uri = copy.get(field);
        if (typeof uri === 'string') copy.set(field, uri.replace(/^([a-z][a-z0-9+.-]*:(?:\/\/)?)/, `$1copy${e.word}/`));
      }
      doc.setIn([section, `${key}_copy${e.word}`], copy);
      return;
    }
    case 'property': {
      const properties = doc.getIn([section, key, section === 'prompts' ? 'arguments' : 'input', 'properties']);
      if (!isMap(properties) || properties.items.length === 0) return;
      const prop = properties.items[e.word % properties.items.length]!;
      if (isMap(prop.value)) prop.value.set('description', `Edited: ${word}`);
    }
  }
}

/**
 * Applies `e` to the text: a comment or a blank line at some line, words (after a space or a tab) at the end
 * of a plain description, or a byte-order mark put at its head or taken away (as some editors save UTF-8).
 */
function applyText(text: string, e: TextEdit): string {
  if (e.kind === 'mark') return text.startsWith('\uFEFF') ? text.slice(1) : `\uFEFF${text}`;
  const lines = text.split('\n');
  const at = e.at % lines.length;
  if (e.kind === 'comment') lines.splice(at, 0, `${' '.repeat(e.word % 7)}# note ${e.word}`);
  else if (e.kind === 'blank') lines.splice(at, 0, '');
  else {
    const plain = lines.flatMap((line, i) => (/^\s+description: [^\s|>'"&*!%@`#[{]/.test(line) && !line.includes(' #') ? [i] : []));
    if (plain.length === 0) return text;
    const i = plain[e.at % plain.length]!;
    lines[i] = e.kind === 'tab' ? `${lines[i]}\tcolumn ${e.word}` : `${lines[i]} and more ${e.word}`;
  }
  return lines.join('\n');
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('incremental generation on the example manifests', () => {
  it.each(EXAMPLES)('writes exactly what a run without the cache writes after random edits of %s', { timeout: 300_000 }, async (example) => {
    let outcomes = 0;
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 5 }), async (steps) => {
        const root = mkdtempSync(join(tmpdir(), `mcp-gen-examples-${example}-`));
        roots.push(root);
        cpSync(join('manifests', example), root, { recursive: true });
        writeFileSync(join(root, 'package.json'), '{ "private": true }\n');
        const file = join(root, 'mcp.manifest.yaml');
        const cached = join(root, 'cached');
        const plain = join(root, 'plain');
        let cache = new GenerationCache('test');
        expect(await outcome(() => generate(file, { cwd: root, outDir: cached, cache }))).toBe('ok');
        expect(await outcome(() => generate(file, { cwd: root, outDir: plain }))).toBe('ok');
        for (const s of steps) {
          const before = readFileSync(file, 'utf8');
          let after: string;
          if ('doc' in s) {
            const doc = YAML.parseDocument(before);
            applyDoc(doc, s.doc);
            after = doc.toString({ lineWidth: 0 });
          } else after = applyText(before, s.text);
          writeFileSync(file, after);
          cache = GenerationCache.parse(cache.serialize(), 'test');
          const a = await outcome(() => generate(file, { cwd: root, outDir: cached, cache }));
          const b = await outcome(() => generate(file, { cwd: root, outDir: plain }));
          expect(a).toBe(b);
          expect(contentsOf(await snapshotTree(cached))).toEqual(contentsOf(await snapshotTree(plain)));
          outcomes++;
          if (a.startsWith('ok')) valid++;
          // An edit that made the manifest invalid is taken back, so that later edits work on a valid one.
          else writeFileSync(file, before);
        }
        rmSync(root, { recursive: true, force: true });
      }),
      {
        numRuns: 3,
        seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 4242),
        // Always among the cases: every kind of edit once, whatever the seed draws.
        examples: [[[...DOC_KINDS.map((kind, i) => ({ doc: { kind, at: i * 7, word: i } })), ...TEXT_KINDS.map((kind, i) => ({ text: { kind, at: i * 11, word: i } }))]]],
      },
    );
    // The edits reached the generator, and most of them gave a valid manifest.
    expect(valid).toBeGreaterThan(outcomes / 2);
  });

  it('renames a handler\'s import when another primitive of its identifier comes or goes', { timeout: 120_000 }, async () => {
    // Tool `getPet` and resource `getPet` share an identifier: each is imported under a name of its kind.
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-examples-collide-'));
    roots.push(root);
    cpSync(join('test', 'fixtures', 'golden', 'imported-shop'), root, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{ "private": true }\n');
    const file = join(root, 'mcp.manifest.yaml');
    const both = readFileSync(file, 'utf8');
    const doc = YAML.parseDocument(both);
    doc.deleteIn(['tools', 'getPet']);
    const resourceOnly = doc.toString({ lineWidth: 0 });
    let cache = new GenerationCache('test');
    const index = (dir: string) => readFileSync(join(root, dir, 'handlers.gen.ts'), 'utf8');
    for (const text of [both, resourceOnly, both]) {
      writeFileSync(file, text);
      cache = GenerationCache.parse(cache.serialize(), 'test');
      // Without the tool, its handler file stays (and a note says so), in both folders alike.
      const a = await outcome(() => generate(file, { cwd: root, outDir: join(root, 'cached'), cache }));
      expect(a).toBe(await outcome(() => generate(file, { cwd: root, outDir: join(root, 'plain') })));
      expect(a.startsWith('ok')).toBe(true);
      expect(contentsOf(await snapshotTree(join(root, 'cached')))).toEqual(contentsOf(await snapshotTree(join(root, 'plain'))));
      expect(index('cached')).toContain(text === both ? "import { getPet as getPetResource } from './handlers/resources/getPet.js';" : "import { getPet } from './handlers/resources/getPet.js';");
    }
  });
});
