/**
 * One test per classification rule of `mcp-gen diff`: two small lock objects,
 * compared in memory, with the exact changes asserted.
 */
import { describe, expect, it } from 'vitest';
import { compareLocks, type Change, type Lock, type Renames } from '../../generator/diff/index.js';
import { hashOf } from '../../generator/contract/lock.js';

type C = Record<string, unknown>;

const NO_RENAMES: Renames = { tool: new Map(), resource: new Map(), prompt: new Map() };

const obj = (properties: C, required: string[] = []): C => ({ type: 'object', properties, required, additionalProperties: false });

const tool = (over: C = {}): C => ({
  inputSchema: obj({}),
  sideEffect: 'read',
  scopes: [],
  idempotency: 'none',
  approval: 'none',
  annotations: { readOnlyHint: true, idempotentHint: true },
  ...over,
});
const resource = (over: C = {}): C => ({ uri: 'notes://all', mimeType: 'application/json', scopes: [], list: false, subscribe: false, complete: [], ...over });
const prompt = (over: C = {}): C => ({ arguments: [], scopes: [], ...over });

const section = (m: Record<string, C> = {}) => Object.fromEntries(Object.entries(m).map(([n, c]) => [n, { hash: hashOf(c), contract: c }]));
const lock = (s: { tools?: Record<string, C>; resources?: Record<string, C>; prompts?: Record<string, C> }): Lock => ({
  lockVersion: 1,
  tools: section(s.tools),
  resources: section(s.resources),
  prompts: section(s.prompts),
});

/** The changes as `severity change path` strings, for exact assertions. */
function diff(before: Parameters<typeof lock>[0], after: Parameters<typeof lock>[0], renames: Renames = NO_RENAMES): string[] {
  const r = compareLocks(lock(before), lock(after), renames);
  const line = (c: Change) => `${c.severity} ${c.change} ${c.path}`;
  return [...r.breaking.map(line), ...r.compatible.map(line)];
}

const tools = (over: C) => ({ tools: { t: tool(over) } });

