/**
 * Lint through the incremental cache finds what it finds without it: on random sequences of edits that
 * change lint results (a description gaining a side-effect verb, a tool description repeating a
 * resource's, a prompt naming an irreversible tool, waivers added and removed, `lint.rules` and the
 * budget changed, patterns, entries moved by lines above them), every diagnostic — code, message,
 * file, line, column, source line, order — is the same with a cache carried from the previous runs
 * (in memory or through its file) as with none.
 */
import * as fc from 'fast-check';
import { dump } from 'js-yaml';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import type { Diagnostic } from '../../generator/diagnostics.js';
import { analyseManifest } from '../../generator/pipeline.js';

interface Tool {
  readonly id: number;
  readonly effect: 'read' | 'write' | 'irreversible';
  readonly words: string;
  readonly pattern?: string;
  readonly waive?: string;
  readonly owner: boolean;
}

interface Model {
  readonly tools: readonly Tool[];
  readonly guide: string;
  readonly promptText: string;
  readonly rules: Readonly<Record<string, string>>;
  readonly budget: number;
  /** Comment lines above `tools:`: every entry below moves. */
  readonly shift: number;
  readonly next: number;
}

const LONG = 'Every order ships within two working days from the central warehouse, tracked, and insured up to its full value.';
const WORDS = ['', 'Not for bulk exports (use the export tool).', 'Sends an email to the customer.', 'Deletes the draft.', LONG, 'Read only; nothing changes.'];
const PATTERNS = ['^[a-z ]*$', '^(a+)+$', '^(?=x)[a-z]+$'];
const CODES = ['MG708', 'MG718', 'MG728', 'MG729', 'MG706', 'MG713'];

function toolEntry(t: Tool): [string, object] {
  const write = t.effect !== 'read';
  return [`shop.tool_${t.id}`, {
    title: `Tool ${t.id}`,
    description: `${write ? 'Change' : 'Look up'} one item of collection ${t.id}. ${t.words}`.trim(),
    sideEffect: t.effect,
    ...(write ? { idempotency: 'required' } : {}),
    ...(t.effect === 'irreversible' ? { approval: 'required' } : {}),
    ...(t.owner ? { owner: 'catalog team' } : {}),
    input: { type: 'object', properties: { itemId: { $ref: '#/schemas/ItemId' }, phrase: { type: 'string', ...(t.pattern !== undefined ? { pattern: t.pattern, maxLength: 40 } : {}) } }, required: ['itemId'], additionalProperties: false },
    ...(t.waive !== undefined ? { lint: { disable: { [t.waive]: t.waive === 'MG729' ? '' : 'reviewed by the catalog team' } } } : {}),
  }];
}

/**
 * The manifest as block YAML, or as minified JSON (one line: every entry is a piece cut at offsets, and a
 * shift moves the tools along the line rather than down).
 */
function manifest(m: Model, minified = false): string {
  const value = {
    mcpgen: 1,
    server: { name: 'lint-shop', version: '1.0.0', description: 'A shop for the incremental lint test.', scopes: { 'items:read': 'Read items' } },
    lint: { rules: m.rules, budget: { contextBudgetTokens: m.budget } },
    schemas: { ItemId: { type: 'string', pattern: '^I-[0-9]{1,12}$', maxLength: 20 } },
    tools: Object.fromEntries(m.tools.map(toolEntry)),
    resources: { guide: { uri: 'shop://guides/current', title: 'Guide', description: m.guide, mimeType: 'text/markdown' } },
    prompts: { review_item: { title: 'Review item', description: 'Review one item before publishing.', arguments: { itemId: { description: 'Item to review', required: true } }, messages: [{ role: 'user', text: m.promptText }] } },
  };
  if (minified) return JSON.stringify(value).replace(/,"tools":/, `,${' '.repeat(m.shift * 7)}"tools":`);
  const text = dump(value, { lineWidth: -1, noRefs: true });
  return text.replace(/^tools:\n/m, `${'# moved\n'.repeat(m.shift)}tools:\n`);
}

type Edit =
  | { readonly kind: 'words'; readonly at: number; readonly words: string }
  | { readonly kind: 'effect'; readonly at: number; readonly effect: Tool['effect'] }
  | { readonly kind: 'pattern'; readonly at: number; readonly pattern: string | undefined }
  | { readonly kind: 'waive'; readonly at: number; readonly code: string | undefined }
  | { readonly kind: 'owner'; readonly at: number }
  | { readonly kind: 'add' }
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'guide'; readonly words: string }
  | { readonly kind: 'prompt'; readonly of: number | undefined; readonly words: string }
  | { readonly kind: 'rule'; readonly code: string; readonly level: string | undefined }
  | { readonly kind: 'budget'; readonly tokens: number }
  | { readonly kind: 'shift'; readonly lines: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('words' as const), at: fc.nat(), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('effect' as const), at: fc.nat(), effect: fc.constantFrom('read' as const, 'write' as const, 'irreversible' as const) }),
  fc.record({ kind: fc.constant('pattern' as const), at: fc.nat(), pattern: fc.option(fc.constantFrom(...PATTERNS), { nil: undefined }) }),
  fc.record({ kind: fc.constant('waive' as const), at: fc.nat(), code: fc.option(fc.constantFrom(...CODES), { nil: undefined }) }),
  fc.record({ kind: fc.constant('owner' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('guide' as const), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('prompt' as const), of: fc.option(fc.nat(), { nil: undefined }), words: fc.constantFrom(...WORDS) }),
  fc.record({ kind: fc.constant('rule' as const), code: fc.constantFrom(...CODES), level: fc.option(fc.constantFrom('off', 'error', 'warning', 'hint'), { nil: undefined }) }),
  fc.record({ kind: fc.constant('budget' as const), tokens: fc.constantFrom(100, 100_000) }),
  fc.record({ kind: fc.constant('shift' as const), lines: fc.nat(3) }),
);

