/** The upstream client generated servers call: requests it builds, signals it passes, failures it maps. */
import { describe, expect, it } from 'vitest';
import { createUpstream, type UpstreamConfig } from '../../generator/runtime/upstream.js';
import { ResourceNotFound, ToolError } from '../../generator/runtime/errors.js';

const config: UpstreamConfig = {
  baseUrl: 'https://api.invalid/v1/',
  baseUrlEnv: 'DEMO_BASE_URL',
  timeoutMs: 5000,
  credentials: {
    key: { in: 'query', name: 'api_key', env: 'DEMO_KEY' },
    basic: { in: 'header', name: 'Authorization', scheme: 'basic', env: 'DEMO_BASIC' },
    session: { in: 'cookie', name: 'sid', env: 'DEMO_SID' },
  },
};

function recorder(answer: () => Response | Promise<Response> = () => Response.json({ ok: true })) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: URL, init: RequestInit) => (calls.push({ url: String(url), init }), answer())) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('createUpstream', () => {
  it('fills the path, query and headers from the input and credentials from the environment', async () => {
    const r = recorder();
    const env = { DEMO_KEY: 'k 1', DEMO_BASIC: 'ann:pw', DEMO_SID: 's=1' };
    await createUpstream(config, { fetch: r.fetch, env }).tool(
      { method: 'GET', path: '/pets/{id}', response: 'json', query: { tags: 'tag' }, headers: { rid: 'X-Request-Id' }, credentials: ['key', 'basic', 'session'], structured: true },
      { id: 'a/b', tags: ['x', 'y'], rid: 'r1' },
      new AbortController().signal,
    );
    const { url, init } = r.calls[0]!;
    expect(url).toBe('https://api.invalid/v1/pets/a%2Fb?tag=x&tag=y&api_key=k+1');
    const headers = init.headers as Headers;
    expect(headers.get('x-request-id')).toBe('r1');
    expect(headers.get('authorization')).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    expect(headers.get('cookie')).toBe('sid=s%3D1');
  });

  it('prefers configured options over the environment, and says which variable to set when there is no base URL', async () => {
    const r = recorder();
    await createUpstream(config, { fetch: r.fetch, env: { DEMO_BASE_URL: 'https://env.invalid' }, baseUrl: 'https://opt.invalid' }).tool({ method: 'GET', path: '/x', response: 'json' }, {}, new AbortController().signal);
    expect(r.calls[0]!.url).toBe('https://opt.invalid/x');
    const none = createUpstream({ ...config, baseUrl: undefined }, { fetch: r.fetch, env: {} });
    await expect(none.tool({ method: 'GET', path: '/x', response: 'json' }, {}, new AbortController().signal)).rejects.toThrow(/set DEMO_BASE_URL/);
  });

  it("passes the call's AbortSignal through: a cancelled call rejects with the call's reason, not an upstream error", async () => {
    const calls: AbortSignal[] = [];
    const fetch = ((_: URL, init: RequestInit) => new Promise((_, reject) => {
      calls.push(init.signal!);
      init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
    })) as unknown as typeof globalThis.fetch;
    const call = new AbortController();
    const pending = createUpstream(config, { fetch }).tool({ method: 'GET', path: '/x', response: 'json' }, {}, call.signal);
    await Promise.resolve();
    call.abort(new Error('client cancelled'));
    await expect(pending).rejects.toThrow('client cancelled');
    expect(calls[0]!.aborted).toBe(true);
  });

  it('never puts a secret or a 5xx body into the message the model sees', async () => {
    const r = recorder(() => new Response('internal: token=hunter2', { status: 503 }));
    const error = await createUpstream(config, { fetch: r.fetch, credentials: { key: 'hunter2' } }).tool({ method: 'GET', path: '/x', response: 'json', credentials: ['key'] }, {}, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('carries a 4xx text body as the message, and makes a resource 404 "not found"', async () => {
    const r = recorder(() => new Response('quota exceeded for this key', { status: 429, statusText: 'Too Many Requests' }));
    await expect(createUpstream(config, { fetch: r.fetch }).tool({ method: 'GET', path: '/x', response: 'json' }, {}, new AbortController().signal)).rejects.toThrow('The upstream API refused the request (HTTP 429 Too Many Requests): quota exceeded for this key');
    const missing = recorder(() => new Response(null, { status: 404 }));
    await expect(createUpstream(config, { fetch: missing.fetch }).resource({ method: 'GET', path: '/x', response: 'json' }, {}, new AbortController().signal)).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('returns JSON as text for a tool without output, and non-image binaries as embedded blobs without the query', async () => {
    const json = recorder(() => Response.json([1, 2]));
    expect(await createUpstream(config, { fetch: json.fetch }).tool({ method: 'GET', path: '/x', response: 'json' }, {}, new AbortController().signal)).toBe('[1,2]');
    const pdf = recorder(() => new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'content-type': 'application/pdf' } }));
    const out = await createUpstream(config, { fetch: pdf.fetch, credentials: { key: 'hunter2' } }).tool({ method: 'GET', path: '/doc', response: 'binary', credentials: ['key'] }, {}, new AbortController().signal);
    expect(out).toEqual([{ type: 'resource', resource: { uri: 'https://api.invalid/v1/doc', mimeType: 'application/pdf', blob: Buffer.from('%PDF').toString('base64') } }]);
    const read = await createUpstream(config, { fetch: pdf.fetch }).resource({ method: 'GET', path: '/doc', response: 'binary' }, {}, new AbortController().signal);
    expect(read).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it('sends cookie parameters from the input beside a credential cookie', async () => {
    const r = recorder();
    await createUpstream(config, { fetch: r.fetch, env: { DEMO_SID: 's1' } }).tool({ method: 'GET', path: '/x', response: 'json', cookies: { lang: 'lang', theme: 'ui-theme' }, credentials: ['session'] }, { lang: 'fr; x=1', theme: undefined }, new AbortController().signal);
    expect((r.calls[0]!.init.headers as Headers).get('cookie')).toBe('lang=fr%3B%20x%3D1; sid=s1');
  });
});

describe('request bodies', () => {
  const send = async (route: Partial<Parameters<ReturnType<typeof createUpstream>['tool']>[0]>, body: unknown) => {
    const r = recorder();
    await createUpstream(config, { fetch: r.fetch }).tool({ method: 'POST', path: '/b', response: 'json', body: 'body', ...route }, { body }, new AbortController().signal);
    const { init } = r.calls[0]!;
    return new Request('https://api.invalid/b', { method: 'POST', body: init.body as BodyInit, headers: init.headers });
  };

  it('sends JSON by default', async () => {
    const req = await send({}, { a: 1 });
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(await req.json()).toEqual({ a: 1 });
  });

  it('sends a form body as application/x-www-form-urlencoded, repeating arrays and leaving out absent fields', async () => {
    const req = await send({ bodyType: 'form' }, { name: 'Rex & co', tags: ['a', 'b'], age: 3, gone: null });
    expect(req.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await req.text()).toBe('name=Rex+%26+co&tags=a&tags=b&age=3');
  });

  it('sends a multipart body with its base64 file fields as bytes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const req = await send({ bodyType: 'multipart', files: ['photo'] }, { photo: png.toString('base64'), note: 'hi', meta: { k: 1 } });
    expect(req.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await req.formData();
    const photo = form.get('photo') as File;
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(png);
    expect(form.get('note')).toBe('hi');
    expect(form.get('meta')).toBe('{"k":1}');
  });

  it('sends a binary body as the bytes of its base64 value with its MIME type, and a text body as is', async () => {
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    const bin = await send({ bodyType: 'binary', contentType: 'image/png' }, bytes.toString('base64'));
    expect(bin.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bin.arrayBuffer())).toEqual(bytes);
    const text = await send({ bodyType: 'text', contentType: 'text/csv' }, 'a,b\n1,2');
    expect(text.headers.get('content-type')).toBe('text/csv');
    expect(await text.text()).toBe('a,b\n1,2');
  });
});
