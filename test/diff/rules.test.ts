/**
 * Every named rule of `mcp-gen diff` (generator/diff/rules.ts) with its previous/current fixtures:
 * two contracts of one primitive, and the exact findings (severity, change, location) between them.
 * A rule without fixtures fails here, and so does a change no rule classifies unless it is breaking.
 */
import { describe, expect, it } from 'vitest';
import { hashOf } from '../../generator/contract/lock.js';
import { RULES, compareLocks, type Change, type Lock } from '../../generator/diff/index.js';
import type { ChangeKind } from '../../generator/diff/types.js';

type C = Record<string, unknown>;

const NO_CACHE = { ttlMs: 0, cacheScope: 'private' };
const BASE: Readonly<Record<ChangeKind, C>> = {
  tool: { inputSchema: { type: 'object', properties: {} }, sideEffect: 'read', scopes: [], idempotency: 'none', approval: 'none', annotations: { readOnlyHint: true, idempotentHint: true } },
  resource: { uri: 'notes://all', mimeType: 'application/json', scopes: [], list: false, subscribe: false, complete: [] },
  prompt: { arguments: [], scopes: [] },
  // `server`: the lock's `cacheHints`, method → hint.
  server: { 'server/discover': NO_CACHE, 'tools/list': NO_CACHE },
};
const SECTION = { tool: 'tools', resource: 'resources', prompt: 'prompts' } as const;

/** One fixture: a primitive's contract before and after (over its kind's base), and the findings. */
interface Fixture {
  readonly kind: ChangeKind;
  readonly previous: C;
  readonly current: C;
  /** `severity change location`, the location dotted from the lock section. */
  readonly findings: readonly string[];
}

const obj = (properties: C, required: string[] = []): C => ({ type: 'object', properties, required });
const arg = (name: string, required: boolean, extra: C = {}): C => ({ name, required, schema: { type: 'string' }, complete: false, ...extra });

