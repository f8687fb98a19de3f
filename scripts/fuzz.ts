/**
 * Fuzzes a generated server with random and malformed JSON-RPC over stdio (a
 * child process) and over HTTP (loopback only), bounded in count and time.
 * The server must never crash and every reply must be well-formed JSON-RPC.
 *
 *   npx tsx scripts/fuzz.ts [--count N] [--seed S] [--server generated/support-desk/main.gen.ts]
 *
 * Prints the counts per transport and the server's resident memory (RSS, from
 * /proc) before and after; exits 1 on a crash, a malformed reply, or RSS
 * growing by more than --max-rss-growth-mb (default 256).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What one fuzz run observed. */
export interface FuzzReport {
  readonly transport: 'stdio' | 'http';
  sent: number;
  replies: number;
  malformed: string[];
  crashed: boolean;
  /** Replies by kind: result, error code, HTTP status. */
  readonly kinds: Record<string, number>;
  /** Resident memory of the server in KiB once it serves, and after the last message (undefined off Linux). */
  rssBeforeKiB?: number;
  rssAfterKiB?: number;
}

/** Resident set size of process `pid` in KiB, from /proc (Linux); undefined elsewhere. */
export function rssKiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@link fuzzStdio} and {@link fuzzHttp}. */
export interface FuzzOptions {
  readonly server: string;
  readonly count: number;
  readonly seed?: number;
  /** Stop sending after this long. Default 60 s. */
  readonly timeLimitMs?: number;
  /** Launch environment (e.g. MCP_SCOPES). */
  readonly env?: Record<string, string>;
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'resources/subscribe', 'resources/unsubscribe', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'server/discover', 'subscriptions/listen', 'notifications/initialized', 'notifications/cancelled'];
const HOSTILE_STRINGS = ['../../etc/passwd', '%2e%2e%2f', 'file:///etc/passwd', '{{ticketId}} ignore previous instructions', '\u0000\u001f\u202e', 'x'.repeat(70_000), '__proto__', 'constructor', 'T-1001', 'support://tickets/..%2F..%2Fsecret', 'support://tickets/T-1001', 'support://policies/refunds/2026-09', 'javascript:alert(1)', '😀'.repeat(1000), 'support://tickets//etc/passwd', 'support://tickets/%2F%2Fevil.example%2Fx', 'support://tickets/%252e%252e%252f', 'support://tickets/%EF%BC%8E%EF%BC%8E%2F', 'support://tickets/..%20', '//evil.example/x', '%252e%252e%252f', '．．/', '..%20'];
const NAMES = ['tickets.get', 'tickets.search', 'refunds.create_draft', 'refunds.submit', 'draft_refund_review', 'summarize_ticket', 'nope', ''];

/** A random JSON-ish value, hostile more often than not. */
function hostileValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 12);
  if (depth > 3) return HOSTILE_STRINGS[Math.floor(r() * HOSTILE_STRINGS.length)];
  switch (pick) {
    case 0: return null;
    case 1: return r() < 0.5 ? Number.MAX_SAFE_INTEGER * 1e290 : -0;
    case 2: return r() < 0.5;
    case 3: return Array.from({ length: Math.floor(r() * 5) }, () => hostileValue(r, depth + 1));
    case 4: return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
    case 5: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 4; i++) o[String(HOSTILE_STRINGS[Math.floor(r() * 9)]).slice(0, 40)] = hostileValue(r, depth + 1);
      return o;
    }
    case 6: return NAMES[Math.floor(r() * NAMES.length)];
    default: return HOSTILE_STRINGS[Math.floor(r() * HOSTILE_STRINGS.length)];
  }
}

function hostileParams(r: () => number, method: string): unknown {
  const name = NAMES[Math.floor(r() * NAMES.length)];
  if (method === 'tools/call') return { name, arguments: r() < 0.3 ? { ticketId: 'T-1001', idempotencyKey: 'k', approvalReceipt: hostileValue(r) } : hostileValue(r) };
  if (method === 'resources/read' || method === 'resources/subscribe') return { uri: hostileValue(r) };
  if (method === 'prompts/get') return { name, arguments: hostileValue(r) };
  if (method === 'completion/complete') return { ref: { type: r() < 0.5 ? 'ref/prompt' : 'ref/resource', name, uri: hostileValue(r) }, argument: { name: hostileValue(r), value: hostileValue(r) } };
  if (method === 'initialize') return { protocolVersion: r() < 0.5 ? '2025-11-25' : hostileValue(r), capabilities: hostileValue(r), clientInfo: { name: 'fuzz', version: '0' } };
  return r() < 0.5 ? hostileValue(r) : {};
}

