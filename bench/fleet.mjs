/**
 * `npm run bench:fleet` (after `npm run build`): calls per second and p50/p99
 * latency of the generated support-desk server as one process with the
 * in-memory store, and as 1, 2 and 3 replicas sharing redis-server behind
 * nginx; both protocol eras, concurrency 8 and 32, a read tool
 * (`tickets.get`) and an idempotent write (`refunds.create_draft`, a fresh
 * key per call). Redis round trips per call are counted by Redis itself
 * (`INFO commandstats` before and after each cell): the commands a client
 * sends (EVALSHA, EVAL, SET, PUBLISH, …), apart from the commands Lua scripts
 * run inside one round trip, which are reported in a column of their own.
 * Needs redis-server and nginx. CELL_MS per cell (default 1000). Prints a
 * Markdown table; nothing here is part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { freePort, startNginx, startRedis, stopChild } from '../test/helpers/services.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(root, 'generated', 'support-desk', 'main.gen.ts');
const CELL_MS = Number(process.env.CELL_MS ?? 1000);
const ERAS = [
  ['2025-11-25', 'legacy'],
  ['2026-07-28', { pin: '2026-07-28' }],
];
const TOOLS = {
  read: () => ({ name: 'tickets.get', arguments: { ticketId: 'T-1001' } }),
  write: () => ({ name: 'refunds.create_draft', arguments: { invoiceId: 'INV-2001', amountMinor: 1, currency: 'EUR', reasonCode: 'duplicate', idempotencyKey: randomUUID() } }),
};
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function startReplica(redisUrl, id) {
  const port = await freePort();
  const env = { ...process.env, MCP_REPLICA_ID: id };
  if (redisUrl) env.MCP_REDIS_URL = redisUrl;
  else delete env.MCP_REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--http', '--port', String(port)], { cwd: root, env, stdio: 'ignore' });
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { port, child };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`replica ${id} did not start`);
}

async function client(url, mode) {
  // The draft write asks for the user's confirmation: the bench's user confirms every draft.
  const c = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } });
  c.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One cell: `concurrency` clients calling `tool` for CELL_MS; returns rate, p50, p99 and failures. */
async function cell(url, mode, tool, concurrency) {
  const clients = await Promise.all(Array.from({ length: concurrency }, () => client(url, mode)));
  for (const c of clients) await c.callTool(TOOLS[tool]()).catch(() => undefined);
  const latencies = [];
  let failures = 0;
  const t0 = now();
  const end = t0 + CELL_MS;
  await Promise.all(
    clients.map(async (c) => {
      while (now() < end) {
        const start = now();
        const r = await c.callTool(TOOLS[tool]()).catch(() => ({ isError: true }));
        latencies.push(now() - start);
        if (r.isError) failures++;
      }
    }),
  );
  const elapsed = now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  return { calls: latencies.length, rate: (latencies.length / elapsed) * 1000, p50: pct(latencies, 50), p99: pct(latencies, 99), failures };
}

/** Commands the store sends itself; everything else in commandstats ran inside a script. */
const CLIENT_COMMANDS = new Set(['evalsha', 'eval', 'set', 'publish', 'ping', 'subscribe', 'unsubscribe', 'script']);

/** { roundTrips, inScripts } so far, by Redis's own counters (the INFO calls themselves excluded). */
async function commandsProcessed(raw) {
  const info = await raw.info('commandstats');
  let roundTrips = 0;
  let inScripts = 0;
  for (const [, name, calls] of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
    if (name === 'info') continue;
    if (CLIENT_COMMANDS.has(name)) roundTrips += Number(calls);
    else inScripts += Number(calls);
  }
  return { roundTrips, inScripts };
}

async function main() {
  const redis = await startRedis();
  const raw = new Redis(redis.url);
  const rows = [];
  const setups = [
    { name: 'one process, memory', replicas: 1, redis: false },
    { name: '1 replica, Redis, nginx', replicas: 1, redis: true },
    { name: '2 replicas, Redis, nginx', replicas: 2, redis: true },
    { name: '3 replicas, Redis, nginx', replicas: 3, redis: true },
  ];
  try {
    for (const setup of setups) {
      const replicas = await Promise.all(Array.from({ length: setup.replicas }, (_, i) => startReplica(setup.redis ? redis.url : undefined, `r${i + 1}`)));
      const balancer = setup.redis ? await startNginx(replicas.map((r, i) => ({ id: `r${i + 1}`, port: r.port }))) : undefined;
      const url = balancer ? balancer.url : `http://127.0.0.1:${replicas[0].port}/mcp`;
      try {
        for (const [era, mode] of ERAS) {
          for (const tool of Object.keys(TOOLS)) {
            for (const concurrency of [8, 32]) {
              const before = await commandsProcessed(raw);
              const r = await cell(url, mode, tool, concurrency);
              // Each client's warm-up call is counted too, hence r.calls + concurrency below.
              const after = await commandsProcessed(raw);
              const per = (n) => (setup.redis ? (n / (r.calls + concurrency)).toFixed(2) : '–');
              rows.push([setup.name, era, tool, concurrency, r.rate.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), per(after.roundTrips - before.roundTrips), per(after.inScripts - before.inScripts), r.failures]);
              process.stderr.write(`${rows.at(-1).join(' | ')}\n`);
            }
          }
        }
      } finally {
        await balancer?.stop();
        await Promise.all(replicas.map((r) => stopChild(r.child)));
      }
    }
  } finally {
    raw.disconnect();
    await redis.stop();
  }
  const header = ['setup', 'era', 'tool', 'concurrency', 'calls/s', 'p50 ms', 'p99 ms', 'Redis round trips/call', 'commands inside scripts/call', 'failed'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  const load = loadavg().map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average at the end ${load}, ${CELL_MS} ms per cell\n\n${lines.join('\n')}\n`);
}

await main();
