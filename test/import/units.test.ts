/** The importer's rules one by one, on small documents written for each. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenApi } from '../../generator/import/openapi/index.js';
import { scratch } from './helpers.js';

const s = scratch('units');
afterAll(() => s.cleanup());
let n = 0;

/** Imports a document given as an object (written as YAML), returning the manifest as data. */
async function imp(doc: object, config: object = {}, files: Record<string, object> = {}) {
  const dir = join(s.dir, String(n++));
  (await import('node:fs')).mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), stringify(content));
  const file = join(dir, 'openapi.yaml');
  writeFileSync(file, stringify(doc));
  const r = await importOpenApi(file, { config });
  return { m: parse(r.yaml), r };
}

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } };
const api = (paths: object, extra: object = {}) => ({ openapi: '3.0.3', info: { title: 'Demo API', version: '1.0.0' }, paths, ...extra });

describe('names', () => {
  it('falls back to method and path without operationId, and reports a collision instead of renaming', async () => {
    const { m, r } = await imp(api({ '/orders/{orderId}/items': { get: { responses: ok } }, '/a': { get: { operationId: 'dup', responses: ok } }, '/b': { get: { operationId: 'dup', responses: ok } } }));
    expect(Object.keys(m.tools)).toEqual(['get_orders_by_orderId_items', 'dup']);
    expect(r.draft.operations.find((o) => o.path === '/b')?.note).toMatch(/name `dup` is already taken by GET \/a/);
    expect(r.yaml).toContain('# - GET /b: not imported: its name `dup` is already taken by GET /a');
  });
});

describe('overrides', () => {
  const paths = {
    '/admin/users/{id}': { delete: { operationId: 'removeUser', tags: ['admin'], responses: { '204': { description: 'gone' } } } },
    '/reports': { post: { operationId: 'buildReport', tags: ['reports'], 'x-mcp': { sideEffect: 'read', name: 'reports.build' }, responses: ok } },
    '/things/{id}': { get: { operationId: 'getThing', 'x-mcp': { kind: 'tool' }, responses: ok } },
    '/old': { get: { operationId: 'old', deprecated: true, responses: ok } },
  };
  it('applies config rules by path pattern, method and tag; x-mcp wins over the file; deprecated is honoured', async () => {
    const { m } = await imp(api(paths), { overrides: [{ path: '/admin/**', exclude: true }, { tag: 'reports', sideEffect: 'write' }] });
    expect(m.tools.removeUser).toBeUndefined();
    expect(m.tools['reports.build']).toMatchObject({ sideEffect: 'read' });
    expect(m.tools.getThing).toBeDefined();
    expect(m.resources?.getThing).toBeUndefined();
    expect(m.tools.old).toBeUndefined();
  });
  it('reads x-mcp from the operation, else its path item, else the document', async () => {
    const doc = { ...api({ '/in': { get: { operationId: 'in', 'x-mcp': true, responses: ok } }, '/hidden': { 'x-mcp': false, get: { operationId: 'hidden', responses: ok } }, '/out': { get: { operationId: 'out', responses: ok } } }), 'x-mcp': false };
    const { m } = await imp(doc);
    expect(Object.keys(m.tools)).toEqual(['in']);
  });

  it('keeps deprecated operations with includeDeprecated, and matches by method', async () => {
    const { m } = await imp(api(paths), { includeDeprecated: true, overrides: [{ method: 'delete', sideEffect: 'write' }] });
    expect(m.tools.old).toBeDefined();
    expect(m.tools.removeUser).toMatchObject({ sideEffect: 'write', idempotency: 'required' });
    expect(m.tools.removeUser.approval).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('imports a multipart body as an object whose binary fields are base64 files, and says how it is sent', async () => {
    const { m, r } = await imp(api({ '/up': { post: { operationId: 'upload', requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } } } } } }, responses: ok } } }));
    expect(m.tools.upload.input.properties.body).toEqual({ type: 'object', properties: { file: { type: 'string', contentEncoding: 'base64' }, note: { type: 'string' } } });
    expect(m.tools.upload.input.required).toEqual(['body']);
    expect(m.tools.upload.http).toMatchObject({ body: 'body', bodyType: 'multipart' });
    expect(r.yaml).toContain('# the request body is multipart/form-data, sent as multipart fields');
  });

  it('imports form, text and binary bodies with their encodings and MIME types; JSON wins when offered too', async () => {
    const { m } = await imp(api({
      '/form': { post: { operationId: 'form', requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } }, responses: ok } },
      '/text': { post: { operationId: 'text', requestBody: { content: { 'text/csv': { schema: { type: 'string' } } } }, responses: ok } },
      '/bytes': { put: { operationId: 'bytes', requestBody: { content: { 'image/png': {} } }, responses: ok } },
      '/both': { post: { operationId: 'both', requestBody: { content: { 'application/x-www-form-urlencoded': {}, 'application/json': { schema: { type: 'object' } } } }, responses: ok } },
    }));
    expect(m.tools.form.http).toMatchObject({ body: 'body', bodyType: 'form' });
    expect(m.tools.form.input.properties.body).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
    expect(m.tools.text.http).toMatchObject({ bodyType: 'text', contentType: 'text/csv' });
    expect(m.tools.text.input.properties.body).toEqual({ type: 'string' });
    expect(m.tools.bytes.http).toMatchObject({ bodyType: 'binary', contentType: 'image/png' });
    expect(m.tools.bytes.input.properties.body).toMatchObject({ type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' });
    expect(m.tools.both.http.bodyType).toBeUndefined();
  });
});

