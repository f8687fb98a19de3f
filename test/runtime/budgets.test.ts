/**
 * Size budgets, cache hints and content metadata on the wire, in both eras, through the SDK client: the
 * generated support-desk server (its manifest declares `maxBytes`, `cache`, `classification`, `audience`,
 * `revision` and `lastModified`) with its own handlers, one of them replaced to go over budget; and a
 * hand-built binary resource for the decoded-bytes count.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer, type Handlers, type ServerOptions } from '../../generated/support-desk/server.gen.js';
import { createRuntime, fixedResourceCallback, installSecurity, startHttpServer, type AuditEvent, type AuthorizeRequest, type Catalog, type ResourceSpec } from '../../generator/runtime/index.js';
import { ERAS, connect } from './fixture.js';

const POLICY = 'support://policies/refunds/2026-09';
const TICKET = 'support://tickets/T-1001';
const LOGO = 'support://brand/logo.png';
const quiet = { write: () => true };

/** The support-desk server with `ticket.read` returning `value`, recording reports and audit events. */
function desk(era: 'legacy' | 'modern', value?: unknown, extra: ServerOptions = {}) {
  const errors: string[] = [];
  const events: AuditEvent[] = [];
  const ticket = value === undefined ? handlers.resources.ticket : { ...handlers.resources.ticket, read: async () => value as never };
  const h: Handlers = { ...handlers, resources: { ...handlers.resources, ticket } };
  const options: ServerOptions = { era, stderr: quiet, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)), audit: (e) => void events.push(e), ...extra };
  return { factory: () => createServer(h, options), errors, events };
}

/** A ticket whose JSON is `bytes` bytes long in UTF-8 with fewer characters than bytes (a multi-byte subject). */
function ticketOfBytes(bytes: number) {
  const base = { id: 'T-1001', status: 'open', subject: '', customerId: 'C-501' };
  const overhead = Buffer.byteLength(JSON.stringify(base));
  const room = bytes - overhead;
  // 'é' is two bytes and one character; an odd remainder takes one ASCII letter.
  const subject = 'é'.repeat(Math.floor(room / 2)) + (room % 2 === 1 ? 'a' : '');
  const t = { ...base, subject };
  expect(Buffer.byteLength(JSON.stringify(t))).toBe(bytes);
  expect(JSON.stringify(t).length).toBeLessThan(bytes);
  return t;
}

