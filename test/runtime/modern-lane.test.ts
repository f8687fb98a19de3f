/**
 * The direct lane answers a 2026-07-28 request exactly as the SDK's `createMcpHandler` would, and takes
 * only the requests the SDK entry would serve as they are. The same requests go to two hosts of the same
 * server, one with the lane and one without; status, content type and body must be the same, and the lane
 * must have served exactly the requests marked for it. Then what only the lane can get wrong: isolation of
 * concurrent callers on pooled instances, the client identity of each request, a client that goes away,
 * and the request a handler sees.
 */
import { McpServer, isJSONRPCRequest, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { connectionOfRequest } from '../../generator/runtime/connection.js';
import { ModernLane, isPlainJsonRpcRequest, shareContextShapes } from '../../generator/runtime/host/modernLane.js';
import { createServer } from './fixture.js';

const quiet = { write: () => true };
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'lane-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const expiresAt = Math.floor(Date.now() / 1000) + 3600;

/** What the probe tools saw, by call. */
const probes: Record<string, unknown>[] = [];
let release: () => void = () => undefined;
let entered: () => void = () => undefined;

/** The fixture server plus raw SDK tools that report what the lane hands a handler. */
function probeServer(era: 'legacy' | 'modern' | undefined): McpServer {
  const server = createServer({ ...(era ? { era } : {}), stderr: quiet });
  server.registerTool('probe', { description: 'Reports its request' }, async (ctx: ServerContext) => {
    const instance = connectionOfRequest(ctx)?.server;
    const req = ctx.http?.req;
    probes.push({
      client: instance?.server.getClientVersion()?.name ?? null,
      elicitation: instance?.server.getClientCapabilities()?.elicitation !== undefined,
      isRequest: req instanceof Request,
      header: req?.headers.get('x-probe') ?? null,
      url: req ? new URL(req.url).pathname : null,
      principal: ctx.http?.authInfo?.clientId ?? null,
    });
    return { content: [{ type: 'text', text: 'probed' }] };
  });
  server.registerTool('wait', { description: 'Runs until released or aborted' }, async (ctx: ServerContext) => {
    entered();
    await new Promise<void>((resolve) => {
      release = resolve;
      ctx.mcpReq.signal.addEventListener('abort', () => {
        probes.push({ aborted: String((ctx.mcpReq.signal.reason as Error)?.message) });
        resolve();
      }, { once: true });
    });
    return { content: [{ type: 'text', text: 'released' }] };
  });
  return server;
}

interface Case {
  readonly name: string;
  /**
   * What the lane does with it: serves it; takes it and is refused by the dispatch before any handler
   * ran (the SDK entry answers); or leaves it to the SDK entry from the start.
   */
  readonly lane: 'serves' | 'refused' | 'skips';
  readonly body: unknown;
  /** Headers replacing the ones derived from the body (a value of null removes one). */
  readonly headers?: Record<string, string | null>;
  /** A body sent as this text instead of JSON. */
  readonly raw?: string;
}

/** A request with `meta` as its envelope (null: none). */
const request = (id: number | string, method: string, params: Record<string, unknown> = {}, meta: unknown = META): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, ...(meta === null ? {} : { _meta: meta }) },
});