function apply(m: Model, e: Edit): Model {
  const at = 'at' in e ? e.at % m.tools.length : 0;
  const replace = (f: (t: Tool) => Tool) => m.tools.map((t, i) => (i === at ? f(t) : t));
  switch (e.kind) {
    case 'words':
      return { ...m, tools: replace((t) => ({ ...t, words: e.words })) };
    case 'effect':
      return { ...m, tools: replace((t) => ({ ...t, effect: e.effect })) };
    case 'pattern':
      return { ...m, tools: replace(({ pattern: _, ...t }) => ({ ...t, ...(e.pattern !== undefined ? { pattern: e.pattern } : {}) })) };
    case 'waive':
      return { ...m, tools: replace(({ waive: _, ...t }) => ({ ...t, ...(e.code !== undefined ? { waive: e.code } : {}) })) };
    case 'owner':
      return { ...m, tools: replace((t) => ({ ...t, owner: !t.owner })) };
    case 'add':
      return { ...m, tools: [...m.tools, { id: m.next, effect: 'read', words: '', owner: false }], next: m.next + 1 };
    case 'remove':
      return m.tools.length > 1 ? { ...m, tools: m.tools.filter((_, i) => i !== at) } : m;
    case 'guide':
      return { ...m, guide: `How to use the shop. ${e.words}` };
    case 'prompt': {
      const named = e.of === undefined ? '' : ` Then call shop.tool_${m.tools[e.of % m.tools.length]!.id}.`;
      return { ...m, promptText: `Review item {{itemId}}.${named} ${e.words}`.trim() };
    }
    case 'rule': {
      const { [e.code]: _, ...rest } = m.rules;
      return { ...m, rules: e.level === undefined ? rest : { ...rest, [e.code]: e.level } };
    }
    case 'budget':
      return { ...m, budget: e.tokens };
    case 'shift':
      return { ...m, shift: e.lines };
  }
}

