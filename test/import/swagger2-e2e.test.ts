/**
 * End to end from a Swagger 2.0 document (converted, then imported like any OpenAPI 3 one): the generated
 * server with its scaffolded handlers answers real calls in both protocol eras against a mock upstream on
 * 127.0.0.1 — JSON success with the API key forwarded, upstream 404 and 500, a binary (`type: file`)
 * response, a `formData` form body and a multipart upload whose file arrives as bytes.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractHarness, eras, type Connection } from '../../generator/testing/index.js';
import { importFixturesDir } from '../helpers/import-golden.js';
import { importAndGenerate, scratch } from './helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 7]);
const DOG = { id: 1, name: 'Rex', age: 3 };
const seen: { method: string; url: string; apiKey?: string; contentType?: string; body: Buffer }[] = [];

function bytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function upstream(): Server {
  return createHttpServer(async (req, res) => {
    const body = await bytes(req);
    seen.push({ method: req.method!, url: req.url!, apiKey: req.headers['x-api-key'] as string | undefined, contentType: req.headers['content-type'], body });
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const path = new URL(req.url!, 'http://upstream').pathname;
    if (req.method === 'GET' && path === '/v2/dogs/1') return json(200, DOG);
    if (req.method === 'GET' && path === '/v2/dogs/404') return json(404, { message: 'Dog 404 is not registered' });
    if (req.method === 'GET' && path === '/v2/dogs/500') return json(500, { message: 'connection string postgres://admin:s3cret@db' });
    if (req.method === 'GET' && path === '/v2/dogs/1/photo') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.method === 'POST' && path === '/v2/dogs') {
      const form = new URLSearchParams(body.toString('utf8'));
      return json(200, { id: 2, name: form.get('name'), age: Number(form.get('age')) });
    }
    if (req.method === 'POST' && path === '/v2/dogs/1/photos') {
      const form = await new Request('http://upstream/', { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': req.headers['content-type']! } }).formData();
      const file = form.get('file') as File;
      return json(200, { bytes: Buffer.from(await file.arrayBuffer()).equals(PNG) ? file.size : -1, caption: form.get('caption') });
    }
    return json(404, { message: 'no route' });
  });
}

let http: Server;
let base: string;
let generated: { connect: (era: (typeof eras)[number]) => Promise<Connection>; configure: (o: object) => void };
const s = scratch('swagger2');

beforeAll(async () => {
  http = upstream();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v2`;
  const { imported, outDir } = await importAndGenerate(join(importFixturesDir, 'swagger2', 'swagger.yaml'), s.dir);
  expect(imported.yaml).toContain('baseUrl: https://kennel.example.com/v2');
  const server = await import(join(outDir, 'server.gen.ts'));
  const { handlers } = await import(join(outDir, 'handlers.gen.ts'));
  const { configureUpstream } = await import(join(outDir, 'upstream.gen.ts'));
  const harness = contractHarness(server.createServer, handlers);
  generated = { connect: (era) => harness.connect(era), configure: configureUpstream };
}, 120_000);

afterAll(async () => {
  await new Promise((r) => http.close(r));
  s.cleanup();
});

const text = (r: { content: unknown }) => (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');

describe.each(eras)('server imported from Swagger 2.0, era $name', (era) => {
  let c: Connection;
  beforeAll(async () => {
    generated.configure({ baseUrl: base, credentials: { api_key: 'key-123' } });
    c = await generated.connect(era);
  });
  afterAll(() => c.close());

  it('returns the upstream JSON as structured content, forwarding the API key header', async () => {
    seen.length = 0;
    const r = await c.client.callTool({ name: 'getDog', arguments: { dogId: 1 } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(DOG);
    expect(seen).toEqual([expect.objectContaining({ method: 'GET', url: '/v2/dogs/1', apiKey: 'key-123' })]);
  });

  it('maps an upstream 404 to isError with its message, and a 500 to a generic one', async () => {
    const missing = await c.client.callTool({ name: 'getDog', arguments: { dogId: 404 } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('Dog 404 is not registered');
    const failed = await c.client.callTool({ name: 'getDog', arguments: { dogId: 500 } });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/upstream API failed \(HTTP 500\)/);
    expect(text(failed)).not.toContain('s3cret');
  });

  it('returns a `type: file` response as image content with its MIME type', async () => {
    const r = await c.client.callTool({ name: 'getDogPhoto', arguments: { dogId: 1 } });
    expect(r.content).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }]);
  });

  it('sends formData parameters as an application/x-www-form-urlencoded body', async () => {
    seen.length = 0;
    const r = await c.client.callTool({ name: 'registerDog', arguments: { body: { name: 'Fido & Co', age: 4 }, idempotencyKey: `reg-${era.name}` } });
    expect(r.isError, text(r)).toBeFalsy();
    expect(r.structuredContent).toEqual({ id: 2, name: 'Fido & Co', age: 4 });
    expect(seen[0]).toMatchObject({ method: 'POST', contentType: 'application/x-www-form-urlencoded', apiKey: 'key-123' });
    expect(seen[0]!.body.toString('utf8')).toBe('name=Fido+%26+Co&age=4');
  });

  it('uploads a multipart body whose file field arrives as the bytes of its base64 value', async () => {
    seen.length = 0;
    const r = await c.client.callTool({ name: 'uploadDogPhoto', arguments: { dogId: 1, body: { file: PNG.toString('base64'), caption: 'in the park' }, idempotencyKey: `up-${era.name}` } });
    expect(r.isError, text(r)).toBeFalsy();
    expect(r.structuredContent).toEqual({ bytes: PNG.length, caption: 'in the park' });
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
  });
});
