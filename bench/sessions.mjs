/**
 * Heap per idle 2025-11-25 session over Streamable HTTP: `node --expose-gc bench/sessions.mjs gen|hand
 * <module> [catalog] <count>` serves the server in this process, opens `count` sessions (initialize +
 * initialized, then idle), and prints the heap growth per session after a full collection, as JSON.
 */
import { startHttpServer } from 'mcp-gen/runtime';

const [kind, module, ...rest] = process.argv.slice(2);
const count = Number(rest.at(-1));
const quiet = { write: () => true };
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function serve() {
  if (kind === 'gen') {
    const m = await import(module);
    const host = await startHttpServer(m.factory, { port: 0, stderr: quiet, sessionIdleMs: 3_600_000 });
    return { url: host.url, close: () => host.close() };
  }
  const { readFileSync } = await import('node:fs');
  const hw = await import(module);
  const prepared = hw.prepare(JSON.parse(readFileSync(rest[0], 'utf8')));
  const { freePort } = await import('./http.mjs');
  const port = await freePort();
  const server = await hw.serveHttp(() => hw.buildServer(prepared), port);
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((r) => server.close(r)) };
}

async function open(url) {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sessions', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`no session (${init.status})`);
  const note = await fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await note.text();
}

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const host = await serve();
await open(host.url); // the first session loads whatever is lazy
const before = heap();
for (let i = 0; i < count; i++) await open(host.url);
const after = heap();
const rssMb = process.memoryUsage().rss / 2 ** 20;
process.stdout.write(`${JSON.stringify({ kind, count, perSessionKb: (after - before) / count / 1024, rssMb })}\n`);
await host.close();
process.exit(0);
