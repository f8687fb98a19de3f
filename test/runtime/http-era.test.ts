/**
 * The host routes a request carrying the 2026-07-28 envelope claim to the modern entry without asking the
 * SDK's `isLegacyRequest` first. That shortcut must never change where a request goes: for every body shape
 * below (both eras, batches, posted responses, `initialize`, an unsupported revision, header/body
 * mismatches) the host's decision equals the SDK's, and a request taken by the shortcut is answered exactly
 * as the SDK's own modern-only entry answers it.
 */
import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsModernEnvelope, isClaimlessLegacyCall, isLegacyEra } from '../../generator/runtime/host/era.js';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createServer } from './fixture.js';

const envelope = (version: unknown = '2026-07-28'): Record<string, unknown> => ({
  [PROTOCOL_VERSION_META_KEY]: version,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
const call = (meta?: Record<string, unknown>): Record<string, unknown> => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {}, ...(meta ? { _meta: meta } : {}) } });

/** name → body, MCP-Protocol-Version header, whether the shortcut decides it. */
const CASES: [string, unknown, string | undefined, boolean][] = [
  ['a 2026-07-28 call', call(envelope()), '2026-07-28', true],
  ['a claim naming a revision the endpoint does not serve', call(envelope('2099-01-01')), '2099-01-01', true],
  ['a claim naming a 2025 revision', call(envelope('2025-11-25')), '2025-11-25', true],
  ['a claim whose header names another revision', call(envelope()), '2025-11-25', true],
  ['a claim without the MCP-Protocol-Version header', call(envelope()), undefined, true],
  ['a malformed envelope behind a claim', call({ [PROTOCOL_VERSION_META_KEY]: 5 }), '2026-07-28', true],
  ['a 2026-07-28 notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: envelope() } }, '2026-07-28', true],
  ['a claim on a body that is not JSON-RPC', { hello: 1, params: { _meta: envelope() } }, undefined, true],
  ['a posted result carrying a claim', { ...call(envelope()), result: {} }, '2026-07-28', false],
  ['a posted error carrying a claim', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' }, params: { _meta: envelope() } }, undefined, false],
  ['initialize with a claim that is not a valid envelope (the legacy handshake)', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' }, _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } } }, undefined, false],
  ['initialize with a valid modern envelope', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: envelope() } }, '2026-07-28', false],
  ['a batch whose element carries a claim', [call(envelope())], undefined, false],
  ['a 2025 batch', [call()], undefined, false],
  ['a 2025-11-25 call', call(), '2025-11-25', false],
  ['a 2025 call with a modern header and no claim', call(), '2026-07-28', false],
  ['a 2025 initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, undefined, false],
  ['a _meta without the claim', call({ progressToken: 1 }), '2025-11-25', false],
];

const post = (url: string, body: unknown, version: string | undefined): Request =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': 'tools/call', 'mcp-name': 'ping', ...(version ? { 'mcp-protocol-version': version } : {}) },
    body: JSON.stringify(body),
  });

describe('the era shortcut', () => {
  it.each(CASES)('decides %s as the SDK does', async (_name, body, version, shortcut) => {
    const request = post('http://localhost/mcp', body, version);
    expect(claimsModernEnvelope(body)).toBe(shortcut);
    expect(await isLegacyEra(request, body)).toBe(await isLegacyRequest(request, body));
  });

  it('is taken only for requests the SDK classifies as modern', async () => {
    for (const [, body, version, shortcut] of CASES) if (shortcut) expect(await isLegacyRequest(post('http://localhost/mcp', body, version), body)).toBe(false);
  });
});

/** name → body, MCP-Protocol-Version header, whether the 2025 call shortcut decides it (as legacy). */
const LEGACY_CASES: [string, unknown, string | undefined, boolean][] = [
  ['a 2025-11-25 call', call(), '2025-11-25', true],
  ['a 2025 call without the header', call(), undefined, true],
  ['a 2025 call whose header is padded with spaces and tabs', call(), ' \t2025-06-18 ', true],
  ['a 2025 call with an empty header', call(), '', true],
  ['a 2025 call with a progress token', call({ progressToken: 'p' }), '2025-11-25', true],
  ['a 2025 call whose header names a modern revision', call(), '2026-07-28', false],
  ['a 2025 call whose padded header names a modern revision', call(), ' 2026-07-28\t', false],
  ['a 2025 call whose header names no date', call(), 'latest', false],
  ['a call with a claim', call(envelope('2025-11-25')), '2025-11-25', false],
  ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, undefined, false],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, '2025-11-25', false],
  ['a request with an extra member', { ...call(), extra: 1 }, '2025-11-25', false],
  ['a request whose id is null', { ...call(), id: null }, '2025-11-25', false],
  ['a posted result', { jsonrpc: '2.0', id: 1, result: {} }, '2025-11-25', false],
  ['a batch', [call()], '2025-11-25', false],
];