const FIXTURES: Readonly<Record<string, readonly Fixture[]>> = {
  title: [{ kind: 'prompt', previous: { title: 'A' }, current: { title: 'B' }, findings: ['compatible title-changed prompts.p.title'] }],
  description: [{ kind: 'tool', previous: { description: 'a' }, current: {}, findings: ['compatible description-changed tools.p.description'] }],
  uri: [
    { kind: 'resource', previous: {}, current: { uri: 'notes://every' }, findings: ['breaking uri-changed resources.p.uri'] },
    { kind: 'resource', previous: { uri: undefined, uriTemplate: 'n://{id}' }, current: { uri: undefined, uriTemplate: 'n://x/{id}' }, findings: ['breaking uri-template-changed resources.p.uriTemplate'] },
  ],
  'mime-type': [{ kind: 'resource', previous: {}, current: { mimeType: 'text/plain' }, findings: ['breaking mime-type-changed resources.p.mimeType'] }],
  'input-schema': [
    { kind: 'tool', previous: { inputSchema: obj({}) }, current: { inputSchema: obj({ id: { type: 'string' } }, ['id']) }, findings: ['breaking required-property-added tools.p.input.id'] },
    { kind: 'tool', previous: { inputSchema: obj({}) }, current: { inputSchema: obj({ q: { type: 'string' } }) }, findings: ['compatible property-added tools.p.input.q'] },
  ],
  'output-schema': [
    { kind: 'tool', previous: { outputSchema: obj({ a: { type: 'string' } }) }, current: {}, findings: ['breaking output-schema-removed tools.p.output'] },
    { kind: 'tool', previous: {}, current: { outputSchema: obj({}) }, findings: ['compatible output-schema-added tools.p.output'] },
  ],
  'template-parameters': [
    {
      kind: 'resource',
      previous: { uri: undefined, uriTemplate: 'n://{id}', params: { id: { type: 'string' } } },
      current: { uri: undefined, uriTemplate: 'n://{id}', params: { id: { type: 'string', pattern: '^N-' } } },
      findings: ['breaking constraint-tightened resources.p.params.id'],
    },
  ],
  'content-schema': [
    { kind: 'resource', previous: { schema: obj({}) }, current: {}, findings: ['breaking content-schema-removed resources.p.schema'] },
    { kind: 'resource', previous: {}, current: { schema: obj({}) }, findings: ['compatible content-schema-added resources.p.schema'] },
  ],
  arguments: [
    { kind: 'prompt', previous: { arguments: [arg('a', false)] }, current: { arguments: [] }, findings: ['breaking argument-removed prompts.p.arguments.a'] },
    { kind: 'prompt', previous: { arguments: [] }, current: { arguments: [arg('b', true)] }, findings: ['breaking required-argument-added prompts.p.arguments.b'] },
    { kind: 'prompt', previous: { arguments: [arg('a', true)] }, current: { arguments: [arg('a', false, { description: 'x' })] }, findings: ['compatible argument-made-optional prompts.p.arguments.a', 'compatible argument-description-changed prompts.p.arguments.a.description'] },
  ],
  messages: [{ kind: 'prompt', previous: { messages: [{ role: 'user', text: 'a' }] }, current: { messages: [{ role: 'user', text: 'b' }] }, findings: ['compatible messages-changed prompts.p.messages'] }],
  'side-effect': [
    { kind: 'tool', previous: {}, current: { sideEffect: 'write' }, findings: ['breaking side-effect-raised tools.p.sideEffect'] },
    { kind: 'tool', previous: { sideEffect: 'irreversible' }, current: { sideEffect: 'write' }, findings: ['compatible side-effect-lowered tools.p.sideEffect'] },
  ],
  scopes: [{ kind: 'resource', previous: { scopes: ['a'] }, current: { scopes: ['b'] }, findings: ['breaking scope-added resources.p.scopes', 'compatible scope-removed resources.p.scopes'] }],
  idempotency: [
    { kind: 'tool', previous: {}, current: { idempotency: 'required' }, findings: ['breaking idempotency-required tools.p.idempotency'] },
    { kind: 'tool', previous: { idempotency: 'required' }, current: {}, findings: ['compatible idempotency-dropped tools.p.idempotency'] },
  ],
  approval: [{ kind: 'tool', previous: {}, current: { approval: 'required' }, findings: ['breaking approval-required tools.p.approval'] }],
  'tool-annotations': [
    { kind: 'tool', previous: {}, current: { annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true } }, findings: ['compatible open-world-changed tools.p.annotations.openWorldHint'] },
    // A hint that changes while sideEffect and idempotency stay the same: a derivation no rule explains.
    { kind: 'tool', previous: {}, current: { annotations: { readOnlyHint: false, idempotentHint: true } }, findings: ['breaking annotation-changed tools.p.annotations.readOnlyHint'] },
    // …and one that follows a side effect change is reported by the side-effect rule alone.
    { kind: 'tool', previous: {}, current: { sideEffect: 'write', annotations: { readOnlyHint: false, destructiveHint: false } }, findings: ['breaking side-effect-raised tools.p.sideEffect'] },
  ],
  timeout: [{ kind: 'tool', previous: {}, current: { timeoutMs: 500 }, findings: ['compatible timeout-changed tools.p.timeoutMs'] }],
  list: [
    { kind: 'resource', previous: { list: true }, current: {}, findings: ['breaking list-disabled resources.p.list'] },
    { kind: 'resource', previous: {}, current: { list: true }, findings: ['compatible list-enabled resources.p.list'] },
  ],
  subscribe: [{ kind: 'resource', previous: { subscribe: true }, current: {}, findings: ['breaking subscribe-disabled resources.p.subscribe'] }],
  completions: [
    { kind: 'resource', previous: { complete: ['id'] }, current: {}, findings: ['breaking completion-removed resources.p.complete'] },
    { kind: 'resource', previous: {}, current: { complete: ['id'] }, findings: ['compatible completion-added resources.p.complete'] },
  ],
  source: [{ kind: 'resource', previous: { sourceHash: 'sha256:a' }, current: { sourceHash: 'sha256:b' }, findings: ['compatible content-changed resources.p.source'] }],
  revision: [{ kind: 'resource', previous: { _meta: { revision: '1' } }, current: { _meta: { revision: '2' } }, findings: ['compatible revision-changed resources.p._meta'] }],
  'resource-annotations': [{ kind: 'resource', previous: {}, current: { annotations: { priority: 0.5 } }, findings: ['compatible annotations-changed resources.p.annotations'] }],
  outcome: [{ kind: 'tool', previous: {}, current: { outcome: 'The agent sees one ticket.' }, findings: ['compatible outcome-changed tools.p.outcome'] }],
  owner: [{ kind: 'prompt', previous: { owner: 'support' }, current: { owner: 'billing' }, findings: ['compatible owner-changed prompts.p.owner'] }],
  classification: [
    { kind: 'resource', previous: {}, current: { classification: 'confidential' }, findings: ['breaking classification-added resources.p.classification'] },
    { kind: 'resource', previous: {}, current: { classification: 'internal' }, findings: ['compatible classification-added resources.p.classification'] },
    { kind: 'resource', previous: { classification: 'internal' }, current: { classification: 'restricted' }, findings: ['breaking classification-raised resources.p.classification'] },
    { kind: 'resource', previous: { classification: 'restricted' }, current: { classification: 'public' }, findings: ['compatible classification-lowered resources.p.classification'] },
    { kind: 'resource', previous: { classification: 'public' }, current: {}, findings: ['compatible classification-removed resources.p.classification'] },
  ],
  audience: [
    { kind: 'resource', previous: { audience: ['agents'] }, current: { audience: ['agents', 'customers'] }, findings: ['compatible audience-widened resources.p.audience'] },
    { kind: 'resource', previous: { audience: ['agents', 'customers'] }, current: { audience: ['agents'] }, findings: ['breaking audience-narrowed resources.p.audience'] },
    { kind: 'resource', previous: {}, current: { audience: ['agents'] }, findings: ['breaking audience-narrowed resources.p.audience'] },
    { kind: 'resource', previous: { audience: ['agents'] }, current: {}, findings: ['compatible audience-widened resources.p.audience'] },
  ],
  'size-budget': [
    { kind: 'resource', previous: { maxBytes: 4096 }, current: { maxBytes: 1024 }, findings: ['breaking budget-lowered resources.p.maxBytes'] },
    { kind: 'resource', previous: {}, current: { maxBytes: 1024 }, findings: ['breaking budget-added resources.p.maxBytes'] },
    { kind: 'resource', previous: { maxBytes: 1024 }, current: { maxBytes: 4096 }, findings: ['compatible budget-raised resources.p.maxBytes'] },
    { kind: 'resource', previous: { maxBytes: 1024 }, current: {}, findings: ['compatible budget-removed resources.p.maxBytes'] },
  ],
  cache: [
    { kind: 'resource', previous: {}, current: { cache: { ttlMs: 60000, cacheScope: 'public' } }, findings: ['compatible cache-ttl-changed resources.p.cache.ttlMs', 'compatible cache-scope-widened resources.p.cache.cacheScope'] },
    { kind: 'resource', previous: { cache: { ttlMs: 60000, cacheScope: 'public' } }, current: { cache: { ttlMs: 60000, cacheScope: 'private' } }, findings: ['compatible cache-scope-narrowed resources.p.cache.cacheScope'] },
  ],
  'listing-cache': [
    {
      kind: 'server',
      previous: {},
      current: { 'server/discover': { ttlMs: 60000, cacheScope: 'public' }, 'tools/list': { ttlMs: 60000, cacheScope: 'private' } },
      findings: ['compatible listing-cache-ttl-changed cacheHints.server/discover.ttlMs', 'compatible listing-cache-scope-widened cacheHints.server/discover.cacheScope', 'compatible listing-cache-ttl-changed cacheHints.tools/list.ttlMs'],
    },
    { kind: 'server', previous: { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } }, current: { 'tools/list': { ttlMs: 60000, cacheScope: 'private' } }, findings: ['compatible listing-cache-scope-narrowed cacheHints.tools/list.cacheScope'] },
    // A method the server starts serving is compared with the protocol's default a client assumed.
    { kind: 'server', previous: {}, current: { 'prompts/list': { ttlMs: 30000, cacheScope: 'private' } }, findings: ['compatible listing-cache-ttl-changed cacheHints.prompts/list.ttlMs'] },
  ],
};