/** Every field a diagnostic shows, in order: reading them locates positions that were left pending. */
function shown(diagnostics: readonly Diagnostic[]): unknown[] {
  return diagnostics.map((d) => ({ ...d }));
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Applies `steps` to a shop with `tools`, analysing after each with the cache carried by `carry` and
 * without it, and expecting the same diagnostics; returns whether each run found `code`.
 */
async function stepped(tools: Tool[], steps: readonly Edit[], code: string, carry: (cache: GenerationCache) => GenerationCache): Promise<boolean[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-inclint-'));
  dirs.push(dir);
  const file = join(dir, 'mcp.manifest.yaml');
  let model: Model = { tools, guide: 'How to use the shop.', promptText: 'Review item {{itemId}}.', rules: {}, budget: 100_000, shift: 0, next: tools.length };
  let cache = new GenerationCache('test');
  const found: boolean[] = [];
  for (const e of [{ kind: 'budget', tokens: 100_000 } as Edit, ...steps]) {
    model = apply(model, e);
    writeFileSync(file, manifest(model));
    const cached = await analyseManifest(file, { cache });
    const fresh = await analyseManifest(file);
    expect(shown(cached.diagnostics)).toEqual(shown(fresh.diagnostics));
    found.push(fresh.diagnostics.some((d) => d.code === code));
    cache = carry(cache);
  }
  return found;
}

describe('lint with the incremental cache', () => {
  it('finds exactly what a run without the cache finds, across random edits', async () => {
    const start: Model = {
      tools: Array.from({ length: 4 }, (_, i): Tool => ({ id: i, effect: (['read', 'write', 'irreversible'] as const)[i % 3]!, words: '', owner: i % 2 === 0 })),
      guide: 'How to use the shop.', promptText: 'Review item {{itemId}}.', rules: {}, budget: 100_000, shift: 0, next: 4,
    };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(edit, fc.boolean()), { minLength: 1, maxLength: 8 }), fc.boolean(), async (steps, minified) => {
        const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-inclint-'));
        dirs.push(dir);
        const file = join(dir, minified ? 'mcp.manifest.json' : 'mcp.manifest.yaml');
        let model = start;
        let cache = new GenerationCache('test');
        let seen = 0;
        for (const [e, throughFile] of [[{ kind: 'add' } as Edit, false] as const, ...steps]) {
          model = apply(model, e);
          writeFileSync(file, manifest(model, minified));
          const cached = await analyseManifest(file, { cache });
          const fresh = await analyseManifest(file);
          expect(shown(cached.diagnostics)).toEqual(shown(fresh.diagnostics));
          seen += fresh.diagnostics.length;
          cache = throughFile ? GenerationCache.parse(cache.serialize(), 'test') : cache.carryOver();
        }
        expect(seen).toBeGreaterThan(0);
      }),
      { numRuns: 30 },
    );
  }, 240_000);

  it('finds MG714 again when the tools a kept prompt names change side effect, are renamed or removed', async () => {
    // The prompt's text stays as it is from the second step on: only what it names changes.
    const found = await stepped(
      [{ id: 0, effect: 'irreversible', words: '', owner: true }, { id: 1, effect: 'read', words: '', owner: true }],
      [
        { kind: 'prompt', of: 0, words: '' }, { kind: 'effect', at: 0, effect: 'read' }, { kind: 'effect', at: 0, effect: 'irreversible' },
        { kind: 'effect', at: 1, effect: 'irreversible' }, { kind: 'effect', at: 0, effect: 'write' }, { kind: 'remove', at: 0 }, { kind: 'add' },
      ],
      'MG714', (cache) => GenerationCache.parse(cache.serialize(), 'test'),
    );
    expect(found).toEqual([false, true, false, true, true, false, false, false]);
  });

  it('reports, once a rule is on again, what it finds on primitives edited while it was off', async () => {
    const found = await stepped(
      [{ id: 0, effect: 'read', words: '', owner: true }, { id: 1, effect: 'read', words: '', owner: true }],
      [{ kind: 'rule', code: 'MG706', level: 'off' }, { kind: 'words', at: 0, words: 'Sends an email to the customer.' }, { kind: 'rule', code: 'MG706', level: undefined }],
      'MG706', (cache) => cache.carryOver(),
    );
    expect(found.at(-1)).toBe(true);
  });

  it('reuses the findings and positions of unchanged primitives, and recomputes an edited one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-inclint-'));
    dirs.push(dir);
    const file = join(dir, 'mcp.manifest.yaml');
    const model: Model = {
      tools: [{ id: 0, effect: 'read', words: '', owner: false }, { id: 1, effect: 'read', words: '', owner: false }],
      guide: 'How to use the shop.', promptText: 'Review item {{itemId}}.', rules: {}, budget: 100_000, shift: 0, next: 2,
    };
    writeFileSync(file, manifest(model));
    const first = new GenerationCache('test');
    await analyseManifest(file, { cache: first });
    writeFileSync(file, manifest(apply(model, { kind: 'words', at: 1, words: 'Sends an email to the customer.' })));
    const second = first.carryOver();
    const after = await analyseManifest(file, { cache: second });
    // The edited tool now says it sends: a read tool with a write verb (MG706) only it can report.
    expect(after.diagnostics.filter((d) => d.code === 'MG706').map((d) => d.path)).toEqual(['tools.shop.tool_1.description']);
    const fresh = await analyseManifest(file);
    expect(shown(after.diagnostics)).toEqual(shown(fresh.diagnostics));
  });
  it('keeps a reused primitive\'s remembered verdicts for the next run, so editing it later finds them cached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-inclint-'));
    dirs.push(dir);
    const file = join(dir, 'mcp.manifest.yaml');
    const model: Model = {
      tools: [{ id: 0, effect: 'read', words: '', pattern: '^(a+)+$', owner: false }, { id: 1, effect: 'read', words: '', owner: false }],
      guide: 'How to use the shop.', promptText: 'Review item {{itemId}}.', rules: {}, budget: 100_000, shift: 0, next: 2,
    };
    // Each run's cache is the file the last one left: what a run did not keep is gone.
    const throughDisk = (c: GenerationCache) => GenerationCache.parse(c.serialize(), 'test');
    const verdict = 'lint-remember\u0000MG725\u0000^(a+)+$';
    writeFileSync(file, manifest(model));
    const first = new GenerationCache('test');
    await analyseManifest(file, { cache: first });
    expect(throughDisk(first).holdsFragment(verdict)).toBe(true);
    // Tool 1 changes: tool 0's findings are reused, its rules do not run, and its pattern's verdict stays.
    writeFileSync(file, manifest(apply(model, { kind: 'words', at: 1, words: 'Sends an email to the customer.' })));
    const second = throughDisk(first);
    const after = await analyseManifest(file, { cache: second });
    expect(after.diagnostics.filter((d) => d.code === 'MG725').map((d) => d.path)).toEqual(['tools.shop.tool_0.input.properties.phrase.pattern']);
    expect(throughDisk(second).holdsFragment(verdict)).toBe(true);
  });
});