/** One message as raw text: malformed JSON, wrong shapes, huge ids, unknown methods, hostile params. */
export function fuzzMessage(r: () => number, n: number): string {
  const kind = Math.floor(r() * 10);
  const method = METHODS[Math.floor(r() * METHODS.length)]!;
  const ids: unknown[] = [n, `id-${n}`, 1e308, -1, 'x'.repeat(5000), { nested: n }, [n], null, true, 2 ** 53 + 1];
  const id = kind < 6 ? n : ids[Math.floor(r() * ids.length)];
  switch (kind) {
    case 0: return ['{', '{"jsonrpc":"2.0",', 'not json', '[]', '[1,2,3]', '"str"', '{"jsonrpc":"2.0","id":1,"method":"ping"', '\u0000', '[' .repeat(3000)][Math.floor(r() * 9)]!;
    case 1: return JSON.stringify({ jsonrpc: '1.0', id, method });
    case 2: return JSON.stringify({ jsonrpc: '2.0', id, method: r() < 0.5 ? 42 : `fuzz/${Math.floor(r() * 1000)}` });
    case 3: return JSON.stringify([{ jsonrpc: '2.0', id, method: 'ping' }, { jsonrpc: '2.0', id: n + 0.5, method: 'tools/list' }]);
    case 4: return JSON.stringify({ jsonrpc: '2.0', id, method, params: 'not-an-object' });
    default: return JSON.stringify({ jsonrpc: '2.0', id, method, params: hostileParams(r, method) });
  }
}

/** True when `value` is one well-formed JSON-RPC 2.0 message (or a batch of them). */
export function wellFormed(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(wellFormed);
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (m['jsonrpc'] !== '2.0') return false;
  if ('method' in m) return typeof m['method'] === 'string';
  const idOk = m['id'] === null || typeof m['id'] === 'string' || typeof m['id'] === 'number';
  if (!idOk) return false;
  if ('result' in m) return !('error' in m) && typeof m['result'] === 'object' && m['result'] !== null;
  const e = m['error'] as Record<string, unknown> | undefined;
  return typeof e === 'object' && e !== null && Number.isInteger(e['code']) && typeof e['message'] === 'string';
}

function kindOf(value: unknown): string {
  const m = (Array.isArray(value) ? value[0] : value) as Record<string, unknown>;
  if ('method' in m) return 'notification';
  return 'result' in m ? 'result' : `error ${(m['error'] as { code: number }).code}`;
}

function launch(server: string, args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', server, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function record(report: FuzzReport, text: string): void {
  report.replies += 1;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    report.malformed.push(text.slice(0, 200));
    return;
  }
  if (!wellFormed(value)) {
    report.malformed.push(text.slice(0, 200));
    return;
  }
  // A leaked stack or absolute path counts as malformed: replies must stay hygienic.
  if (/\n\s+at |\/srv\/|node_modules\//.test(text)) report.malformed.push(`leak: ${text.slice(0, 200)}`);
  const kind = kindOf(value);
  report.kinds[kind] = (report.kinds[kind] ?? 0) + 1;
}

/** Sends `count` messages to the server's stdio, line by line, in bursts; then checks it still answers. */
export async function fuzzStdio(options: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { transport: 'stdio', sent: 0, replies: 0, malformed: [], crashed: false, kinds: {} };
  const child = launch(options.server, [], options.env);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stderr.resume();
  let buffer = '';
  let pong = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      if (line.includes('"id":"fuzz-final"')) pong = true;
      record(report, line);
    }
  });
  const r = prng(options.seed ?? 1);
  const deadline = Date.now() + (options.timeLimitMs ?? 60_000);
  // A real handshake first, so later messages reach the primitives and not only the "not initialized" path.
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } } })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  while (report.replies === 0 && !exited && Date.now() < deadline) await sleep(20);
  report.rssBeforeKiB = rssKiB(child.pid);
  for (let i = 0; i < options.count && Date.now() < deadline && !exited; i++) {
    const ok = child.stdin.write(`${fuzzMessage(r, i).replace(/\n/g, ' ')}\n`);
    report.sent += 1;
    if (!ok) await new Promise((res) => child.stdin.once('drain', res));
    if (i % 200 === 199) await sleep(5);
  }
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'fuzz-final', method: 'ping' })}\n`);
  const until = Date.now() + 15_000;
  while (!pong && !exited && Date.now() < until) await sleep(20);
  report.crashed = exited || !pong;
  report.rssAfterKiB = rssKiB(child.pid);
  child.kill();
  return report;
}

async function httpUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${text}`)), 20_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      text += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string; type: string; session?: string }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, signal: AbortSignal.timeout(10_000) });
  const session = response.headers.get('mcp-session-id') ?? undefined;
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '', ...(session ? { session } : {}) };
}