const CASES: Case[] = [
  { name: 'a tool call', lane: 'serves', body: request(1, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-1001' } }) },
  { name: 'a string id', lane: 'serves', body: request('call-a', 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-1001' } }) },
  { name: 'invalid arguments', lane: 'serves', body: request(2, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'nope' } }) },
  { name: 'a domain failure', lane: 'serves', body: request(3, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-0404' } }) },
  { name: 'an unknown tool', lane: 'serves', body: request(4, 'tools/call', { name: 'nope', arguments: {} }) },
  { name: 'progress notifications (event stream)', lane: 'serves', body: request(5, 'tools/call', { name: 'progress', arguments: {} }, { ...META, progressToken: 'p1' }) },
  { name: 'progress without a token', lane: 'serves', body: request(6, 'tools/call', { name: 'progress', arguments: {} }) },
  { name: 'a log line at the requested level', lane: 'serves', body: request(7, 'tools/call', { name: 'say', arguments: { text: 'hello' } }, { ...META, 'io.modelcontextprotocol/logLevel': 'debug' }) },
  { name: 'an approval asked of a client that can answer (input required)', lane: 'serves', body: request(44, 'tools/call', { name: 'refund', arguments: { amount: 5 } }, { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }) },
  { name: 'an approval a client cannot be asked for', lane: 'serves', body: request(45, 'tools/call', { name: 'refund', arguments: { amount: 5 } }) },
  { name: 'tools/list', lane: 'serves', body: request(8, 'tools/list') },
  { name: 'resources/list', lane: 'serves', body: request(9, 'resources/list') },
  { name: 'resources/templates/list', lane: 'serves', body: request(10, 'resources/templates/list') },
  { name: 'prompts/list', lane: 'serves', body: request(11, 'prompts/list') },
  { name: 'a template read', lane: 'serves', body: request(12, 'resources/read', { uri: 'support://tickets/T-1001' }) },
  { name: 'a fixed read', lane: 'serves', body: request(13, 'resources/read', { uri: 'support://policies/refunds/2026-09' }) },
  { name: 'a resource not found', lane: 'serves', body: request(14, 'resources/read', { uri: 'support://tickets/T-0000' }) },
  { name: 'an unknown URI', lane: 'serves', body: request(15, 'resources/read', { uri: 'nowhere://x' }) },
  { name: 'a prompt', lane: 'serves', body: request(16, 'prompts/get', { name: 'summarize', arguments: { topic: 'refunds' } }) },
  { name: 'a prompt missing an argument', lane: 'serves', body: request(17, 'prompts/get', { name: 'summarize', arguments: {} }) },
  { name: 'a completion', lane: 'serves', body: request(18, 'completion/complete', { ref: { type: 'ref/prompt', name: 'draft_refund_review' }, argument: { name: 'ticketId', value: 'T-100' } }) },
  { name: 'an invalid cursor shape', lane: 'serves', body: request(19, 'tools/list', { cursor: 5 }) },
  { name: 'server/discover', lane: 'skips', body: request(20, 'server/discover') },
  { name: 'Mcp-Name disagreeing with the body', lane: 'skips', body: request(21, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-1001' } }), headers: { 'mcp-name': 'echo' } },
  { name: 'Mcp-Name in its Base64 form', lane: 'skips', body: request(22, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-1001' } }), headers: { 'mcp-name': `=?base64?${Buffer.from('tickets.get').toString('base64')}?=` } },
  { name: 'Mcp-Name missing', lane: 'skips', body: request(23, 'tools/call', { name: 'tickets.get', arguments: { ticketId: 'T-1001' } }), headers: { 'mcp-name': null } },
  { name: 'Mcp-Method missing', lane: 'skips', body: request(24, 'tools/list'), headers: { 'mcp-method': null } },
  { name: 'Mcp-Method disagreeing', lane: 'skips', body: request(25, 'tools/list'), headers: { 'mcp-method': 'prompts/list' } },
  { name: 'MCP-Protocol-Version missing', lane: 'skips', body: request(26, 'tools/list'), headers: { 'mcp-protocol-version': null } },
  { name: 'MCP-Protocol-Version disagreeing', lane: 'skips', body: request(27, 'tools/list'), headers: { 'mcp-protocol-version': '2025-11-25' } },
  { name: 'an unsupported revision', lane: 'skips', body: request(28, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }), headers: { 'mcp-protocol-version': '2027-01-01' } },
  { name: 'an envelope without client capabilities', lane: 'refused', body: request(29, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }) },
  { name: 'an envelope with a malformed client info', lane: 'refused', body: request(30, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/clientInfo': 'me' }) },
  { name: 'an envelope with an unknown log level', lane: 'refused', body: request(38, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/logLevel': 'loud' }) },
  { name: 'client capabilities that are not an object', lane: 'refused', body: request(39, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/clientCapabilities': 'all' }) },
  { name: 'a progress token that is an object', lane: 'skips', body: request(40, 'tools/call', { name: 'progress', arguments: {} }, { ...META, progressToken: { t: 1 } }) },
  { name: 'a fractional progress token', lane: 'skips', body: request(41, 'tools/call', { name: 'progress', arguments: {} }, { ...META, progressToken: 1.5 }) },
  { name: 'a numeric progress token', lane: 'serves', body: request(42, 'tools/call', { name: 'progress', arguments: {} }, { ...META, progressToken: 7 }) },
  { name: 'a body that also carries result', lane: 'skips', body: { ...request(43, 'tools/list'), result: {} } },
  { name: 'no envelope', lane: 'skips', body: request(31, 'tools/list', {}, null) },
  { name: 'a notification', lane: 'skips', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: META } } },
  { name: 'a batch', lane: 'skips', body: [request(32, 'tools/list')] },
  { name: 'a posted response', lane: 'skips', body: { jsonrpc: '2.0', id: 33, result: {} } },
  { name: 'a fractional id', lane: 'skips', body: request(34.5, 'tools/list') },
  { name: 'no id', lane: 'skips', body: { jsonrpc: '2.0', method: 'tools/list', params: { _meta: META }, id: null } },
  { name: 'a text/plain body', lane: 'skips', body: request(35, 'tools/list'), headers: { 'content-type': 'text/plain' } },
  { name: 'a body that is not JSON', lane: 'skips', body: undefined, raw: '{"jsonrpc":' , headers: { 'mcp-method': 'tools/list' } },
  { name: 'an unknown method', lane: 'skips', body: request(36, 'tools/frobnicate') },
  { name: 'subscriptions/listen', lane: 'skips', body: request(37, 'subscriptions/listen', { notifications: { toolsListChanged: true } }) },
];

/** The standard headers a client sends for `body`, with the case's changes. */
function headersFor(c: Case): Record<string, string> {
  const body = c.body as { method?: string; params?: { name?: string; uri?: string } } | undefined;
  const base: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    ...(body?.method ? { 'mcp-method': body.method } : {}),
    ...(body?.params?.name !== undefined ? { 'mcp-name': body.params.name } : body?.params?.uri !== undefined ? { 'mcp-name': body.params.uri } : {}),
    ...c.headers,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
}

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: string;
}

/** The answer to `c`; a sealed `requestState` (it holds a time and a nonce) reads `<sealed>`. */
async function send(url: string, c: Case, extra: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { ...headersFor(c), ...extra }, body: c.raw ?? JSON.stringify(c.body) });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.text()).replace(/"requestState":"[^"]+"/g, '"requestState":"<sealed>"') };
}

/** The answers of both hosts to `c`, and what the lane did with it. */
async function both(c: Case, extra: Record<string, string> = {}): Promise<{ lane: Answer; sdk: Answer; taken: Case['lane'] }> {
  const served = vi.spyOn(ModernLane.prototype, 'serve');
  try {
    const lane = await send(withLane.url, c, extra);
    const outcomes = await Promise.all(served.mock.results.map((r) => r.value as Promise<boolean>));
    served.mockClear();
    const sdk = await send(withoutLane.url, c, extra);
    expect(served).not.toHaveBeenCalled();
    return { lane, sdk, taken: outcomes.length === 0 ? 'skips' : outcomes[0] ? 'serves' : 'refused' };
  } finally {
    served.mockRestore();
  }
}

/** One of `changes` now and then, else nothing. */
function rarely<T>(...changes: T[]): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.constantFrom(...changes), weight: 1 });
}

/** Requests around the plain shape: each part kept, or now and then changed or dropped. */
function arbitraryCase(): fc.Arbitrary<Case> {
  const id = fc.oneof({ arbitrary: fc.integer({ min: -5, max: 1e6 }), weight: 3 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 2 }, fc.constantFrom(1.5, null, 1e20, true));
  const target = fc.constantFrom(
    { method: 'tools/call', params: { name: 'tickets.get', arguments: { ticketId: 'T-1001' } } },
    { method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } },
    { method: 'tools/call', params: { name: 'progress', arguments: {} } },
    { method: 'tools/call', params: { name: 'nope', arguments: {} } },
    { method: 'tools/call', params: { name: 'tickets.get', arguments: 'x' } },
    { method: 'tools/call', params: { arguments: {} } },
    { method: 'tools/list', params: {} },
    { method: 'tools/list', params: { cursor: 'c' } },
    { method: 'resources/read', params: { uri: 'support://tickets/T-1001' } },
    { method: 'resources/read', params: { uri: 7 } },
    { method: 'resources/templates/list', params: {} },
    { method: 'prompts/get', params: { name: 'summarize', arguments: { topic: 'x' } } },
    { method: 'prompts/list', params: {} },
    { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'draft_refund_review' }, argument: { name: 'ticketId', value: 'T-10' } } },
    { method: 'server/discover', params: {} },
    { method: 'ping', params: {} },
  );
  const metaChange = fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.constantFrom<[string, unknown]>(
    ['io.modelcontextprotocol/protocolVersion', '2025-11-25'],
    ['io.modelcontextprotocol/protocolVersion', 5],
    ['io.modelcontextprotocol/clientCapabilities', undefined],
    ['io.modelcontextprotocol/clientCapabilities', { elicitation: { form: {} } }],
    ['io.modelcontextprotocol/clientCapabilities', []],
    ['io.modelcontextprotocol/clientInfo', undefined],
    ['io.modelcontextprotocol/clientInfo', { name: 5 }],
    ['io.modelcontextprotocol/logLevel', 'info'],
    ['io.modelcontextprotocol/logLevel', 'loud'],
    ['progressToken', 'p'],
    ['progressToken', 3],
    ['progressToken', -0.5],
    ['progressToken', null],
    ['other', { any: true }],
  ), weight: 1 });
  const headerChange = rarely<[string, string | null]>(
    ['mcp-name', null],
    ['mcp-name', 'echo'],
    ['mcp-method', null],
    ['mcp-method', 'tools/list'],
    ['mcp-protocol-version', null],
    ['mcp-protocol-version', '2025-11-25'],
    ['content-type', 'text/plain'],
  );
  const extra = rarely<Record<string, unknown>>({ result: {} }, { error: { code: 1, message: 'x' } }, { jsonrpc: '1.0' }, { params: [] }, { id: undefined });
  return fc.record({ id, target, metaChange, headerChange, extra }).map(({ id: i, target: t, metaChange: m, headerChange: h, extra: e }) => {
    const meta: Record<string, unknown> = { ...META };
    if (m) {
      if (m[1] === undefined) delete meta[m[0]];
      else meta[m[0]] = m[1];
    }
    const body: Record<string, unknown> = { jsonrpc: '2.0', id: i, method: t.method, params: { ...t.params, _meta: meta }, ...e };
    return { name: 'random', lane: 'serves', body, ...(h ? { headers: { [h[0]]: h[1] } } : {}) };
  });
}

