/**
 * A resource's `audience` enforced by the server with no `authorize` hook written: the generated
 * support-desk server (refund-policy and ticket for `support-agents`, invoice for `support-agents` and
 * `billing-staff`, the logo for anyone) through real SDK clients, in both eras, over the in-memory stdio
 * transport (the launch identity's audiences) and over Streamable HTTP (the token's audiences claim, and
 * audiences granted by scopes).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer, type ServerOptions } from '../../generated/support-desk/server.gen.js';
import { launchOptions, type AuditEvent, type AuthorizeRequest, type HttpServerHandle } from '../../generator/runtime/index.js';
import { startHttpServer as startBuiltHttpServer } from 'mcp-gen/runtime';
import { ERAS, connect } from './fixture.js';

const POLICY = 'support://policies/refunds/2026-09';
const TICKET = 'support://tickets/T-1001';
const INVOICE = 'support://customers/C-501/invoices/INV-2001';
const LOGO = 'support://brand/logo.png';
const quiet = { write: () => true };

type Failure = { code?: number; message: string; data?: unknown };
const failureOf = (p: Promise<unknown>): Promise<Failure | undefined> => p.then(() => undefined, (e: unknown) => e as Failure);
const hints = (x: object) => [(x as Record<string, unknown>)['ttlMs'], (x as Record<string, unknown>)['cacheScope']];

/** The support-desk server for a caller with `options`, recording audit events and `authorize` requests. */
function desk(era: 'legacy' | 'modern', options: ServerOptions = {}) {
  const events: AuditEvent[] = [];
  const asked: AuthorizeRequest[] = [];
  const authorize = options.authorize;
  const all: ServerOptions = {
    era,
    stderr: quiet,
    audit: (e) => void events.push(e),
    ...options,
    ...(authorize === undefined ? {} : { authorize: (r: AuthorizeRequest) => (asked.push(r), authorize(r)) }),
  };
  return { factory: () => createServer(handlers, all), events, asked };
}

