/**
 * When a thin instance's connection closes, the SDK builds a "Connection closed" error and hands it to
 * whatever is still pending. Its stack is captured only when someone can observe the error: a handler
 * still running (its signal's reason), a listener a finished handler left on its signal, an outgoing
 * request still awaiting its answer. A 2026-07-28 exchange that closed after its answer was sent, with
 * nothing listening, gets it without a stack (that capture was a measurable part of every call).
 * These exchanges go through the SDK entry (`directLane: false`): the direct lane keeps its instances
 * connected between exchanges, so only a client that goes away closes one there.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { closeErrorObservable, type SdkServerInternals } from '../../generator/runtime/shared.js';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createSwitchServer } from './switch.fixture.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'close-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

const call = (url: string, id: number, name: string, signal?: AbortSignal): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: META } }),
    ...(signal ? { signal } : {}),
  });

/** Frames in an error's stack (lines after the message). */
const frames = (error: unknown): number => ((error as Error).stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).length;

/** The switch fixture plus raw SDK tools that keep their request's signal, so the test sees its abort reason. */
function probeServer(signals: AbortSignal[], heard: unknown[], started: () => void): McpServer {
  const server = createSwitchServer();
  server.registerTool('quick', { description: 'Answers at once' }, async (ctx) => {
    signals.push(ctx.mcpReq.signal);
    return { content: [{ type: 'text', text: 'quick' }] };
  });
  server.registerTool('listening', { description: 'Answers at once, leaving a listener on its signal' }, async (ctx) => {
    const signal = ctx.mcpReq.signal;
    signals.push(signal);
    signal.addEventListener('abort', () => heard.push(signal.reason), { once: true });
    return { content: [{ type: 'text', text: 'listening' }] };
  });
  server.registerTool('slow', { description: 'Runs until its signal aborts' }, async (ctx) => {
    signals.push(ctx.mcpReq.signal);
    started();
    await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
    return { content: [{ type: 'text', text: 'ended' }] };
  });
  return server;
}

let host: HttpServerHandle | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('the close error of a shared instance', () => {
  const signals: AbortSignal[] = [];
  const heard: unknown[] = [];
  let started: () => void = () => undefined;
  const start = async (): Promise<string> => {
    signals.length = 0;
    heard.length = 0;
    host = await startHttpServer(() => probeServer(signals, heard, () => started()), { port: 0, stderr: { write: () => true }, directLane: false });
    return host.url;
  };

  it('has no stack when the exchange closed after its answer and nothing listens', async () => {
    const url = await start();
    const res = await call(url, 1, 'quick');
    expect(await res.json()).toMatchObject({ id: 1, result: { content: [{ text: 'quick' }] } });
    await expect.poll(() => signals[0]?.aborted).toBe(true);
    expect(signals[0]!.reason).toMatchObject({ message: 'Connection closed' });
    expect(frames(signals[0]!.reason)).toBe(0);
  });

  it('keeps its stack for a listener a finished handler left on its signal', async () => {
    const url = await start();
    const res = await call(url, 2, 'listening');
    expect(await res.json()).toMatchObject({ id: 2, result: { content: [{ text: 'listening' }] } });
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ message: 'Connection closed' });
    expect(frames(heard[0])).toBeGreaterThan(0);
  });

  it('keeps its stack for a handler still running when its client goes away', async () => {
    const url = await start();
    const running = new Promise<void>((resolve) => (started = resolve));
    const client = new AbortController();
    const pending = call(url, 3, 'slow', client.signal).catch(() => undefined);
    await running;
    client.abort();
    await pending;
    await expect.poll(() => signals[0]?.aborted, { timeout: 10_000 }).toBe(true);
    expect(signals[0]!.reason).toMatchObject({ message: 'Connection closed' });
    expect(frames(signals[0]!.reason)).toBeGreaterThan(0);
  });

  it('counts an outgoing request awaiting its answer, or a request other than the answered one, as observing', () => {
    const answered = new AbortController();
    const internals = (responses: number, inbound: [unknown, AbortController][]): SdkServerInternals => ({
      _responseHandlers: new Map(Array.from({ length: responses }, (_, i) => [i, () => undefined])),
      _requestHandlerAbortControllers: new Map(inbound),
    });
    expect(closeErrorObservable(internals(0, []), undefined)).toBe(false);
    expect(closeErrorObservable(internals(0, [[7, answered]]), answered)).toBe(false);
    expect(closeErrorObservable(internals(1, [[7, answered]]), answered)).toBe(true);
    // A request running under the id of one already answered (a client may reuse ids) is not the answered one.
    expect(closeErrorObservable(internals(0, [[7, new AbortController()]]), answered)).toBe(true);
    expect(closeErrorObservable(internals(0, [[7, answered], [9, new AbortController()]]), answered)).toBe(true);
    expect(closeErrorObservable({}, answered)).toBe(true);
  });
});
