/** The importer's decisions on hand-made catalogs: inference, annotation blocks, collisions and what it reports. */
import { describe, expect, it } from 'vitest';
import { buildServerDraft } from '../../generator/import/server/build.js';
import { annotationsBlock, inferSideEffect } from '../../generator/import/server/tools.js';
import { diffCatalogs, formatDifference, isInexpressible } from '../../generator/remote/compare.js';
import type { Catalog } from '../../generator/remote/catalog.js';

const catalog = (over: Partial<Catalog>): Catalog => ({ serverInfo: { name: 'Demo API', version: '1.0.0' }, capabilities: {}, tools: [], resources: [], resourceTemplates: [], prompts: [], ...over });
const input = { type: 'object', properties: {} };

describe('side effects from hints', () => {
  it('applies the specification defaults to absent hints', () => {
    expect(inferSideEffect(undefined)).toMatchObject({ sideEffect: 'irreversible' });
    expect(inferSideEffect({ readOnlyHint: true })).toMatchObject({ sideEffect: 'read' });
    expect(inferSideEffect({ readOnlyHint: false, destructiveHint: false })).toMatchObject({ sideEffect: 'write' });
    expect(inferSideEffect({ destructiveHint: false, idempotentHint: true })).toMatchObject({ sideEffect: 'write', idempotency: 'natural' });
    expect(inferSideEffect({ readOnlyHint: false }).reason).toContain('destructiveHint absent (default true)');
  });

  it('writes only the hints that differ from the derivation, and ~ for derived ones not published', () => {
    expect(annotationsBlock({ readOnlyHint: true, openWorldHint: false }, inferSideEffect({ readOnlyHint: true })).block).toEqual({ idempotentHint: null, openWorldHint: false });
    expect(annotationsBlock({ readOnlyHint: false, destructiveHint: false, idempotentHint: false }, inferSideEffect({ readOnlyHint: false, destructiveHint: false, idempotentHint: false })).block).toEqual({ idempotentHint: false });
    expect(annotationsBlock({ title: 'Echo', readOnlyHint: true, idempotentHint: true }, inferSideEffect({ readOnlyHint: true })).block).toEqual({ title: 'Echo' });
    expect(annotationsBlock({ readOnlyHint: true, custom: 1 }, inferSideEffect({ readOnlyHint: true })).unknown).toEqual(['custom']);
  });
});

describe('drafts', () => {
  it('reports what it cannot express instead of dropping it silently', () => {
    const draft = buildServerDraft(catalog({
      capabilities: { tools: {}, tasks: {} },
      tools: [
        { name: 'get-sum', inputSchema: input, execution: { taskSupport: 'forbidden' } },
        { name: 'get_sum', inputSchema: input },
        { name: 'no-type', inputSchema: { properties: {} } },
      ],
      resources: [{ name: 'Raw', uri: 'x://raw' }],
      prompts: [{ name: 'p', arguments: [{ name: 'bad-name' }, { name: 'ok' }] }],
    }));
    expect(draft.inexpressible.map((i) => i.at)).toEqual([
      'capabilities.tasks',
      'tools.get-sum.execution',
      'tools.get_sum',
      'tools.no-type',
      'resources.Raw',
      'prompts.p.arguments.bad-name',
      'prompts.p.arguments.ok.required',
    ]);
    expect(Object.keys(draft.manifest['tools'] as object)).toEqual(['get-sum']);
  });

  it('declares listChanged, kinds without primitives and completions under server.capabilities', () => {
    const draft = buildServerDraft(catalog({ capabilities: { tools: { listChanged: true }, prompts: {}, completions: {}, logging: {} }, tools: [{ name: 't', inputSchema: input, annotations: { readOnlyHint: true } }] }));
    expect(draft.manifest['server']).toMatchObject({ name: 'Demo API', logging: true });
    // `prompts: {}` publishes no listChanged, which is not the manifest's default (false): written `~`.
    expect((draft.manifest['server'] as { capabilities: unknown }).capabilities).toEqual({ tools: { listChanged: true }, prompts: { listChanged: null }, completions: true });
  });

  it('keeps an explicit subscribe: false and an absent listChanged apart from false', () => {
    const draft = buildServerDraft(catalog({ capabilities: { tools: {}, resources: { subscribe: false, listChanged: false } }, tools: [{ name: 't', inputSchema: input, annotations: { readOnlyHint: true } }] }));
    expect((draft.manifest['server'] as { capabilities: unknown }).capabilities).toEqual({ tools: { listChanged: null }, resources: { subscribe: false } });
  });

  it('leaves out every derived hint of a tool that publishes none, and reports an explicitly empty annotations object', () => {
    const draft = buildServerDraft(catalog({ tools: [{ name: 'plain', inputSchema: input }, { name: 'empty', inputSchema: input, annotations: {} }] }));
    const tools = draft.manifest['tools'] as Record<string, { annotations?: unknown }>;
    expect(tools['plain']!.annotations).toEqual({ readOnlyHint: null, destructiveHint: null });
    expect(draft.inexpressible.map((i) => i.at)).toEqual(['tools.empty.annotations']);
  });

  it('moves a large schema into its own file and refers to it', () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(20) }])) };
    const draft = buildServerDraft(catalog({ tools: [{ name: 'files.big', inputSchema: big }] }));
    expect((draft.manifest['tools'] as Record<string, { input: unknown }>)['files.big']!.input).toEqual({ $ref: './schemas/filesBig.input.schema.json' });
    expect(JSON.parse(draft.files.get('schemas/filesBig.input.schema.json')!)).toEqual(big);
  });

  it('waives the blocking findings it is given, with the import reason', () => {
    const draft = buildServerDraft(catalog({ tools: [{ name: 'w', inputSchema: input }] }), { waive: new Map([['tools.w', ['MG703', 'MG704']]]) });
    expect((draft.manifest['tools'] as Record<string, { lint: unknown }>)['w']!.lint).toEqual({ disable: { MG703: 'imported: existing contract', MG704: 'imported: existing contract' } });
  });
});

describe('catalog comparison', () => {
  it('ignores key order, names the differing field, and tells inexpressible extras apart', () => {
    const a = catalog({ tools: [{ name: 't', title: 'T', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }] });
    const b = catalog({ tools: [{ inputSchema: { properties: { a: { type: 'string' } }, type: 'object' }, title: 'T2', name: 't', execution: {} }] });
    const diffs = diffCatalogs(a, b);
    expect(diffs.map(formatDifference)).toEqual(['tools["t"].title: expected "T", found "T2"', 'tools["t"].execution: expected (absent), found {}']);
    expect(diffs.map(isInexpressible)).toEqual([false, true]);
  });
});