let withLane: HttpServerHandle;
let withoutLane: HttpServerHandle;

beforeAll(async () => {
  withLane = await startHttpServer((ctx) => probeServer(ctx.era), { port: 0, stderr: quiet });
  withoutLane = await startHttpServer((ctx) => probeServer(ctx.era), { port: 0, stderr: quiet, directLane: false });
});
afterAll(async () => {
  await withLane.close();
  await withoutLane.close();
});

/** Members of a JSON-RPC request body, each valid, invalid in a way the SDK's schema tells apart, or absent. */
function arbitraryBody(): fc.Arbitrary<unknown> {
  const absent = fc.constant(undefined);
  const idLike = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constantFrom(2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, 1.5, -0, null, true, [], {}));
  const record = (members: Record<string, fc.Arbitrary<unknown>>) =>
    fc.record(members, { requiredKeys: [] }).chain((r) => fc.constantFrom<unknown>(r, [r], null, 'text'));
  const related = fc.oneof(absent, record({ taskId: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), ttl: fc.integer() }));
  const meta = fc.oneof(absent, record({ progressToken: idLike, 'io.modelcontextprotocol/related-task': related, other: fc.jsonValue({ maxDepth: 1 }) }));
  const params = fc.oneof(absent, record({ _meta: meta, name: fc.string({ maxLength: 3 }), arguments: fc.jsonValue({ maxDepth: 1 }) }));
  const member = (valid: fc.Arbitrary<unknown>, ...invalid: unknown[]) => fc.oneof({ arbitrary: valid, weight: 4 }, absent, fc.constantFrom(...invalid));
  return fc
    .record({
      jsonrpc: member(fc.constant('2.0'), '2', '1.0', 2, null),
      id: member(idLike, null),
      method: member(fc.constantFrom('tools/call', 'ping', ''), 1, null, {}),
      params,
      extra: fc.oneof({ arbitrary: absent, weight: 6 }, fc.constantFrom('result', 'error', 'foo', '__proto__')),
    })
    .map(({ extra, ...members }) => {
      // Built as JSON and parsed, as the host gets a body: absent members vanish, `__proto__` is an own key.
      const text = JSON.stringify(members);
      return JSON.parse(extra === undefined ? text : `{"${extra}":{}${text === '{}' ? '' : `,${text.slice(1, -1)}`}}`);
    });
}

