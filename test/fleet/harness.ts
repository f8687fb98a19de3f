/**
 * A fleet for the end-to-end tests: redis-server, replicas of the support-desk
 * example (`replica.fixture.ts`, each `--http --port P` with MCP_REDIS_URL) and
 * nginx in front, all on loopback ports chosen now. `stop()` ends what it
 * started. Needs `npm run build` (the example imports `mcp-gen/runtime` from dist/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths.js';
import { freePort, startNginx, startRedis, stopChild, type Balancer, type RedisServer } from '../helpers/services.js';

const FIXTURE = join(repoRoot, 'test', 'fleet', 'replica.fixture.ts');

/** One running replica. */
export interface Replica {
  readonly id: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  readonly tenant: string | undefined;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGKILL, no clean-up at all (a crashed machine). */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop; resolves with the exit code. */
  terminate(): Promise<number | null>;
}

/** Options of {@link startFleet}. */
export interface FleetOptions {
  /** The tenant of each replica (MCP_TENANT); the count is the number of replicas. */
  readonly tenants: readonly (string | undefined)[];
  /** Put nginx in front (default true). */
  readonly balancer?: boolean;
  /** Extra environment and arguments for every replica. */
  readonly env?: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
}

/** A running fleet. */
export interface Fleet {
  readonly redis: RedisServer;
  readonly replicas: readonly Replica[];
  readonly balancer: Balancer | undefined;
  /** Lines the instrumented handlers wrote (`start|effect|submit <replica> <key>`). */
  runs(): string[];
  /** While this file exists, `refunds.create_draft` holds before its effect. */
  readonly holdFile: string;
  hold(): void;
  release(): void;
  stop(): Promise<void>;
}

async function waitHealthy(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`replica on ${port} exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`replica on ${port} never became healthy:\n${output()}`);
}

async function startReplica(id: string, tenant: string | undefined, redisUrl: string, dir: string, options: FleetOptions): Promise<Replica> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    MCP_REDIS_URL: redisUrl,
    MCP_REPLICA_ID: id,
    FLEET_RUN_LOG: join(dir, 'runs.log'),
    FLEET_HOLD: join(dir, 'hold'),
    ...options.env,
  };
  delete env['MCP_TENANT'];
  if (tenant !== undefined) env['MCP_TENANT'] = tenant;
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, '--http', '--port', String(port), ...(options.args ?? [])], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await waitHealthy(port, child, () => stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    id,
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    tenant,
    stderr: () => stderr,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async terminate() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Starts Redis, the replicas (in parallel) and nginx. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-fleet-'));
  const redis = await startRedis();
  const started: Replica[] = [];
  try {
    const replicas = await Promise.all(options.tenants.map((tenant, i) => startReplica(`r${i + 1}`, tenant, redis.url, dir, options)));
    started.push(...replicas);
    const balancer = options.balancer === false ? undefined : await startNginx(replicas.map((r) => ({ id: r.id, port: r.port })));
    const holdFile = join(dir, 'hold');
    return {
      redis,
      replicas,
      balancer,
      holdFile,
      runs: () => (existsSync(join(dir, 'runs.log')) ? readFileSync(join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean) : []),
      hold: () => writeFileSync(holdFile, ''),
      release: () => rmSync(holdFile, { force: true }),
      async stop() {
        await balancer?.stop();
        await Promise.all(replicas.map((r) => r.kill()));
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(started.map((r) => r.kill()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export { stopChild };