describe('cookies and servers', () => {
  it('imports a cookie parameter as an input sent in the Cookie header, but never a credential cookie', async () => {
    const { m } = await imp(api({ '/c': { get: { operationId: 'c', parameters: [{ name: 'lang', in: 'cookie', schema: { type: 'string' } }, { name: 'session', in: 'cookie', schema: { type: 'string' } }], security: [{ sess: [] }], responses: ok } } }, { components: { securitySchemes: { sess: { type: 'apiKey', in: 'cookie', name: 'session' } } } }));
    expect(Object.keys(m.tools.c.input.properties)).toEqual(['lang']);
    expect(m.tools.c.http.cookies).toEqual({ lang: 'lang' });
    expect(m.upstream.credentials.sess).toMatchObject({ in: 'cookie', name: 'session' });
  });

  it('takes the base URL from a templated server with the variables\' defaults, and none from one it cannot fill', async () => {
    const filled = await imp(api({ '/x': { get: { operationId: 'x', responses: ok } } }, { servers: [{ url: 'https://{region}.api.example.com/{version}', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, version: { default: 'v2' } } }] }));
    expect(filled.m.upstream.baseUrl).toBe('https://eu.api.example.com/v2');
    const open = await imp(api({ '/x': { get: { operationId: 'x', responses: ok } } }, { servers: [{ url: 'https://{tenant}.example.com' }] }));
    expect(open.m.upstream.baseUrl).toBeUndefined();
  });
});

describe('mega-operations', () => {
  it('flags a proxy path and a free-form SQL body, and imports them only when asked to', async () => {
    const paths = {
      '/proxy/{path}': { get: { operationId: 'proxy', responses: ok } },
      '/files/{filePath}': { get: { operationId: 'file', responses: ok } },
      '/reports/run': { post: { operationId: 'sql', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { sql: { type: 'string' } } } } } }, responses: ok } },
    };
    const flagged = await imp(api(paths));
    expect(Object.keys(flagged.m.tools)).toEqual(['file']);
    expect(flagged.r.draft.operations.map((o) => o.decision.kind)).toEqual(['flagged', 'both', 'flagged']);
    const forced = await imp(api(paths), { overrides: [{ operationId: 'sql', kind: 'tool' }] });
    expect(Object.keys(forced.m.tools)).toEqual(['file', 'sql']);
  });
});

describe('schemas', () => {
  it('converts OpenAPI 3.1 type arrays, $defs and const unchanged, and 3.0 nullable refs to anyOf with null', async () => {
    const schema31 = { type: ['string', 'null'], $defs: { Code: { const: 'A' } }, examples: ['x'] };
    const a = await imp({ openapi: '3.1.0', info: { title: 'T', version: '1.0.0' }, paths: { '/x': { get: { operationId: 'x', parameters: [{ name: 'q', in: 'query', schema: schema31 }], responses: ok } } } });
    expect(a.m.tools.x.input.properties.q).toEqual(schema31);
    const b = await imp(api({ '/y': { get: { operationId: 'y', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { p: { $ref: '#/components/schemas/P', nullable: true } } } } } } } } } }, { components: { schemas: { P: { type: 'object', properties: { n: { type: 'integer', format: 'int32', example: 3 } }, discriminator: { propertyName: 'n' }, 'x-internal': true } } } }));
    expect(b.m.tools.y.output.properties.p).toEqual({ anyOf: [{ $ref: '#/schemas/P' }, { type: 'null' }] });
    expect(b.m.schemas.P).toEqual({ type: 'object', properties: { n: { type: 'integer', format: 'int32', examples: [3] } } });
  });

  it('follows relative-file $ref chains and refuses a network $ref without fetching it', async () => {
    const { m } = await imp(api({ '/z': { get: { operationId: 'z', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: './a.yaml#/A' } } } } } } } }), {}, { 'a.yaml': { A: { type: 'object', properties: { b: { $ref: './b.yaml#/B' } } } }, 'b.yaml': { B: { type: 'integer', minimum: 0 } } });
    expect(m.tools.z.output).toEqual({ type: 'object', properties: { b: { type: 'integer', minimum: 0 } } });
    await expect(imp(api({ '/w': { get: { operationId: 'w', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: 'https://example.invalid/s.json' } } } } } } } }))).rejects.toThrow(/never fetched/);
  });
});