describe('the lane tells a JSON-RPC request apart as the SDK does', () => {
  it('agrees with isJSONRPCRequest on random bodies around the request shape', () => {
    const verdicts = { yes: 0, no: 0 };
    fc.assert(
      fc.property(arbitraryBody(), (body) => {
        const sdk = isJSONRPCRequest(body);
        verdicts[sdk ? 'yes' : 'no']++;
        expect(isPlainJsonRpcRequest(body), JSON.stringify(body)).toBe(sdk);
      }),
      { numRuns: 5000 },
    );
    expect(verdicts.yes, JSON.stringify(verdicts)).toBeGreaterThan(250);
    expect(verdicts.no, JSON.stringify(verdicts)).toBeGreaterThan(250);
  });

  it('agrees on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        expect(isPlainJsonRpcRequest(body), JSON.stringify(body)).toBe(isJSONRPCRequest(body));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the direct lane answers as the SDK entry', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const { lane, sdk, taken } = await both(c);
    expect(taken).toBe(c.lane);
    expect(lane).toEqual(sdk);
  });

  it('answers random requests around the plain shape as the SDK entry does', async () => {
    const taken = { serves: 0, refused: 0, skips: 0 };
    await fc.assert(
      fc.asyncProperty(arbitraryCase(), async (c) => {
        const answers = await both(c);
        taken[answers.taken]++;
        expect(answers.lane).toEqual(answers.sdk);
      }),
      { numRuns: 200 },
    );
    // The random requests reach every way the lane can go (about 80 served, 10 refused and 110 skipped in
    // 200: a run with none refused has odds of about 1 in 40,000).
    for (const way of ['serves', 'refused', 'skips'] as const) expect(taken[way], JSON.stringify(taken)).toBeGreaterThan(way === 'refused' ? 0 : 20);
  });

  it('answers an event stream as the SDK entry does, frame by frame', async () => {
    const c = CASES.find((x) => x.name.startsWith('progress notifications'))!;
    const answer = await send(withLane.url, c);
    expect(answer.type).toBe('text/event-stream');
    const frames = answer.body.split('\n\n').filter(Boolean);
    expect(frames.map((f) => JSON.parse(f.split('data: ')[1]!).method ?? 'result')).toEqual(['notifications/progress', 'notifications/progress', 'result']);
  });
});