describe('breaking changes', () => {
  it('primitive removed', () => {
    expect(diff({ tools: { a: tool(), b: tool() } }, { tools: { a: tool() } })).toEqual(['breaking removed tools.b']);
    expect(diff({ prompts: { p: prompt() } }, {})).toEqual(['breaking removed prompts.p']);
  });

  it('primitive renamed with renamedFrom: one rename, not a removal plus an addition', () => {
    const renames: Renames = { ...NO_RENAMES, tool: new Map([['notes.fetch', 'notes.get']]) };
    expect(diff({ tools: { 'notes.get': tool() } }, { tools: { 'notes.fetch': tool() } }, renames)).toEqual(['breaking renamed tools.notes.fetch']);
    // …and the renamed primitive's contract is still compared with its old one.
    const changed = diff({ tools: { 'notes.get': tool() } }, { tools: { 'notes.fetch': tool({ description: 'x' }) } }, renames);
    expect(changed).toEqual(['breaking renamed tools.notes.fetch', 'compatible description-changed tools.notes.fetch.description']);
  });

  it('new required input property', () => {
    expect(diff(tools({ inputSchema: obj({}) }), tools({ inputSchema: obj({ id: { type: 'string' } }, ['id']) }))).toEqual([
      'breaking required-property-added tools.t.input.id',
    ]);
  });

  it('existing input property made required', () => {
    expect(diff(tools({ inputSchema: obj({ id: { type: 'string' } }) }), tools({ inputSchema: obj({ id: { type: 'string' } }, ['id']) }))).toEqual([
      'breaking made-required tools.t.input.id',
    ]);
  });

  it('prompt argument made required, and a new required prompt argument', () => {
    const arg = (name: string, required: boolean) => ({ name, required, schema: { type: 'string' }, complete: false });
    expect(diff({ prompts: { p: prompt({ arguments: [arg('a', false)] }) } }, { prompts: { p: prompt({ arguments: [arg('a', true)] }) } })).toEqual([
      'breaking argument-made-required prompts.p.arguments.a',
    ]);
    expect(diff({ prompts: { p: prompt() } }, { prompts: { p: prompt({ arguments: [arg('b', true)] }) } })).toEqual([
      'breaking required-argument-added prompts.p.arguments.b',
    ]);
  });

  it('input property removed', () => {
    expect(diff(tools({ inputSchema: obj({ labels: { type: 'array' } }) }), tools({ inputSchema: obj({}) }))).toEqual([
      'breaking property-removed tools.t.input.labels',
    ]);
  });

  it('input property type changed, and narrowed to an enum', () => {
    expect(diff(tools({ inputSchema: obj({ n: { type: 'string' } }) }), tools({ inputSchema: obj({ n: { type: 'integer' } }) }))).toEqual([
      'breaking type-changed tools.t.input.n',
    ]);
    expect(diff(tools({ inputSchema: obj({ n: { type: ['string', 'null'] } }) }), tools({ inputSchema: obj({ n: { type: 'string' } }) }))).toEqual([
      'breaking type-narrowed tools.t.input.n',
    ]);
    expect(diff(tools({ inputSchema: obj({ s: { type: 'string' } }) }), tools({ inputSchema: obj({ s: { type: 'string', enum: ['a', 'b'] } }) }))).toEqual([
      'breaking enum-added tools.t.input.s',
    ]);
  });

  it('enum value removed, in input and in output schemas', () => {
    const e = (...v: string[]) => obj({ s: { enum: v } });
    expect(diff(tools({ inputSchema: e('a', 'b') }), tools({ inputSchema: e('a') }))).toEqual(['breaking enum-value-removed tools.t.input.s']);
    expect(diff(tools({ outputSchema: e('a', 'b') }), tools({ outputSchema: e('a') }))).toEqual(['breaking enum-value-removed tools.t.output.s']);
  });

  it('output property removed, or made optional', () => {
    const out = (props: C, req: string[]) => tools({ outputSchema: obj(props, req) });
    expect(diff(out({ a: { type: 'string' }, b: { type: 'string' } }, ['a']), out({ a: { type: 'string' } }, ['a']))).toEqual([
      'breaking property-removed tools.t.output.b',
    ]);
    expect(diff(out({ a: { type: 'string' } }, ['a']), out({ a: { type: 'string' } }, []))).toEqual(['breaking made-optional tools.t.output.a']);
  });

  it('nested properties and array items are walked, with dotted paths', () => {
    const repo = (owner: C) => obj({ repo: obj({ owner, name: { type: 'string' } }, ['owner']) }, ['repo']);
    const r = compareLocks(lock({ tools: { 'issues.create': tool({ inputSchema: repo({ type: 'string' }) }) } }),
      lock({ tools: { 'issues.create': tool({ inputSchema: repo({ type: 'integer' }) }) } }), NO_RENAMES);
    expect(r.breaking).toEqual([{
      kind: 'tool', name: 'issues.create', path: 'tools.issues.create.input.repo.owner', change: 'type-changed', severity: 'breaking',
      detail: 'input property repo.owner type changed from string to integer',
    }]);
    const items = (v: string[]) => obj({ labels: { type: 'array', items: { enum: v } } });
    expect(diff(tools({ inputSchema: items(['bug', 'docs']) }), tools({ inputSchema: items(['bug']) }))).toEqual([
      'breaking enum-value-removed tools.t.input.labels[]',
    ]);
  });

  it('URI or URI template changed', () => {
    expect(diff({ resources: { r: resource() } }, { resources: { r: resource({ uri: 'notes://every' }) } })).toEqual(['breaking uri-changed resources.r.uri']);
    const t = (uriTemplate: string) => ({ resources: { r: resource({ uri: undefined, uriTemplate }) } });
    expect(diff(t('notes://{id}'), t('notes://n/{id}'))).toEqual(['breaking uri-template-changed resources.r.uriTemplate']);
  });

  it('template parameter narrowed', () => {
    const t = (id: C) => ({ resources: { r: resource({ uri: undefined, uriTemplate: 'notes://{id}', params: { id } }) } });
    expect(diff(t({ type: 'string' }), t({ type: 'string', pattern: '^N-[0-9]+$' }))).toEqual(['breaking constraint-tightened resources.r.params.id']);
  });

  it('MIME type changed', () => {
    expect(diff({ resources: { r: resource() } }, { resources: { r: resource({ mimeType: 'text/plain' }) } })).toEqual([
      'breaking mime-type-changed resources.r.mimeType',
    ]);
  });

  it('side effect raised read → write → irreversible', () => {
    expect(diff(tools({ sideEffect: 'read' }), tools({ sideEffect: 'write' }))).toEqual(['breaking side-effect-raised tools.t.sideEffect']);
    expect(diff(tools({ sideEffect: 'write' }), tools({ sideEffect: 'irreversible' }))).toEqual(['breaking side-effect-raised tools.t.sideEffect']);
  });

  it('new scope required', () => {
    expect(diff(tools({ scopes: ['a'] }), tools({ scopes: ['a', 'b'] }))).toEqual(['breaking scope-added tools.t.scopes']);
    expect(diff({ prompts: { p: prompt() } }, { prompts: { p: prompt({ scopes: ['a'] }) } })).toEqual(['breaking scope-added prompts.p.scopes']);
  });

  it('idempotency or approval newly required', () => {
    expect(diff(tools({}), tools({ idempotency: 'required' }))).toEqual(['breaking idempotency-required tools.t.idempotency']);
    expect(diff(tools({}), tools({ approval: 'required' }))).toEqual(['breaking approval-required tools.t.approval']);
    expect(diff(tools({ idempotency: 'natural' }), tools({ idempotency: 'required' }))).toEqual(['breaking idempotency-required tools.t.idempotency']);
  });
});