describe('the 2025 call shortcut', () => {
  it.each(LEGACY_CASES)('decides %s as the SDK does', async (_name, body, version, shortcut) => {
    const request = post('http://localhost/mcp', body, version);
    expect(isClaimlessLegacyCall(body, request.headers.get('mcp-protocol-version'))).toBe(shortcut);
    const sdk = await isLegacyRequest(request, body);
    if (shortcut) expect(sdk).toBe(true);
    expect(await isLegacyEra(request, body)).toBe(sdk);
  });

  it('agrees with isLegacyRequest on random bodies and headers around a 2025 call', async () => {
    const absent = fc.constant(undefined);
    const meta = fc.oneof(absent, fc.constantFrom<unknown>({}, { progressToken: 1 }, { progressToken: null }, { [PROTOCOL_VERSION_META_KEY]: '2025-11-25' }, { [PROTOCOL_VERSION_META_KEY]: 7 }, envelope(), null, []));
    const params = fc.oneof(absent, fc.record({ name: fc.constant('ping'), arguments: fc.constantFrom<unknown>({}, [], 1), _meta: meta }, { requiredKeys: ['name'] }), fc.constantFrom<unknown>(null, [], 'x'));
    const body = fc
      .record({
        jsonrpc: fc.oneof({ arbitrary: fc.constant('2.0'), weight: 6 }, fc.constantFrom<unknown>('1.0', 2, undefined)),
        id: fc.oneof({ arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), weight: 6 }, fc.constantFrom<unknown>(null, 1.5, undefined, {})),
        method: fc.oneof({ arbitrary: fc.constantFrom('tools/call', 'ping', 'initialize', 'notifications/initialized'), weight: 6 }, fc.constantFrom<unknown>(undefined, 3)),
        params,
        extra: fc.oneof({ arbitrary: absent, weight: 6 }, fc.constantFrom('result', 'error', 'foo')),
      })
      .map(({ extra, ...members }) => {
        const parsed = JSON.parse(JSON.stringify(members)) as Record<string, unknown>;
        return extra === undefined ? parsed : { ...parsed, [extra]: {} };
      });
    const header = fc.oneof(absent, fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '2026-07-28', '2099-01-01', ' 2026-07-28 ', '\t2025-11-25', '', 'x', '2026-07-27', '2026-07-28a'));
    const taken = { legacy: 0, sdk: 0 };
    await fc.assert(
      fc.asyncProperty(body, header, async (b, version) => {
        const request = post('http://localhost/mcp', b, version);
        const sdk = await isLegacyRequest(request, b);
        const shortcut = isClaimlessLegacyCall(b, request.headers.get('mcp-protocol-version'));
        taken[shortcut ? 'legacy' : 'sdk']++;
        if (shortcut) expect(sdk, JSON.stringify([b, version])).toBe(true);
        expect(await isLegacyEra(request, b), JSON.stringify([b, version])).toBe(sdk);
      }),
      { numRuns: 3000 },
    );
    expect(taken.legacy, JSON.stringify(taken)).toBeGreaterThan(200);
    expect(taken.sdk, JSON.stringify(taken)).toBeGreaterThan(200);
  });
});

describe('requests the shortcut takes, through the host', () => {
  let host: HttpServerHandle;
  const factory = (ctx: { era?: 'legacy' | 'modern' }) => createServer({ era: ctx.era, scopes: [], stderr: { write: () => true } });
  const sdk = createMcpHandler(factory, { legacy: 'reject' });
  beforeAll(async () => {
    host = await startHttpServer(factory, { port: 0, stderr: { write: () => true } });
  });
  afterAll(async () => {
    await host.close();
    await sdk.close();
  });

  it.each(CASES.filter(([, , , shortcut]) => shortcut))('answers %s as the SDK entry does', async (_name, body, version) => {
    const ours = await fetch(post(host.url, body, version));
    const theirs = await sdk.fetch(post('http://localhost/mcp', body, version));
    expect(ours.status).toBe(theirs.status);
    const code = async (res: Response): Promise<unknown> => {
      const text = await res.text();
      if (text === '') return undefined;
      const message = JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').find((l) => l.startsWith('data:'))!.slice(5) : text) as { error?: { code: number }; result?: unknown };
      return message.error ? message.error.code : 'result';
    };
    expect(await code(ours)).toEqual(await code(theirs));
  });
});