describe.each(ERAS)('resource budgets and cache hints on the wire ($era)', ({ era, mode }) => {
  const modern = era === 'modern';

  it('a read over maxBytes (counted in UTF-8 bytes) is an error for the client, a report for the author and a too_large audit event', async () => {
    const d = desk(era, ticketOfBytes(16385));
    const conn = await connect(mode, d.factory);
    try {
      const failure = await conn.client.readResource({ uri: TICKET }).then(() => undefined, (e: unknown) => e as { code?: number; message: string });
      expect(failure?.code).toBe(-32603);
      expect(failure?.message).toContain('produced more content than its size budget allows');
      expect(failure?.message).not.toContain('éé');
      expect(d.errors).toEqual([expect.stringContaining('returned 16385 bytes, over its size budget of 16384 bytes')]);
      const read = d.events.find((e) => e.kind === 'resource' && e.name === 'ticket');
      expect(read?.outcome).toBe('too_large');
      expect(read?.reason).toContain('16385 bytes');
    } finally {
      await conn.close();
    }
  });

  it('a read of exactly maxBytes is served', async () => {
    const d = desk(era, ticketOfBytes(16384));
    const conn = await connect(mode, d.factory);
    try {
      const r = await conn.client.readResource({ uri: TICKET });
      expect(Buffer.byteLength((r.contents[0] as { text: string }).text)).toBe(16384);
      expect(d.errors).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('reads carry revision and lastModified in the contents _meta, and the declared cache hint only in 2026', async () => {
    const conn = await connect(mode, desk(era).factory);
    try {
      const r = (await conn.client.readResource({ uri: POLICY })) as Record<string, unknown> & { contents: { _meta?: unknown }[] };
      expect(r.contents[0]?._meta).toEqual({ revision: '2026-09', lastModified: '2026-09-01T00:00:00Z' });
      // Declared public, but only its audience may read it: a shared cache must not hold it.
      if (modern) expect([r['ttlMs'], r['cacheScope']]).toEqual([86400000, 'private']);
      else expect(Object.keys(r).filter((k) => k === 'ttlMs' || k === 'cacheScope')).toEqual([]);
      const logo = (await conn.client.readResource({ uri: LOGO })) as Record<string, unknown>;
      if (modern) expect([logo['ttlMs'], logo['cacheScope']]).toEqual([604800000, 'public']);
      else expect(Object.keys(logo).filter((k) => k === 'ttlMs' || k === 'cacheScope')).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('a scoped, confidential read is private whatever its policy; a listing filtered by scopes is private', async () => {
    const conn = await connect(mode, desk(era).factory);
    try {
      const ticket = (await conn.client.readResource({ uri: TICKET })) as Record<string, unknown>;
      const tools = (await conn.client.listTools()) as Record<string, unknown>;
      const templates = (await conn.client.listResourceTemplates()) as Record<string, unknown>;
      const resources = (await conn.client.listResources()) as Record<string, unknown>;
      const hints = (x: Record<string, unknown>) => [x['ttlMs'], x['cacheScope']];
      if (modern) {
        expect(hints(ticket)).toEqual([0, 'private']);
        // server.cache is 60 s public; every one of these listings hides entries from callers without scopes.
        expect(hints(tools)).toEqual([60000, 'private']);
        expect(hints(templates)).toEqual([60000, 'private']);
        expect(hints(resources)).toEqual([60000, 'private']);
      } else {
        for (const x of [ticket, tools, templates, resources]) expect(hints(x)).toEqual([undefined, undefined]);
      }
    } finally {
      await conn.close();
    }
  });

  it('with an authorize hook, a public logo is sent private, and the hook sees classification and audience', async () => {
    const seen: AuthorizeRequest[] = [];
    const d = desk(era, undefined, { authorize: (r) => (seen.push(r), true) });
    const conn = await connect(mode, d.factory);
    try {
      const r = (await conn.client.readResource({ uri: LOGO })) as Record<string, unknown>;
      if (modern) expect([r['ttlMs'], r['cacheScope']]).toEqual([604800000, 'private']);
      await conn.client.readResource({ uri: POLICY });
      const policy = seen.find((x) => x.kind === 'resource' && x.name === 'refund-policy');
      expect(policy).toMatchObject({ classification: 'internal', audience: ['support-agents'] });
    } finally {
      await conn.close();
    }
  });
});

describe('a binary resource budget counts decoded bytes (both eras)', () => {
  const spec: ResourceSpec = { name: 'logo', uri: 'x://logo', mimeType: 'image/png', textual: false, json: false, scopes: [], maxBytes: 8 };
  const catalog: Catalog = { scopes: [], tools: [], resources: [spec], prompts: [] };
  function server(era: 'legacy' | 'modern', bytes: number, errors: string[]): McpServer {
    const rt = createRuntime({ era, stderr: quiet, audit: false, onError: (e) => errors.push(String(e)) }, catalog);
    const s = new McpServer({ name: 'blob', version: '1.0.0' }, { capabilities: { resources: { listChanged: false } } });
    s.registerResource('logo', 'x://logo', { mimeType: 'image/png' }, fixedResourceCallback(rt, spec, { read: () => new Uint8Array(bytes) }));
    installSecurity(s, rt);
    return s;
  }

  it.each(ERAS)('$era: 8 bytes (12 base64 characters) pass, 9 are refused', async ({ era, mode }) => {
    const errors: string[] = [];
    const ok = await connect(mode, () => server(era, 8, errors));
    try {
      const r = await ok.client.readResource({ uri: 'x://logo' });
      expect((r.contents[0] as { blob: string }).blob).toHaveLength(12);
    } finally {
      await ok.close();
    }
    const over = await connect(mode, () => server(era, 9, errors));
    try {
      await expect(over.client.readResource({ uri: 'x://logo' })).rejects.toMatchObject({ code: -32603 });
      expect(errors).toEqual([expect.stringContaining('returned 9 bytes, over its size budget of 8 bytes')]);
    } finally {
      await over.close();
    }
  });
});

describe('cache hints over Streamable HTTP (2026-07-28)', () => {
  it('a public read and a private listing reach an HTTP client with their hints', async () => {
    const host = await startHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false, stderr: quiet }), { port: 0, stderr: quiet });
    const client = new Client({ name: 'http', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
      const read = (await client.readResource({ uri: LOGO })) as Record<string, unknown>;
      const tools = (await client.listTools()) as Record<string, unknown>;
      expect([read['ttlMs'], read['cacheScope']]).toEqual([604800000, 'public']);
      expect([tools['ttlMs'], tools['cacheScope']]).toEqual([60000, 'private']);
      expect(client.getDiscoverResult?.()).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    } finally {
      await client.close();
      await host.close();
    }
  });
});