/** A lock holding one primitive `p` of a kind, or (`server`) no primitive and those listing cache hints. */
function lockOf(kind: ChangeKind, over: C): Lock {
  const contract = Object.fromEntries(Object.entries({ ...BASE[kind], ...over }).filter(([, v]) => v !== undefined));
  const empty = { tools: {}, resources: {}, prompts: {} };
  if (kind === 'server') return { lockVersion: 1, server: { name: 's' }, ...empty, cacheHints: contract };
  return { lockVersion: 1, ...empty, [SECTION[kind]]: { p: { hash: hashOf(contract), contract } } };
}

function findings(f: Pick<Fixture, 'kind' | 'previous' | 'current'>): string[] {
  const none = new Map<string, string>();
  const r = compareLocks(lockOf(f.kind, f.previous), lockOf(f.kind, f.current), { tool: none, resource: none, prompt: none });
  return [...r.breaking, ...r.compatible].map((c: Change) => `${c.severity} ${c.change} ${c.path}`);
}

describe('diff rules', () => {
  it('every rule has previous/current fixtures, and every fixture names a rule', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(RULES.map((r) => r.name).sort());
  });

  for (const rule of RULES) {
    describe(`${rule.name}: ${rule.summary}`, () => {
      FIXTURES[rule.name]?.forEach((f, i) => {
        it(`fixture ${i + 1} (${f.kind})`, () => {
          expect(findings(f)).toEqual(f.findings);
        });
      });
    });
  }

  it('reports a change that no rule classifies as breaking, at its location', () => {
    for (const kind of ['tool', 'resource', 'prompt'] as const) {
      const out = findings({ kind, previous: { icons: [{ src: 'a.png' }] }, current: { icons: [{ src: 'b.png' }] } });
      expect(out).toEqual([`breaking unclassified-change ${SECTION[kind]}.p.icons`]);
    }
  });

  it('names the server and says what a listing may now be cached as', () => {
    const none = new Map<string, string>();
    const r = compareLocks(lockOf('server', {}), lockOf('server', { 'tools/list': { ttlMs: 0, cacheScope: 'public' } }), { tool: none, resource: none, prompt: none });
    expect(r.compatible).toEqual([{ kind: 'server', name: 's', path: 'cacheHints.tools/list.cacheScope', change: 'listing-cache-scope-widened', severity: 'compatible', detail: 'tools/list results may now be cached public: shared caches may serve them to any caller' }]);
  });

  it('does not compare listing hints against a lock that predates them', () => {
    const none = new Map<string, string>();
    const { cacheHints: _, ...older } = lockOf('server', {});
    const r = compareLocks(older, lockOf('server', { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } }), { tool: none, resource: none, prompt: none });
    expect([...r.breaking, ...r.compatible]).toEqual([]);
  });

  it('reports a key one kind owns as unclassified in a kind whose rules do not own it', () => {
    expect(findings({ kind: 'prompt', previous: {}, current: { mimeType: 'text/plain' } })).toEqual(['breaking unclassified-change prompts.p.mimeType']);
  });
});