describe('security', () => {
  it('never makes a credential an argument: a parameter that carries a security scheme, or Authorization, is left to the upstream client', async () => {
    const { m } = await imp(api({ '/p/{id}': { delete: { operationId: 'del', security: [{ key: [] }], parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'API_KEY', in: 'header', schema: { type: 'string' } }, { name: 'Authorization', in: 'header', schema: { type: 'string' } }, { name: 'reason', in: 'header', schema: { type: 'string' } }], responses: { '204': { description: 'gone' } } } } }, {
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'api_key' } } },
    }));
    expect(Object.keys(m.tools.del.input.properties)).toEqual(['id', 'reason']);
    expect(m.tools.del.http).toMatchObject({ headers: { reason: 'reason' }, credentials: ['key'] });
  });

  it('turns API keys, HTTP bearer and basic into upstream credentials, and OAuth scopes into server scopes by name', async () => {
    const { m } = await imp(api({ '/s': { get: { operationId: 's', security: [{ oauth: ['s:read'] }, { key: [] }], responses: ok } } }, {
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, bearer: { type: 'http', scheme: 'bearer' }, basic: { type: 'http', scheme: 'basic' }, oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a.invalid', scopes: { 's:read': 'Read s', 's:write': 'Write s' } } } } } },
    }));
    expect(m.upstream.credentials).toEqual({
      key: { in: 'header', name: 'X-Key', env: 'DEMO_API_KEY' },
      bearer: { in: 'header', name: 'Authorization', scheme: 'bearer', env: 'DEMO_API_BEARER' },
      basic: { in: 'header', name: 'Authorization', scheme: 'basic', env: 'DEMO_API_BASIC' },
      oauth: { in: 'header', name: 'Authorization', scheme: 'bearer', env: 'DEMO_API_OAUTH' },
    });
    expect(m.server.scopes).toEqual({ 's:read': 'Read s' });
    expect(m.tools.s).toMatchObject({ scopes: ['s:read'], http: { credentials: ['oauth', 'key'] } });
  });
});

describe('hostile strings', () => {
  it('carries quotes, comment terminators and line breaks from the document into code that compiles and round-trips', { timeout: 120_000 }, async () => {
    const { importAndGenerate } = await import('./helpers.js');
    const { typecheck } = await import('../regen/typecheck.js');
    const evil = "it's \"quoted\" */ `${x}` \\ end\u2028line";
    const doc = api({
      "/a'b/{id}/x*/y": {
        get: {
          operationId: 'evil',
          summary: `Evil */ summary\n# not a key: ${evil}`,
          description: evil,
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string', description: evil } },
            { name: "X-Q'*~", in: 'header', schema: { type: 'string', enum: [evil] } },
            { name: 'Not a header', in: 'header', schema: { type: 'string' } },
          ],
          responses: ok,
        },
      },
    });
    const dir = join(s.dir, 'hostile');
    (await import('node:fs')).mkdirSync(dir, { recursive: true });
    const file = join(dir, 'openapi.yaml');
    writeFileSync(file, stringify(doc));
    const { manifest, outDir } = await importAndGenerate(file, dir);
    const m = parse((await import('node:fs')).readFileSync(manifest, 'utf8'));
    expect(m.tools.evil.description).toBe(evil);
    expect(m.tools.evil.http).toMatchObject({ path: "/a'b/{id}/x*/y", headers: { "X-Q'*~": "X-Q'*~" } });
    expect(m.tools.evil.input.properties['Not a header']).toBeUndefined();
    expect(typecheck(outDir)).toEqual([]);
    const { upstream } = await import(join(outDir, 'upstream.gen.ts'));
    const seen: string[] = [];
    const { configureUpstream } = await import(join(outDir, 'upstream.gen.ts'));
    configureUpstream({ baseUrl: 'http://upstream.invalid', fetch: async (url: URL, init: RequestInit) => (seen.push(String(url), (init.headers as Headers).get("X-Q'*~") ?? ''), Response.json({ id: 1 })) });
    await upstream.tools.evil({ id: 'a b', "X-Q'*~": 'v' }, { signal: new AbortController().signal });
    expect(seen).toEqual(["http://upstream.invalid/a'b/a%20b/x*/y", 'v']);
  });
});
