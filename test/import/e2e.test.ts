/**
 * End to end: the shop fixture is imported and generated, and the generated server, with the handlers
 * the generator scaffolded (not a line written by hand), answers real calls through the SDK client in
 * both protocol eras against a mock upstream on 127.0.0.1: success, upstream 404 and 500, a binary
 * response, the credential forwarded as a header, a network failure and an upstream timeout.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractHarness, eras, type Connection } from '../../generator/testing/index.js';
import { importFixturesDir } from '../helpers/import-golden.js';
import { importAndGenerate, scratch } from './helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PET = { id: 1, name: 'Rex', status: 'available' };
const seen: { method: string; url: string; authorization?: string; requestId?: string; body: string }[] = [];
const hanging = new Set<() => void>();

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });
}

/** The mock upstream: a handful of fixed answers under /v2. */
function upstream(): Server {
  return createHttpServer(async (req, res) => {
    const text = await body(req);
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, requestId: req.headers['x-request-id'] as string | undefined, body: text });
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const url = new URL(req.url!, 'http://upstream');
    if (req.method === 'GET' && url.pathname === '/v2/pets/1') return json(200, PET);
    if (req.method === 'GET' && url.pathname === '/v2/pets/404') return json(404, { message: 'Pet 404 does not exist' });
    if (req.method === 'GET' && url.pathname === '/v2/pets/500') return json(500, { message: 'stack trace with db password hunter2' });
    if (req.method === 'GET' && url.pathname === '/v2/pets/1/photo') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.method === 'GET' && url.pathname === '/v2/pets/7') return void hanging.add(() => res.destroy());
    if (req.method === 'GET' && url.pathname === '/v2/pets') return json(200, [PET, { id: 2, name: 'Tom', status: 'available' }]);
    if (req.method === 'PUT' && url.pathname === '/v2/pets/1') return json(200, { id: 1, ...JSON.parse(text) });
    return json(404, { message: 'no route' });
  });
}

let http: Server;
let base: string;
let generated: { connect: (era: (typeof eras)[number]) => Promise<Connection>; configure: (o: object) => void };
const s = scratch('e2e');

beforeAll(async () => {
  http = upstream();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v2`;
  const { outDir } = await importAndGenerate(join(importFixturesDir, 'shop', 'openapi.yaml'), s.dir);
  const server = await import(join(outDir, 'server.gen.ts'));
  const { handlers } = await import(join(outDir, 'handlers.gen.ts'));
  const { configureUpstream } = await import(join(outDir, 'upstream.gen.ts'));
  const harness = contractHarness(server.createServer, handlers);
  generated = { connect: (era) => harness.connect(era), configure: configureUpstream };
}, 120_000);

afterAll(async () => {
  for (const end of hanging) end();
  await new Promise((r) => http.close(r));
  s.cleanup();
});

const text = (r: { content: unknown }) => (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');

describe.each(eras)('imported server, era $name', (era) => {
  let c: Connection;
  beforeAll(async () => {
    generated.configure({ baseUrl: base, credentials: { oauth: 'secret-token' } });
    c = await generated.connect(era);
  });
  afterAll(() => c.close());

  it('returns the upstream JSON as structured content, forwarding the bearer credential', async () => {
    seen.length = 0;
    const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 1 } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(PET);
    expect(seen).toEqual([expect.objectContaining({ method: 'GET', url: '/v2/pets/1', authorization: 'Bearer secret-token' })]);
  });

  it('sends query and header parameters and wraps an array response', async () => {
    seen.length = 0;
    const r = await c.client.callTool({ name: 'listPets', arguments: { limit: 2, status: 'available', 'X-Request-Id': 'req-1' } });
    expect((r.structuredContent as { items: unknown[] }).items).toHaveLength(2);
    expect(seen[0]).toMatchObject({ url: '/v2/pets?limit=2&status=available', requestId: 'req-1' });
  });

  it('sends the body of a naturally idempotent PUT (no idempotency key)', async () => {
    const r = await c.client.callTool({ name: 'replacePet', arguments: { petId: 1, body: { name: 'Max' } } });
    expect(r.structuredContent).toEqual({ id: 1, name: 'Max' });
    const listed = (await c.client.listTools()).tools.find((t) => t.name === 'replacePet')!;
    expect(listed.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(Object.keys(listed.inputSchema.properties ?? {})).not.toContain('idempotencyKey');
  });

  it('maps an upstream 404 to isError carrying the upstream message', async () => {
    const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 404 } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('HTTP 404');
    expect(text(r)).toContain('Pet 404 does not exist');
  });

  it('maps an upstream 500 to isError with a generic message that leaks nothing', async () => {
    const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 500 } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/upstream API failed \(HTTP 500\)/);
    expect(text(r)).not.toContain('hunter2');
  });

  it('returns a binary response as image content with its MIME type', async () => {
    const r = await c.client.callTool({ name: 'getPetPhoto', arguments: { petId: 1 } });
    expect(r.content).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }]);
  });

  it('reads the resource template from the upstream, and an upstream 404 is resource-not-found', async () => {
    const ok = await c.client.readResource({ uri: 'pet-shop://pets/1' });
    expect(JSON.parse((ok.contents[0] as { text: string }).text)).toEqual(PET);
    await expect(c.client.readResource({ uri: 'pet-shop://pets/404' })).rejects.toThrow(/not found/i);
  });

  it('answers an upstream that does not respond in time with isError', async () => {
    generated.configure({ baseUrl: base, credentials: { oauth: 'secret-token' }, timeoutMs: 300 });
    try {
      const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 7 } });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/did not answer within 300 ms/);
    } finally {
      generated.configure({ baseUrl: base, credentials: { oauth: 'secret-token' } });
    }
  });

  it('answers an unreachable upstream with a generic isError', async () => {
    const closed = createHttpServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    generated.configure({ baseUrl: `http://127.0.0.1:${port}/v2` });
    try {
      const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 1 } });
      expect(r.isError).toBe(true);
      expect(text(r)).toBe('The upstream API could not be reached; try again later.');
    } finally {
      generated.configure({ baseUrl: base, credentials: { oauth: 'secret-token' } });
    }
  });
});
