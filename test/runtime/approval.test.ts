/**
 * One approval, one execution: a receipt or a confirmation authorizes one call of one tool with one input
 * under one key, is consumed by it in the shared store, and is refused on any later call, on any replica.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryStore, sealState as seal, stateKeys, startStdioServer, type ApprovalCheck, type AuditEvent, type ServerOptions, type SharedStore } from '../../generator/runtime/index.js';
import { ERAS, connect, createServer, seen } from './fixture.js';

const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('\n');
const quiet = { write: () => true };
const SECRET = 'a'.repeat(64);
const accept = { mcpgen_approval: { action: 'accept', content: { approve: true } } };

beforeEach(() => {
  seen.effects.length = 0;
});

describe.each(ERAS)('approval receipts ($era era)', ({ mode }) => {
  const checks: ApprovalCheck[] = [];
  const verifyReceipt = (check: ApprovalCheck) => (checks.push(check), check.receipt === `ok:${check.inputSha256}`);
  const open = (store: SharedStore) => connect(mode, (ctx) => createServer({ era: ctx.era, store, stderr: quiet, tenant: 'acme', principal: 'alice', approval: { verifyReceipt } }));

  it('consumes a receipt: the same receipt never authorizes a second call, even with a fresh idempotency key', async () => {
    const conn = await open(memoryStore());
    try {
      const probe = await conn.client.callTool({ name: 'refund', arguments: { amount: 3, approvalReceipt: 'probe' } });
      const hash = /input sha256 ([0-9a-f]{64})/.exec(text(probe))?.[1];
      expect(hash).toBeDefined();
      const receipt = `ok:${hash}`;
      expect(text(await conn.client.callTool({ name: 'refund', arguments: { amount: 3, approvalReceipt: receipt } }))).toBe('charged 1');
      const again = await conn.client.callTool({ name: 'refund', arguments: { amount: 3, approvalReceipt: receipt } });
      expect(text(again)).toMatch(/^Approval refused: this approval was already used/);
      for (const key of ['k-a', 'k-b', 'k-c']) await conn.client.callTool({ name: 'refund_once', arguments: { amount: 3, idempotencyKey: key, approvalReceipt: receipt } });
      expect(seen.effects).toHaveLength(2);
    } finally {
      await conn.close();
    }
  });

  it('binds a receipt to the exact input: one for {labels:{env}} never approves the same plus an own "__proto__" key', async () => {
    const conn = await open(memoryStore());
    try {
      const probe = await conn.client.callTool({ name: 'refund', arguments: { labels: { env: 'staging' }, approvalReceipt: 'probe' } });
      const hash = /input sha256 ([0-9a-f]{64})/.exec(text(probe))?.[1];
      const forged = JSON.parse(`{"labels":{"env":"staging","__proto__":"production"},"approvalReceipt":"ok:${hash}"}`) as Record<string, unknown>;
      const r = await conn.client.callTool({ name: 'refund', arguments: forged });
      expect(text(r)).toMatch(/^Approval refused: the approvalReceipt does not approve this exact call/);
      expect(seen.effects).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });

  it('hands the verifier the tool, input hash, idempotency key, principal and tenant; a replay of the key asks nothing', async () => {
    checks.length = 0;
    const conn = await open(memoryStore());
    try {
      await conn.client.callTool({ name: 'refund_once', arguments: { amount: 4, idempotencyKey: 'key-7', approvalReceipt: 'r-1' } });
      expect(checks[0]).toMatchObject({ tool: 'refund_once', idempotencyKey: 'key-7', principal: 'alice', tenant: 'acme', input: { amount: 4 }, receipt: 'r-1' });
      expect(checks[0]?.inputSha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await conn.close();
    }
  });
});

describe.each(ERAS)('approval through the client ($era era)', ({ mode }) => {
  it('runs once after the user confirms, and a retry under the same key replays instead of asking again', async () => {
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, store: memoryStore(), stderr: quiet }), 'accept');
    try {
      expect(text(await conn.client.callTool({ name: 'refund_once', arguments: { amount: 1, idempotencyKey: 'c-1' } }))).toBe('charged 1');
      expect(text(await conn.client.callTool({ name: 'refund_once', arguments: { amount: 1, idempotencyKey: 'c-1' } }))).toBe('charged 1');
      expect(seen.effects).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

/** A 2026 client that surfaces `input_required` instead of answering it, so a test can replay the state. */
async function manualClient(factory: () => ReturnType<typeof createServer>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const host = startStdioServer(factory, { transport: serverSide });
  const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } } as never);
  await client.connect(clientSide);
  const call = (name: string, args: Record<string, unknown>, state?: string) =>
    client.callTool({ name, arguments: args, ...(state === undefined ? {} : { inputResponses: accept, requestState: state }) } as never, { allowInputRequired: true } as never) as Promise<{ requestState?: string; content?: unknown; isError?: boolean }>;
  return { call, close: async () => (await client.close(), await host.close()) };
}