describe('pooled instances on the direct lane', () => {
  beforeEach(() => {
    probes.length = 0;
  });

  const probe = (id: number, meta: unknown = META): Case => ({ name: 'probe', lane: 'serves', body: request(id, 'tools/call', { name: 'probe', arguments: {} }, meta) });

  it('give each request the client identity of its own envelope, and nothing of an earlier one', async () => {
    await send(withLane.url, probe(1, { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'first', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }));
    const { 'io.modelcontextprotocol/clientInfo': _, ...anonymous } = META;
    await send(withLane.url, probe(2, anonymous));
    expect(probes).toMatchObject([
      { client: 'first', elicitation: true },
      { client: null, elicitation: false },
    ]);
  });

  it('hand a handler the request as a web Request, with its headers and path', async () => {
    await send(withLane.url, probe(3), { 'x-probe': 'seen' });
    expect(probes).toEqual([{ client: 'lane-test', elicitation: false, isRequest: true, header: 'seen', url: '/mcp', principal: null }]);
  });

  it('serve concurrent callers on separate instances, each with its own identity', async () => {
    const principals = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const host = await startHttpServer((ctx) => probeServer(ctx.era), {
      port: 0,
      stderr: quiet,
      auth: { verifier: { verifyAccessToken: async (token: string): Promise<AuthInfo> => ({ token, clientId: token, scopes: ['tickets:read'], expiresAt, resource: new URL(host.url) }) } },
    });
    try {
      const answers = await Promise.all(principals.flatMap((p, i) => [0, 1, 2].map((k) => send(host.url, probe(100 + i * 3 + k), { authorization: `Bearer ${p}` }))));
      expect(answers.every((a) => a.status === 200 && a.body.includes('probed'))).toBe(true);
      const seen = probes.map((p) => p['principal']).sort();
      expect(seen).toEqual(principals.flatMap((p) => [p, p, p]).sort());
    } finally {
      await host.close();
    }
  });

  it('end an exchange whose client went away: its handler is aborted and its instance is not reused', async () => {
    const running = new Promise<void>((resolve) => (entered = resolve));
    const client = new AbortController();
    const c: Case = { name: 'wait', lane: 'serves', body: request(40, 'tools/call', { name: 'wait', arguments: {} }) };
    const pending = fetch(withLane.url, { method: 'POST', headers: headersFor(c), body: JSON.stringify(c.body), signal: client.signal }).catch(() => undefined);
    await running;
    client.abort();
    await pending;
    await expect.poll(() => probes).toEqual([{ aborted: 'Connection closed' }]);
    // The next request is served normally.
    expect((await send(withLane.url, probe(41))).status).toBe(200);
  });

  it('finish an exchange in flight when the host closes', async () => {
    const host = await startHttpServer((ctx) => probeServer(ctx.era), { port: 0, stderr: quiet, drainTimeoutMs: 5_000 });
    const running = new Promise<void>((resolve) => (entered = resolve));
    const c: Case = { name: 'wait', lane: 'serves', body: request(42, 'tools/call', { name: 'wait', arguments: {} }) };
    const answer = send(host.url, c);
    await running;
    const closed = host.close();
    release();
    expect(await answer).toMatchObject({ status: 200 });
    await closed;
  });
});