describe.each(ERAS)('audience enforced by the server itself ($era)', ({ era, mode }) => {
  const modern = era === 'modern';

  it('a caller outside the audience gets exactly the answer of an unknown URI, and an audited forbidden read', async () => {
    const d = desk(era, { audiences: ['billing-staff'] });
    const conn = await connect(mode, d.factory);
    try {
      const refused = await failureOf(conn.client.readResource({ uri: POLICY }));
      const unknown = await failureOf(conn.client.readResource({ uri: 'support://policies/refunds/1999-01' }));
      expect(refused).toMatchObject({ code: -32602, message: `Resource not found: ${POLICY}`, data: { uri: POLICY } });
      expect({ ...unknown, message: unknown?.message.replace('1999-01', '2026-09'), data: { uri: POLICY } }).toMatchObject({ code: refused?.code, message: refused?.message });
      expect(refused?.message).not.toContain('audience');
      expect(await failureOf(conn.client.readResource({ uri: TICKET }))).toMatchObject({ code: -32602, message: `Resource not found: ${TICKET}` });
      const event = d.events.find((e) => e.kind === 'resource' && e.name === 'refund-policy');
      expect(event).toMatchObject({ outcome: 'forbidden', reason: expect.stringContaining('not in the audience of resource refund-policy (support-agents)') });
      // Inside one of the invoice's audiences, and the logo states none: both are served.
      expect((await conn.client.readResource({ uri: INVOICE })).contents).toHaveLength(1);
      expect((await conn.client.readResource({ uri: LOGO })).contents).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });

  it('listings hide what the caller is outside the audience of; those listings are private in 2026', async () => {
    const conn = await connect(mode, desk(era, { audiences: ['billing-staff'] }).factory);
    try {
      const resources = await conn.client.listResources();
      const templates = await conn.client.listResourceTemplates();
      const uris = resources.resources.map((r) => r.uri);
      expect(uris).toContain(LOGO);
      expect(uris).not.toContain(POLICY);
      // ticket instances come from its list handler: none for this caller.
      expect(uris.filter((u) => u.startsWith('support://tickets/'))).toEqual([]);
      expect(templates.resourceTemplates.map((t) => t.name).sort()).toEqual(['invoice']);
      if (modern) {
        expect(hints(resources)).toEqual([60000, 'private']);
        expect(hints(templates)).toEqual([60000, 'private']);
      }
    } finally {
      await conn.close();
    }
  });

  it('the launch identity is in every declared audience unless MCP_AUDIENCES says otherwise', async () => {
    expect(launchOptions({ MCP_AUDIENCES: 'billing-staff, auditors' }).audiences).toEqual(['billing-staff', 'auditors']);
    expect(launchOptions({ MCP_AUDIENCES: '' }).audiences).toEqual([]);
    expect(launchOptions({}).audiences).toBeUndefined();
    const conn = await connect(mode, desk(era).factory);
    try {
      expect((await conn.client.readResource({ uri: POLICY })).contents).toHaveLength(1);
      expect((await conn.client.listResources()).resources.map((r) => r.uri)).toContain(POLICY);
      expect((await conn.client.listResourceTemplates()).resourceTemplates.map((t) => t.name).sort()).toEqual(['invoice', 'ticket']);
    } finally {
      await conn.close();
    }
    const none = await connect(mode, desk(era, launchOptions({ MCP_AUDIENCES: '' })).factory);
    try {
      expect(await failureOf(none.client.readResource({ uri: INVOICE }))).toMatchObject({ code: -32602, message: `Resource not found: ${INVOICE}` });
    } finally {
      await none.close();
    }
  });

  it('`authorize` is consulted after the audience: never for a caller outside it, and it still refuses inside it', async () => {
    const outside = desk(era, { audiences: ['billing-staff'], authorize: () => true });
    let conn = await connect(mode, outside.factory);
    try {
      await failureOf(conn.client.readResource({ uri: POLICY }));
      expect(outside.asked.filter((r) => r.name === 'refund-policy')).toEqual([]);
    } finally {
      await conn.close();
    }
    const inside = desk(era, { audiences: ['support-agents'], authorize: (r) => r.name !== 'refund-policy' || 'Forbidden: policy frozen' });
    conn = await connect(mode, inside.factory);
    try {
      expect(await failureOf(conn.client.readResource({ uri: POLICY }))).toMatchObject({ code: -32602, message: 'Forbidden: policy frozen' });
      expect(inside.asked.find((r) => r.name === 'refund-policy')).toMatchObject({ audience: ['support-agents'], audiences: ['support-agents'] });
    } finally {
      await conn.close();
    }
  });

  it('a prompt that embeds the resource does not widen the audience', async () => {
    const conn = await connect(mode, desk(era, { audiences: ['billing-staff'] }).factory);
    try {
      const failure = await failureOf(conn.client.getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'T-1001' } }));
      expect(failure).toBeDefined();
      expect(JSON.stringify(failure)).not.toContain('Refund policy');
    } finally {
      await conn.close();
    }
  });

  it('template completions of a resource outside the audience answer as for an unknown template', async () => {
    const conn = await connect(mode, desk(era, { audiences: ['billing-staff'] }).factory);
    try {
      const failure = await failureOf(conn.client.complete({ ref: { type: 'ref/resource', uri: 'support://tickets/{ticketId}' }, argument: { name: 'ticketId', value: 'T-' } }));
      expect(failure).toMatchObject({ code: -32602, message: expect.stringContaining('not found') });
    } finally {
      await conn.close();
    }
  });
});