describe('2026 confirmations in requestState', () => {
  const replica = (store: SharedStore, extra: ServerOptions = {}) => () => createServer({ era: 'modern', store, stderr: quiet, stateSecrets: [SECRET], ...extra });

  it('are single use: a replayed confirmation is refused, on this replica and on another sharing the store', async () => {
    const store = memoryStore();
    const a = await manualClient(replica(store));
    const b = await manualClient(replica(store));
    try {
      const asked = await a.call('refund', { amount: 8 });
      expect(typeof asked.requestState).toBe('string');
      expect(text(await b.call('refund', { amount: 8 }, asked.requestState))).toBe('charged 1');
      expect(text(await a.call('refund', { amount: 8 }, asked.requestState))).toMatch(/^Approval refused: this approval was already used/);
      expect(text(await b.call('refund', { amount: 8 }, asked.requestState))).toMatch(/^Approval refused: this approval was already used/);
      expect(seen.effects).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('are bound to the idempotency key: a confirmation for one key never runs the call under another', async () => {
    const conn = await manualClient(replica(memoryStore()));
    try {
      const asked = await conn.call('refund_once', { amount: 2, idempotencyKey: 'first' });
      const other = await conn.call('refund_once', { amount: 2, idempotencyKey: 'second' }, asked.requestState);
      expect(text(other)).toMatch(/^Approval refused: the confirmation does not match/);
      expect(seen.effects).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });

  it('are short-lived: refused once the confirmation window has passed', async () => {
    let now = 1_000_000;
    const conn = await manualClient(replica(memoryStore(), { clock: () => now }));
    try {
      const asked = await conn.call('refund', { amount: 2 });
      now += 5 * 60 * 1000 + 1;
      expect(text(await conn.call('refund', { amount: 2 }, asked.requestState))).toMatch(/^Approval refused: the confirmation does not match/);
      expect(seen.effects).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });

  it('open under the previous secret during a rotation, are refused (and audited) under an unknown one', async () => {
    const store = memoryStore();
    const events: AuditEvent[] = [];
    const old = await manualClient(replica(store, { stateSecrets: ['o'.repeat(40)] }));
    const rotated = await manualClient(replica(store, { stateSecrets: [SECRET, 'o'.repeat(40)] }));
    const stranger = await manualClient(replica(store, { stateSecrets: ['s'.repeat(40)], audit: (e) => void events.push(e) }));
    try {
      const first = await old.call('refund', { amount: 5 });
      const second = await old.call('refund', { amount: 6 });
      expect(text(await rotated.call('refund', { amount: 5 }, first.requestState))).toBe('charged 1');
      await expect(stranger.call('refund', { amount: 6 }, second.requestState)).rejects.toMatchObject({ code: -32602 });
      expect(events).toMatchObject([{ kind: 'request', outcome: 'invalid', reason: 'requestState failed its integrity check' }]);
      expect(seen.effects).toHaveLength(1);
    } finally {
      await old.close();
      await rotated.close();
      await stranger.close();
    }
  });
});

describe('stateKeys', () => {
  it('reads MCP_STATE_SECRET and MCP_STATE_SECRET_PREVIOUS, seals with the first, opens with all', () => {
    const keys = stateKeys(undefined, { MCP_STATE_SECRET: SECRET, MCP_STATE_SECRET_PREVIOUS: `${'p'.repeat(32)}, ${'q'.repeat(32)}` });
    expect(keys).toEqual({ seal: SECRET, open: [SECRET, 'p'.repeat(32), 'q'.repeat(32)] });
    expect(stateKeys([SECRET], { MCP_STATE_SECRET: 'x'.repeat(40) }).seal).toBe(SECRET);
    expect(seal(keys, { a: 1 })).toBe(seal({ seal: SECRET, open: [SECRET] }, { a: 1 }));
  });

  it('refuses a secret shorter than 32 characters, saying where it came from', () => {
    expect(() => stateKeys(undefined, { MCP_STATE_SECRET: 'short' })).toThrow(/MCP_STATE_SECRET secret is 5 characters long; use at least 32/);
    expect(() => stateKeys(['short'], {})).toThrow(/stateSecrets secret/);
  });

  it('falls back to one random secret per process without configuration', () => {
    const a = stateKeys(undefined, {});
    expect(a.seal).toMatch(/^[0-9a-f]{64}$/);
    expect(stateKeys(undefined, {}).seal).toBe(a.seal);
  });
});
