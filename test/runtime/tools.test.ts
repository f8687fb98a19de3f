import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERAS, connect, createServer, seen } from './fixture.js';

type Conn = Awaited<ReturnType<typeof connect>>;
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('\n');

describe.each(ERAS)('tools ($era era)', ({ era, mode }) => {
  let conn: Conn;
  beforeEach(async () => {
    conn = await connect(mode);
  });
  afterEach(() => conn.close());

  it('serves the negotiated era', () => {
    expect(conn.client.getProtocolEra()).toBe(era);
  });

  it('returns structured output with a JSON text block', async () => {
    const r = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234' } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ id: 'T-1234', status: 'open' });
    expect(JSON.parse(text(r))).toEqual({ id: 'T-1234', status: 'open' });
  });

  it('names the offending field of invalid input', async () => {
    const bad = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Input validation error: Invalid arguments for tool tickets.get: /ticketId must match pattern "^T-[0-9]{4,}$"');
    const missing = await conn.client.callTool({ name: 'tickets.get', arguments: {} });
    expect(text(missing)).toContain("(root) must have required property 'ticketId'");
    const extra = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234', extra: 1 } });
    expect(text(extra)).toContain('/extra is not allowed (additional property)');
  });

  it('validates recursive $defs schemas', async () => {
    const ok = await conn.client.callTool({ name: 'tree', arguments: { tree: { name: 'a', children: [{ name: 'b' }] } } });
    expect(ok.isError).toBeFalsy();
    const bad = await conn.client.callTool({ name: 'tree', arguments: { tree: { name: 'a', children: [{ nom: 'b' }] } } });
    expect(text(bad)).toContain("/tree/children/0 must have required property 'name'");
  });

  it('turns an output-schema violation into isError', async () => {
    const r = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-0422' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Output validation error/);
  });

  it('maps ToolError to isError with its message', async () => {
    const r = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-0404' } });
    expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Ticket T-0404 does not exist.' }] });
  });

  it('hides unexpected errors and reports them to onError', async () => {
    const reported: unknown[] = [];
    const own = await connect(mode, () => createServer({ onError: (error, source) => reported.push([String(error), source]) }));
    try {
      const r = await own.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-0500' } });
      expect(r.isError).toBe(true);
      expect(text(r)).toBe('Internal error in tool tickets.get.');
      expect(JSON.stringify(r)).not.toMatch(/hunter2|secret|\.ts|at /);
      expect(reported).toEqual([['Error: db password=hunter2 at /srv/app/secret.ts:12', { kind: 'tool', name: 'tickets.get' }]]);
    } finally {
      await own.close();
    }
  });

  it('times out without waiting for the handler, aborting its signal', async () => {
    const started = Date.now();
    const r = await conn.client.callTool({ name: 'slow', arguments: {} });
    expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool slow timed out after 50 ms.' }] });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen.aborted).toContain('slow');
  });

  it('reports stubs as not implemented', async () => {
    const r = await conn.client.callTool({ name: 'stub', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Not implemented: tool stub/);
  });

  it('maps strings and content arrays for tools without output', async () => {
    expect(text(await conn.client.callTool({ name: 'echo', arguments: { a: 1 } }))).toBe('echo {"a":1}');
    expect((await conn.client.callTool({ name: 'blocks', arguments: {} })).content).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]);
  });

  it('reports progress only when asked, and exposes principal and scopes', async () => {
    const own = await connect(mode, (ctx) => createServer({ era: ctx.era, principal: 'alice', scopes: ['tickets:read'] }));
    try {
      const seenProgress: unknown[] = [];
      const r = await own.client.callTool({ name: 'progress', arguments: {} }, { onprogress: (p) => seenProgress.push(p) });
      expect(r.structuredContent).toEqual({ principal: 'alice', scopes: ['tickets:read'], primitive: { kind: 'tool', name: 'progress' } });
      expect(seenProgress).toEqual([{ progress: 1, total: 2, message: 'half' }, { progress: 2, total: 2 }]);
      expect((await own.client.callTool({ name: 'progress', arguments: {} })).isError).toBeFalsy();
    } finally {
      await own.close();
    }
  });

  it('returns non-object output as the SDK publishes it for the era', async () => {
    const r = await conn.client.callTool({ name: 'list', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(era === 'legacy' ? { result: [1, 2, 3] } : [1, 2, 3]);
  });
});
