/**
 * The HTTP host's Node ↔ fetch adapter: what a client observes of how answers are written and of a
 * client that goes away. A 2026-07-28 call whose client disconnects is ended (its handler's signal
 * aborts) although plain calls carry no abort signal; a 2025-11-25 event stream whose client
 * disconnects is released, so the client resumes it with `Last-Event-ID` while the call still runs;
 * a JSON answer carries its length; an oversized body is refused with 413.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';

const quiet = { write: () => true };
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'adapter-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A test-controlled gate: `wait` calls block on it; each call's start and abort are reported. */
class Gate {
  private release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  readonly started: Array<() => void> = [];
  readonly aborted: string[] = [];
  private nextStart: Promise<void> = this.armStart();
  private armStart(): Promise<void> {
    return new Promise((resolve) => this.started.push(resolve));
  }
  /** Resolves when the next `wait` call is running. */
  whenStarted(): Promise<void> {
    const current = this.nextStart;
    this.nextStart = this.armStart();
    return current;
  }
  open(): void {
    this.release();
  }
  factory = (): McpServer => {
    const server = new McpServer({ name: 'adapter-test', version: '1.0.0' });
    server.registerTool('wait', { description: 'Waits for the test' }, async (ctx) => {
      const aborted = new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }));
      this.started.shift()?.();
      await Promise.race([this.released, aborted]);
      if (ctx.mcpReq.signal.aborted) this.aborted.push(String(ctx.mcpReq.id));
      return { content: [{ type: 'text', text: 'done' }] };
    });
    server.registerTool('quick', { description: 'Answers at once' }, async () => ({ content: [{ type: 'text', text: 'quick' }] }));
    return server;
  };
}

let host: HttpServerHandle | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const modernCall = (url: string, id: number, name: string, signal?: AbortSignal): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: MODERN_META } }),
    ...(signal ? { signal } : {}),
  });

async function openSession(url: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'adapter-test', version: '1' } } }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id');
  if (!session) throw new Error(`no session (${init.status})`);
  const note = await fetch(url, { method: 'POST', headers: legacyHeaders(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await note.text();
  return session;
}

const legacyHeaders = (session: string): Record<string, string> => ({ ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session });

/** Reads SSE events from `body` until `until` says stop; returns them as `{ id, data }`. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (events: Array<{ id?: string; data: string }>) => boolean): Promise<Array<{ id?: string; data: string }>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: Array<{ id?: string; data: string }> = [];
  let text = '';
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) !== -1) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.*)$/m.exec(block)?.[1] ?? '';
      events.push({ ...(id === undefined ? {} : { id }), data });
    }
  }
  await reader.cancel().catch(() => undefined);
  return events;
}

describe('HTTP host adapter', () => {
  it('ends a 2026-07-28 call whose client went away, and the instance then serves the next call', async () => {
    const gate = new Gate();
    host = await startHttpServer(gate.factory, { port: 0, stderr: quiet });
    const client = new AbortController();
    const started = gate.whenStarted();
    const pending = modernCall(host.url, 41, 'wait', client.signal).catch((error: unknown) => error);
    await started;
    client.abort();
    await pending;
    await expect.poll(() => gate.aborted, { timeout: 10_000 }).toEqual(['41']);
    const next = await modernCall(host.url, 42, 'quick');
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ id: 42, result: { content: [{ type: 'text', text: 'quick' }] } });
  });

  it('sends a JSON answer in one piece, with its length', async () => {
    const gate = new Gate();
    host = await startHttpServer(gate.factory, { port: 0, stderr: quiet });
    const response = await modernCall(host.url, 7, 'quick');
    const text = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ id: 7, result: { content: [{ text: 'quick' }] } });
  });

  it('releases a 2025-11-25 stream whose client went away, so the client resumes it while the call runs', async () => {
    const gate = new Gate();
    host = await startHttpServer(gate.factory, { port: 0, stderr: quiet });
    const session = await openSession(host.url);
    const first = new AbortController();
    const started = gate.whenStarted();
    const call = await fetch(host.url, {
      method: 'POST',
      headers: legacyHeaders(session),
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
      signal: first.signal,
    });
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [priming] = await readEvents(call.body!, (events) => events.length > 0);
    expect(priming?.id).toBeTruthy();
    await started;
    first.abort();
    // The disconnect is not a cancellation (2025-11-25): the call goes on, and the stream is resumable now.
    let resumed: Response | undefined;
    await expect
      .poll(
        async () => {
          resumed = await fetch(host!.url, { method: 'GET', headers: { ...legacyHeaders(session), accept: 'text/event-stream', 'last-event-id': priming!.id! } });
          if (resumed.status !== 200) await resumed.body?.cancel();
          return resumed.status;
        },
        { timeout: 10_000 },
      )
      .toBe(200);
    gate.open();
    const events = await readEvents(resumed!.body!, (got) => got.some((e) => e.data.includes('"id":5')));
    const answer = events.find((e) => e.data.includes('"id":5'));
    expect(JSON.parse(answer!.data)).toMatchObject({ id: 5, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(gate.aborted).toEqual([]);
  });

  it('refuses a body over maxBodyBytes with 413 and closes the connection', async () => {
    const gate = new Gate();
    host = await startHttpServer(gate.factory, { port: 0, stderr: quiet, maxBodyBytes: 1024 });
    const response = await fetch(host.url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(64 * 1024) } }) });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: 'Request body exceeds 1024 bytes' } });
  });
});
