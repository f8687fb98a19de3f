/**
 * Heap per idle 2025-11-25 session over Streamable HTTP: `node --expose-gc bench/sessions.mjs gen|hand
 * <module> [catalog] <count>` serves the server in this process, opens `count` sessions (initialize +
 * initialized, then idle), and prints the heap growth per session after a full collection, as JSON.
 */
import { startHttpServer } from 'mcp-gen/runtime';
import { freePort, openLegacySession as open } from './http.mjs';

const [kind, module, ...rest] = process.argv.slice(2);
const count = Number(rest.at(-1));
const quiet = { write: () => true };

async function serve() {
  if (kind === 'gen') {
    const m = await import(module);
    const host = await startHttpServer(m.factory, { port: 0, stderr: quiet, sessionIdleMs: 3_600_000 });
    return { url: host.url, close: () => host.close() };
  }
  const { readFileSync } = await import('node:fs');
  const hw = await import(module);
  const prepared = hw.prepare(JSON.parse(readFileSync(rest[0], 'utf8')));
  const port = await freePort();
  const server = await hw.serveHttp(() => hw.buildServer(prepared), port);
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((r) => server.close(r)) };
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
