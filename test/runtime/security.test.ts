import { describe, expect, it } from 'vitest';
import { sha256Of, type AuditEvent } from '../../generator/runtime/index.js';
import { ERAS, connect, createServer } from './fixture.js';

const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('\n');

describe.each(ERAS)('gates ($era era)', ({ mode }) => {
  it('checks scopes before validation and audits every outcome', async () => {
    const events: AuditEvent[] = [];
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, scopes: [], principal: 'p1', tenant: 't1', audit: (e) => void events.push(e), stderr: { write: () => true } }));
    try {
      const r = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 42 } });
      expect(text(r)).toMatch(/^Forbidden: tool tickets.get requires scope tickets:read/);
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('tickets.get');
      await expect(conn.client.readResource({ uri: 'support://tickets/T-1234' })).rejects.toMatchObject({ code: -32602 });
      const ok = await conn.client.callTool({ name: 'echo', arguments: { a: 1 } });
      expect(ok.isError).toBeFalsy();
      expect(events.map((e) => [e.kind, e.name, e.outcome, e.principal, e.tenant])).toEqual([
        ['tool', 'tickets.get', 'forbidden', 'p1', 't1'],
        ['resource', 'ticket', 'forbidden', 'p1', 't1'],
        ['tool', 'echo', 'ok', 'p1', 't1'],
      ]);
      expect(events[2]?.argsSha256).toBe(sha256Of({ a: 1 }));
      expect({ ...events[2] }).toMatchObject({ argsSha256: sha256Of({ a: 1 }) });
    } finally {
      await conn.close();
    }
  });

  it('writes one JSON line per call on stderr by default, in the documented field order, after the response', async () => {
    const written: string[] = [];
    const stderr = { write: (t: string) => (written.push(t), true) };
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, scopes: [], principal: 'p2', tenant: 't2', stderr, audit: undefined }));
    try {
      await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 42 } });
      await conn.client.callTool({ name: 'echo', arguments: { b: [1, 'x'], a: 1 } });
      await new Promise((resolve) => setImmediate(resolve));
      const lines = written.join('').split('\n').filter((l) => l.startsWith('{"audit"'));
      expect(lines).toHaveLength(2);
      const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(Object.keys(events[1]!)).toEqual(['audit', 'time', 'kind', 'name', 'principal', 'tenant', 'argsSha256', 'outcome', 'durationMs']);
      expect(events[0]).toMatchObject({ audit: 'mcp-gen', kind: 'tool', name: 'tickets.get', principal: 'p2', tenant: 't2', outcome: 'forbidden', argsSha256: sha256Of({ ticketId: 42 }) });
      expect(events[0]!['reason']).toMatch(/^Forbidden/);
      expect(events[1]).toMatchObject({ name: 'echo', outcome: 'ok', argsSha256: sha256Of({ a: 1, b: [1, 'x'] }) });
      expect(new Date(events[1]!['time'] as string).toISOString()).toBe(events[1]!['time']);
      expect(typeof events[1]!['durationMs']).toBe('number');
    } finally {
      await conn.close();
    }
  });

  it('fails closed when the authorize hook throws', async () => {
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, authorize: () => { throw new Error('policy down'); }, onError: () => undefined, stderr: { write: () => true } }));
    try {
      const r = await conn.client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234' } });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^Forbidden/);
    } finally {
      await conn.close();
    }
  });
});
