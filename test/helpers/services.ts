/**
 * Real services for the fleet tests: `redis-server` and `nginx` from the
 * machine's packages, started on loopback ports chosen at run time and
 * stopped by whoever started them. Tests that need a binary which is absent
 * skip with the reason `missing(...)` gives (CI installs both).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a binary lives, or undefined when it is not installed. */
export function which(binary: string): string | undefined {
  for (const dir of ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin']) {
    try {
      execFileSync('test', ['-x', join(dir, binary)]);
      return join(dir, binary);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * Why a suite cannot run here, or undefined when every binary is present. With
 * MCP_GEN_REQUIRE_SERVICES set (as .ci/run sets it) a missing binary is an error, not a skip.
 */
export function missing(...binaries: string[]): string | undefined {
  const absent = binaries.filter((b) => which(b) === undefined);
  if (absent.length === 0) return undefined;
  const reason = `needs ${absent.join(' and ')} (apt-get install -y ${absent.join(' ')}; .ci/run installs them)`;
  if (process.env['MCP_GEN_REQUIRE_SERVICES']) throw new Error(`MCP_GEN_REQUIRE_SERVICES is set but this machine ${reason}`);
  return reason;
}

/** A free TCP port on 127.0.0.1 (bound once by the kernel's choice, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on `port`. */
export async function waitForPort(port: number, child?: ChildProcess, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port}`);
}

export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A redis-server of our own: no persistence, loopback only. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (the port stays reserved for `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  start(): Promise<void>;
}

/** Starts redis-server on a free loopback port. */
export async function startRedis(): Promise<RedisServer> {
  const binary = which('redis-server');
  if (!binary) throw new Error(missing('redis-server'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' });
    await waitForPort(port, child);
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, stop: () => stopChild(child) };
}

/** nginx in front of `upstreams`, round-robin, with SSE passed through unbuffered. */
export interface Balancer {
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** The upstream (`127.0.0.1:port`) of every request proxied so far, in order. */
  upstreams(): string[];
  stop(): Promise<void>;
}

/** One replica behind the balancer: its id (the prefix of the 2025 session ids it issues) and port. */
export interface Upstream {
  readonly id: string;
  readonly port: number;
}

/**
 * The nginx configuration of {@link startNginx}: round-robin for every request without a session
 * (all 2026 traffic, 2025 `initialize`), and 2025 requests routed by the replica id their
 * `Mcp-Session-Id` starts with (the deployment recipe of docs/deploy.md).
 */
export function nginxConfig(dir: string, port: number, upstreams: readonly Upstream[]): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstream '$upstream_addr';
  access_log ${dir}/access.log upstream;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream replicas {
${upstreams.map((u) => `    server 127.0.0.1:${u.port} max_fails=0;`).join('\n')}
    keepalive 64;
    keepalive_timeout 30s;
  }
  map $http_mcp_session_id $mcp_upstream {
    default replicas;
${upstreams.map((u) => `    "~^${u.id}\\." 127.0.0.1:${u.port};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://$mcp_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host 127.0.0.1:${port};
      proxy_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream off;
    }
  }
}
`;
}

/** Starts nginx on a free loopback port, balancing over `upstreams`. */
export async function startNginx(upstreams: readonly Upstream[]): Promise<Balancer> {
  const binary = which('nginx');
  if (!binary) throw new Error(missing('nginx'));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-nginx-'));
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  const child = spawn(binary, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  await waitForPort(port, child);
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    upstreams: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean) : []),
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