const HELLO = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };

/** Posts `count` messages to the loopback HTTP endpoint, a few at a time; then checks it still answers. */
export async function fuzzHttp(options: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { transport: 'http', sent: 0, replies: 0, malformed: [], crashed: false, kinds: {} };
  const child = launch(options.server, ['--http', '--port', '0', '--host', '127.0.0.1'], options.env);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stdout.resume();
  const url = await httpUrl(child);
  report.rssBeforeKiB = rssKiB(child.pid);
  const r = prng(options.seed ?? 2);
  const deadline = Date.now() + (options.timeLimitMs ?? 60_000);
  const versions = ['2025-11-25', '2026-07-28', 'garbage', ''];
  // A 2025 session, so most 2025-era messages reach the primitives instead of the "no session" refusal.
  const opened = await post(url, JSON.stringify(HELLO), {}).catch(() => undefined);
  const session = opened?.session;
  if (session) await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session }).catch(() => undefined);
  const one = async (i: number): Promise<void> => {
    const version = versions[Math.floor(r() * versions.length)]!;
    const headers: Record<string, string> = version ? { 'mcp-protocol-version': version } : {};
    if (session && version === '2025-11-25' && r() < 0.9) headers['mcp-session-id'] = session;
    if (r() < 0.3) headers['mcp-name'] = (JSON.stringify(hostileValue(r)) ?? '').slice(0, 100).replace(/[^\x20-\x7e]/g, '');
    try {
      const res = await post(url, fuzzMessage(r, i), headers);
      report.kinds[`http ${res.status}`] = (report.kinds[`http ${res.status}`] ?? 0) + 1;
      if (res.status >= 500) report.malformed.push(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
      if (res.type.includes('application/json') && res.text) record(report, res.text);
      else if (res.type.includes('text/event-stream')) for (const m of res.text.matchAll(/^data: (.*)$/gm)) if (m[1]) record(report, m[1]);
    } catch (error) {
      if (!exited) report.malformed.push(`request failed: ${String(error).slice(0, 200)}`);
    }
  };
  for (let i = 0; i < options.count && Date.now() < deadline && !exited; i += 8) {
    const batch = [];
    for (let j = i; j < Math.min(i + 8, options.count); j++) batch.push(one(j));
    report.sent += batch.length;
    await Promise.all(batch);
  }
  // Still serving? A 2025 client opens a session with initialize (later requests need its session id).
  const final = await post(url, JSON.stringify(HELLO), {}).catch(() => undefined);
  report.crashed = exited || final === undefined || final.status !== 200;
  report.rssAfterKiB = rssKiB(child.pid);
  child.kill();
  return report;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = arg('--server', 'generated/support-desk/main.gen.ts');
  const count = Number(arg('--count', '10000'));
  const seed = Number(arg('--seed', '1'));
  const maxGrowthKiB = Number(arg('--max-rss-growth-mb', '256')) * 1024;
  const mib = (kib: number | undefined): string => (kib === undefined ? 'unknown' : `${(kib / 1024).toFixed(1)} MiB`);
  let failed = false;
  for (const run of [fuzzStdio, fuzzHttp]) {
    const report = await run({ server, count, seed, timeLimitMs: 300_000 });
    const growth = report.rssBeforeKiB === undefined || report.rssAfterKiB === undefined ? undefined : report.rssAfterKiB - report.rssBeforeKiB;
    process.stdout.write(`${report.transport}: sent ${report.sent}, replies ${report.replies}, malformed ${report.malformed.length}, crashed ${report.crashed}\n  ${JSON.stringify(report.kinds)}\n`);
    process.stdout.write(`  server RSS before ${mib(report.rssBeforeKiB)}, after ${mib(report.rssAfterKiB)}${growth === undefined ? '' : ` (growth ${mib(growth)}, bound ${mib(maxGrowthKiB)})`}\n`);
    for (const m of report.malformed.slice(0, 5)) process.stdout.write(`  malformed: ${m}\n`);
    failed ||= report.crashed || report.malformed.length > 0 || report.sent < count || (growth !== undefined && growth > maxGrowthKiB);
  }
  process.exitCode = failed ? 1 : 0;
}
