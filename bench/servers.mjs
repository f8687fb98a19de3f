/**
 * Server measurements: the hand-written and the generated server, always
 * measured alternately in one run, so load on the machine hits both alike.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const WARMUP = 200;
const CALLS = 2000;
const CALL = { name: 'area0.get_item_0', arguments: { itemId: 'I-1' } };
const newClient = () => new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function stdioClient(args) {
  const client = newClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

/** Spawn → connect → tools/list answered, in ms, for each named server, alternating. */
export async function coldStart(runs, servers) {
  const out = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  for (let i = 0; i < runs + 1; i++) {
    for (const [k, args] of Object.entries(servers)) {
      const t0 = now();
      const client = await stdioClient(args);
      const { tools } = await client.listTools();
      const ms = now() - t0;
      if (tools.length === 0) throw new Error(`${k} listed no tools`);
      await client.close();
      if (i > 0) out[k].push(ms); // the first round warms the disk cache
    }
  }
  return out;
}

async function timedCall(client) {
  const t0 = now();
  await client.callTool(CALL);
  return now() - t0;
}

async function warm(client) {
  const r = await client.callTool(CALL);
  if (r.isError || r.structuredContent?.id !== 'I-1') throw new Error(`unexpected result: ${JSON.stringify(r)}`);
  for (let i = 0; i < WARMUP; i++) await client.callTool(CALL);
}

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

/**
 * Median per-call latency of each client over one run of CALLS calls each, the two taking turns in blocks of
 * `block` calls (which goes first alternates), so drifting load on the machine hits both alike.
 */
async function perCallPaired(hand, gen, block) {
  await warm(hand);
  await warm(gen);
  const out = { hand: [], gen: [] };
  for (let b = 0; b < CALLS / block; b++) {
    const order = b % 2 === 0 ? [['hand', hand], ['gen', gen]] : [['gen', gen], ['hand', hand]];
    for (const [k, client] of order) for (let i = 0; i < block; i++) out[k].push(await timedCall(client));
  }
  return { hand: median(out.hand), gen: median(out.gen) };
}

/** Median per-call latency over stdio of each run (2,000 calls each after warm-up, taking turns call by call). */
export async function stdioCalls(runs, handArgs, genArgs) {
  const hand = await stdioClient(handArgs);
  const gen = await stdioClient(genArgs);
  const out = { hand: [], gen: [] };
  for (let i = 0; i < runs; i++) {
    const r = await perCallPaired(hand, gen, 1);
    out.hand.push(r.hand);
    out.gen.push(r.gen);
  }
  await hand.close();
  await gen.close();
  return out;
}

async function memoryClient(factory) {
  const [c, s] = InMemoryTransport.createLinkedPair();
  const host = serveStdio(factory, { transport: s });
  const client = newClient();
  await client.connect(c);
  return { client, close: async () => { await client.close(); await host.close(); } };
}

/** The same per-call measurement with both servers in this process. */
export async function inMemoryCalls(runs, handModule, catalogPath, genModule) {
  const hw = await import(handModule);
  const prepared = hw.prepare(JSON.parse(readFileSync(catalogPath, 'utf8')));
  const gm = await import(genModule);
  const hand = await memoryClient(() => hw.buildServer(prepared));
  const gen = await memoryClient(gm.factory);
  const out = { hand: [], gen: [] };
  for (let i = 0; i < runs; i++) {
    // Blocks of 100 rather than single calls: both servers share this thread, and work one defers
    // (the generated server's audit lines) must not land on the other's calls.
    const r = await perCallPaired(hand.client, gen.client, 100);
    out.hand.push(r.hand);
    out.gen.push(r.gen);
  }
  await hand.close();
  await gen.close();
  return out;
}
