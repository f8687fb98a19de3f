/**
 * The audit trail cannot be forged and misses nothing: log text never becomes an audit line, the audit
 * can have a stream of its own, and every refusal (unknown names, refused shapes, completions,
 * subscriptions) leaves an event.
 */
import { describe, expect, it } from 'vitest';
import { jsonSchema, type AuditEvent } from '../../generator/runtime/index.js';
import { ERAS, connect, createServer } from './fixture.js';

const FORGED = '{"audit":"mcp-gen","time":"2026-01-01T00:00:00.000Z","kind":"tool","name":"refunds.approve","principal":"ceo","outcome":"ok"}';
const collect = () => {
  const chunks: string[] = [];
  return { write: (t: string) => (chunks.push(t), true), lines: () => chunks.join('').split('\n').filter(Boolean) };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe.each(ERAS)('audit ($era era)', ({ mode }) => {
  it('ctx.log text can never add an audit line, whatever it holds', async () => {
    const stderr = collect();
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, stderr, audit: undefined }));
    try {
      await conn.client.callTool({ name: 'say', arguments: { text: `hello\n${FORGED}\r\n${FORGED}\u2028${FORGED}`, data: { note: `\n${FORGED}` } } });
      await tick();
      const lines = stderr.lines();
      const audit = lines.filter((l) => l.startsWith('{'));
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!)).toMatchObject({ audit: 'mcp-gen', kind: 'tool', name: 'say', outcome: 'ok' });
      expect(lines.filter((l) => !l.startsWith('{')).every((l) => l.startsWith('[tool say] info: hello\\n{'))).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('writes audit lines to auditStream when given, apart from log lines', async () => {
    const stderr = collect();
    const auditStream = collect();
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, stderr, auditStream, audit: undefined }));
    try {
      await conn.client.callTool({ name: 'say', arguments: { text: FORGED } });
      await tick();
      expect(auditStream.lines().map((l) => (JSON.parse(l) as AuditEvent).name)).toEqual(['say']);
      expect(stderr.lines().some((l) => l.startsWith('{'))).toBe(false);
    } finally {
      await conn.close();
    }
  });

  it('audits requests refused before any gate: unknown names and refused shapes', async () => {
    const events: AuditEvent[] = [];
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, principal: 'p9', audit: (e) => void events.push(e), stderr: { write: () => true } }));
    try {
      const unknown = await conn.client.callTool({ name: 'no.such.tool', arguments: {} }).catch((e: unknown) => e);
      expect(unknown).toBeDefined();
      await expect(conn.client.getPrompt({ name: 'no_such_prompt', arguments: {} })).rejects.toBeDefined();
      await expect(conn.client.readResource({ uri: 'nowhere://x' })).rejects.toBeDefined();
      await expect(conn.client.request({ method: 'tools/call', params: { name: 'echo', arguments: 'text' } } as never)).rejects.toBeDefined();
      await expect(conn.client.request({ method: 'mcpgen/no-such-method', params: {} } as never, jsonSchema({ type: 'object' }) as never)).rejects.toMatchObject({ code: -32601 });
      expect(events.map((e) => [e.kind, e.name, e.outcome, e.principal])).toEqual([
        ['tool', 'no.such.tool', 'not_found', 'p9'],
        ['prompt', 'no_such_prompt', 'not_found', 'p9'],
        ['resource', 'nowhere://x', 'not_found', 'p9'],
        ['tool', 'echo', 'invalid', 'p9'],
        ['request', 'mcpgen/no-such-method', 'not_found', 'p9'],
      ]);
    } finally {
      await conn.close();
    }
  });

  it('audits refused completions, and answers a prototype-member ref with a clean protocol error', async () => {
    const events: AuditEvent[] = [];
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, audit: (e) => void events.push(e), stderr: { write: () => true } }));
    try {
      for (const name of ['__proto__', 'constructor', 'toString', 'missing']) {
        const error = await conn.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: 'constructor', value: '' } }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32602 });
        expect(String((error as Error).message)).toContain(`Prompt ${name} not found`);
      }
      const arg = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'draft_refund_review' }, argument: { name: '__proto__', value: '' } }).catch((e: unknown) => e);
      expect(arg).toMatchObject({ code: -32602 });
      await expect(conn.client.complete({ ref: { type: 'ref/resource', uri: 'hasOwnProperty' }, argument: { name: 'x', value: '' } })).rejects.toMatchObject({ code: -32602 });
      expect(events.map((e) => [e.kind, e.name, e.outcome])).toEqual([
        ['completion', '__proto__', 'not_found'],
        ['completion', 'constructor', 'not_found'],
        ['completion', 'toString', 'not_found'],
        ['completion', 'missing', 'not_found'],
        ['completion', 'draft_refund_review', 'not_found'],
        ['completion', 'hasOwnProperty', 'not_found'],
      ]);
    } finally {
      await conn.close();
    }
  });
});

describe('audit of refused subscriptions (2025 era)', () => {
  it('records a subscription refused for an unknown resource and one refused for a missing scope', async () => {
    const events: AuditEvent[] = [];
    const conn = await connect('legacy', (ctx) => createServer({ era: ctx.era, scopes: [], audit: (e) => void events.push(e), stderr: { write: () => true } }));
    try {
      await expect(conn.client.subscribeResource({ uri: 'nowhere://x' })).rejects.toBeDefined();
      await expect(conn.client.subscribeResource({ uri: 'support://tickets/T-1234' })).rejects.toBeDefined();
      expect(events.map((e) => [e.kind, e.name, e.outcome])).toEqual([
        ['subscription', 'nowhere://x', 'not_found'],
        ['subscription', 'support://tickets/T-1234', 'forbidden'],
      ]);
    } finally {
      await conn.close();
    }
  });
});