describe('audiences from the token over Streamable HTTP (both eras)', () => {
  let host: HttpServerHandle;
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  let known: Record<string, AuthInfo> = {};

  beforeAll(async () => {
    // `tickets:read` places a token in `billing-staff` (a grant by scope); `support-agents` only comes from the claim.
    // The runtime the generated server imports (mcp-gen/runtime), so the host's checks before dispatch (the
    // 403 scope challenge) see the server's catalog as a deployed server's host does.
    host = await startBuiltHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false, stderr: quiet, audienceScopes: { 'billing-staff': ['tickets:read'] } }), {
      port: 0,
      stderr: quiet,
      auth: { verifier: { verifyAccessToken: async (token: string) => known[token] ?? Promise.reject(new Error('unknown token')) } },
    });
    const token = (name: string, scopes: string[], extra: Record<string, unknown>): AuthInfo => ({ token: name, clientId: 'agent', scopes, expiresAt, resource: new URL(host.url), extra: { sub: name, ...extra } });
    known = {
      agent: token('agent', ['tickets:read'], { audiences: ['support-agents'] }),
      'agent-string-claim': token('agent-string-claim', [], { audiences: 'support-agents billing-staff' }),
      clerk: token('clerk', ['tickets:read'], {}),
      nobody: token('nobody', [], {}),
    };
  });

  afterAll(async () => {
    await host.close();
  });

  async function client(name: string, mode: (typeof ERAS)[number]['mode']) {
    const c = new Client({ name: 'http', version: '1.0.0' }, { versionNegotiation: { mode } });
    await c.connect(new StreamableHTTPClientTransport(new URL(host.url), { requestInit: { headers: { authorization: `Bearer ${name}` } } }));
    return c;
  }

  it.each(ERAS)('the `audiences` claim admits, its absence hides ($era)', async ({ mode }) => {
    const agent = await client('agent', mode);
    const stringClaim = await client('agent-string-claim', mode);
    const nobody = await client('nobody', mode);
    try {
      expect((await agent.readResource({ uri: POLICY })).contents).toHaveLength(1);
      expect((await agent.readResource({ uri: TICKET })).contents).toHaveLength(1);
      expect((await stringClaim.readResource({ uri: POLICY })).contents).toHaveLength(1);
      expect(await failureOf(nobody.readResource({ uri: POLICY }))).toMatchObject({ code: -32602, message: `Resource not found: ${POLICY}` });
      expect((await nobody.listResources()).resources.map((r) => r.uri)).toEqual([LOGO]);
      expect((await agent.listResources()).resources.map((r) => r.uri)).toContain(POLICY);
    } finally {
      await Promise.all([agent.close(), stringClaim.close(), nobody.close()]);
    }
  });

  it.each(ERAS)('a token lacking both the audience and the scopes gets "resource not found", not a 403 that reveals the resource ($era)', async ({ mode }) => {
    const nobody = await client('nobody', mode);
    const member = await client('agent-string-claim', mode);
    try {
      // `ticket` needs tickets:read and support-agents: to `nobody` it does not exist, so no scope challenge names it.
      expect(await failureOf(nobody.readResource({ uri: TICKET }))).toMatchObject({ code: -32602, message: `Resource not found: ${TICKET}` });
      // Inside the audience the resource exists, and the missing scope is challenged as before.
      const challenged = await failureOf(member.readResource({ uri: TICKET }));
      expect(challenged).toBeDefined();
      expect(challenged?.code).not.toBe(-32602);
      expect(String(challenged?.message)).toMatch(/403|insufficient_scope|tickets:read/);
    } finally {
      await Promise.all([nobody.close(), member.close()]);
    }
  });

  it.each(ERAS)('`audienceScopes` grants an audience by scope, and only that one ($era)', async ({ mode }) => {
    const clerk = await client('clerk', mode);
    try {
      expect((await clerk.readResource({ uri: INVOICE })).contents).toHaveLength(1);
      expect(await failureOf(clerk.readResource({ uri: TICKET }))).toMatchObject({ code: -32602, message: `Resource not found: ${TICKET}` });
      expect((await clerk.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(['invoice']);
    } finally {
      await clerk.close();
    }
  });
});