describe('compatible changes', () => {
  it('idempotency by nature declared or withdrawn, or a key replaced by it (no key is asked of callers)', () => {
    expect(diff(tools({}), tools({ idempotency: 'natural' }))).toEqual(['compatible idempotency-changed tools.t.idempotency']);
    expect(diff(tools({ idempotency: 'required' }), tools({ idempotency: 'natural' }))).toEqual(['compatible idempotency-dropped tools.t.idempotency']);
  });
  it('new primitive', () => {
    expect(diff({}, { tools: { t: tool() }, resources: { r: resource() }, prompts: { p: prompt() } })).toEqual([
      'compatible added tools.t', 'compatible added resources.r', 'compatible added prompts.p',
    ]);
  });

  it('new optional input property and new optional prompt argument', () => {
    expect(diff(tools({ inputSchema: obj({}) }), tools({ inputSchema: obj({ q: { type: 'string' } }) }))).toEqual([
      'compatible property-added tools.t.input.q',
    ]);
    const arg = { name: 'a', required: false, schema: { type: 'string' }, complete: false };
    expect(diff({ prompts: { p: prompt() } }, { prompts: { p: prompt({ arguments: [arg] }) } })).toEqual(['compatible argument-added prompts.p.arguments.a']);
  });

  it('description and title changes, at the primitive and inside schemas', () => {
    expect(diff(tools({ title: 'A', description: 'a' }), tools({ title: 'B', description: 'b' }))).toEqual([
      'compatible title-changed tools.t.title', 'compatible description-changed tools.t.description',
    ]);
    expect(diff(tools({ inputSchema: obj({ q: { type: 'string', description: 'x' } }) }), tools({ inputSchema: obj({ q: { type: 'string', description: 'y' } }) }))).toEqual([
      'compatible description-changed tools.t.input.q',
    ]);
  });

  it('enum value added', () => {
    const e = (...v: string[]) => obj({ s: { enum: v } });
    expect(diff(tools({ inputSchema: e('a') }), tools({ inputSchema: e('a', 'b') }))).toEqual(['compatible enum-value-added tools.t.input.s']);
  });

  it('side effect lowered', () => {
    expect(diff(tools({ sideEffect: 'irreversible' }), tools({ sideEffect: 'write' }))).toEqual(['compatible side-effect-lowered tools.t.sideEffect']);
  });

  it('scope removed', () => {
    expect(diff(tools({ scopes: ['a', 'b'] }), tools({ scopes: ['a'] }))).toEqual(['compatible scope-removed tools.t.scopes']);
  });

  it('input property made optional, output property added or made required', () => {
    expect(diff(tools({ inputSchema: obj({ q: { type: 'string' } }, ['q']) }), tools({ inputSchema: obj({ q: { type: 'string' } }) }))).toEqual([
      'compatible made-optional tools.t.input.q',
    ]);
    expect(diff(tools({ outputSchema: obj({ a: { type: 'string' } }) }), tools({ outputSchema: obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a']) }))).toEqual([
      'compatible made-required tools.t.output.a', 'compatible property-added tools.t.output.b',
    ]);
  });
});

describe('edge cases', () => {
  it('equal locks give no changes', () => {
    const s = { tools: { t: tool({ outputSchema: obj({ a: { type: 'string' } }) }) }, resources: { r: resource() }, prompts: { p: prompt() } };
    expect(diff(s, s)).toEqual([]);
  });

  it('recursive schemas under $defs are compared without looping', () => {
    const tree = (labelType: string) => ({
      $ref: '#/$defs/Tree',
      $defs: { Tree: { type: 'object', properties: { label: { type: labelType }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
    expect(diff(tools({ outputSchema: tree('string') }), tools({ outputSchema: tree('integer') }))).toEqual(['breaking type-changed tools.t.output.label']);
  });
});