describe('contexts built without spreads on the lane', () => {
  type Built = Record<string, unknown> & { mcpReq: Record<string, unknown>; http?: Record<string, unknown> };
  type Build = (ctx: Built, info: unknown) => Built;
  const buildOf = (server: McpServer): Build => (server.server as unknown as { buildContext: Build }).buildContext.bind(server.server);
  const notified: unknown[] = [];
  const request = (http?: Record<string, unknown>): Built => ({
    sessionId: 's',
    mcpReq: { id: 9, method: 'tools/call', _meta: { k: 'v' }, signal: new AbortController().signal, notify: async (n: unknown) => void notified.push(n) },
    ...(http ? { http } : {}),
  });

  it('are the contexts the SDK builds: the same members in the same order, the SDK\'s own log', async () => {
    const server = new McpServer({ name: 'ctx', version: '1' }, { capabilities: { logging: {} } });
    const sdk = buildOf(server);
    expect(shareContextShapes(server)).toBe(true);
    const ours = buildOf(server);
    expect(ours).not.toBe(sdk);
    for (const [ctx, info] of [[request(), undefined], [request({ authInfo: { token: 'a' } }), { request: { url: 'u' }, closeSSEStream: () => undefined }]] as const) {
      const [a, b] = [sdk(ctx, info), ours(ctx, info)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      expect(Object.keys(b.mcpReq)).toEqual(Object.keys(a.mcpReq));
      expect({ ...b, mcpReq: undefined }).toEqual({ ...a, mcpReq: undefined });
      for (const key of Object.keys(a.mcpReq)) if (typeof a.mcpReq[key] !== 'function') expect(b.mcpReq[key]).toBe(a.mcpReq[key]);
    }
    // `log` is the SDK's: a 2025 connection with no level set logs everything, through the request's notify.
    notified.length = 0;
    await (ours(request(), undefined).mcpReq['log'] as (level: string, data: unknown) => Promise<void>)('info', 'hello');
    await (sdk(request(), undefined).mcpReq['log'] as (level: string, data: unknown) => Promise<void>)('info', 'hello');
    expect(notified).toHaveLength(2);
    expect(notified[0]).toEqual(notified[1]);
    expect(notified[0]).toMatchObject({ method: 'notifications/message', params: { level: 'info', data: 'hello' } });
  });

  it('are what every instance the lane pools builds', async () => {
    const fresh = new McpServer({ name: 'pooled', version: '1' }).server;
    expect(Object.hasOwn(fresh, 'buildContext')).toBe(false);
    const lane = await ModernLane.open(() => new McpServer({ name: 'pooled', version: '1' }), { maxIdle: 2, onerror: () => undefined });
    expect(lane).toBeDefined();
    try {
      const pooled = (lane as unknown as { idle: { server: McpServer }[] }).idle;
      expect(pooled).toHaveLength(1);
      const low = pooled[0]!.server.server;
      expect(Object.hasOwn(low, 'buildContext')).toBe(true);
      expect((low as unknown as { buildContext: Build }).buildContext).not.toBe((Object.getPrototypeOf(low) as { buildContext: Build }).buildContext);
    } finally {
      await lane!.close();
    }
  });

  it('are not used when the SDK builds its contexts otherwise', () => {
    const server = new McpServer({ name: 'ctx', version: '1' });
    const low = server.server as unknown as { buildContext: Build };
    const other: Build = (ctx) => ({ ...ctx, extra: true, mcpReq: { ...ctx.mcpReq, log: () => undefined, elicitInput: () => undefined, requestSampling: () => undefined } });
    low.buildContext = other;
    expect(shareContextShapes(server)).toBe(false);
    expect(low.buildContext).toBe(other);
  });
});
