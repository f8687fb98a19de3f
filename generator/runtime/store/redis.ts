/**
 * `createRedisStore()`: the {@link SharedStore} for a fleet of replicas, on
 * ioredis. ioredis is an optional peer dependency, imported only here and only
 * when a Redis URL is configured, so a single-process server installs nothing.
 *
 * - Atomic: claims, renewals, completions and releases are Lua scripts (see
 *   `scripts.ts`); single use is `SET NX PX`. Lease times are Redis's clock.
 * - Namespaced: every key starts with `<prefix>:<server>:`; owners' indexes
 *   add the tenant and principal, and the runtime's keys already carry them.
 * - Bounded: every command has a timeout, and no command waits in an offline
 *   queue while Redis is away: it fails at once with {@link StoreUnavailableError},
 *   so a gated call refuses instead of hanging or running unguarded.
 * - One Redis primary (or a proxy in front of one): the owner index is found
 *   through the record, which Redis Cluster's key routing does not allow.
 */
import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { StoreUnavailableError, type ClaimOutcome, type IdempotencyClaim, type SharedStore } from './types.js';
import { CLAIM, COMPLETE, RELEASE, RENEW } from './scripts.js';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  readonly url: string;
  /** The server's name: keys of two servers on one Redis never meet. */
  readonly server: string;
  /** First segment of every key and channel. Default `mcp-gen`. */
  readonly prefix?: string;
  /** Longest wait for any one Redis command. Default 1000 ms. */
  readonly commandTimeoutMs?: number;
  /** Longest wait for the first connection. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** Live idempotency records one owner may hold; past it new keys are refused. Default 10,000 (0: no bound). */
  readonly maxKeysPerOwner?: number;
  /** Receives connection errors (once per outage, and the recovery). Default: one line on stderr. */
  readonly onEvent?: (message: string) => void;
}

/** The Redis store, with what a host needs on top of {@link SharedStore}. */
export interface RedisStore extends SharedStore {
  /** Resolves when Redis answers `PING` within the command timeout; rejects with {@link StoreUnavailableError} otherwise. */
  ping(): Promise<void>;
}

/** `redis://user:secret@host` → `redis://user:***@host`, so logs and errors never carry the password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable Redis URL)';
  }
}

/** A key segment that cannot contain the `:` separator. */
const segment = (value: string | undefined): string => encodeURIComponent(value ?? '');

/** Loads ioredis, with a message saying how to install it when it is absent. */
async function loadClient(): Promise<typeof import('ioredis').Redis> {
  try {
    const module = await import('ioredis');
    return module.Redis;
  } catch (error) {
    throw new Error('a Redis URL is configured but the `ioredis` package is not installed: run `npm install ioredis`', { cause: error });
  }
}

type ScriptClient = Redis & {
  mcpClaim(record: string, owner: string, ...args: (string | number)[]): Promise<string[]>;
  mcpRenew(record: string, token: string, leaseMs: number): Promise<number>;
  mcpComplete(record: string, token: string, result: string, ttlMs: number): Promise<number>;
  mcpRelease(record: string, token: string): Promise<number>;
};

function clientOptions(options: RedisStoreOptions): RedisOptions {
  return {
    lazyConnect: true,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    // Fail fast while disconnected: a queued command would hold a gated call for as long as the outage.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  };
}

/**
 * Connects to Redis and returns the store. Rejects with a clear message when
 * ioredis is missing or Redis does not answer within `connectTimeoutMs`;
 * after that, the store reconnects by itself and each call fails fast with
 * {@link StoreUnavailableError} while Redis is away.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const RedisClient = await loadClient();
  const where = redactUrl(options.url);
  const report = options.onEvent ?? ((message: string) => process.stderr.write(`[mcp-gen] ${message}\n`));
  const prefix = `${options.prefix ?? 'mcp-gen'}:${segment(options.server)}:`;
  const maxPerOwner = options.maxKeysPerOwner ?? 10_000;
  const client = new RedisClient(options.url, clientOptions(options)) as ScriptClient;
  client.defineCommand('mcpClaim', { numberOfKeys: 2, lua: CLAIM });
  client.defineCommand('mcpRenew', { numberOfKeys: 1, lua: RENEW });
  client.defineCommand('mcpComplete', { numberOfKeys: 1, lua: COMPLETE });
  client.defineCommand('mcpRelease', { numberOfKeys: 1, lua: RELEASE });
  let down = false;
  const outage = (role: string, message: string): void => {
    if (down) return;
    down = true;
    report(`redis ${role} at ${where} unavailable: ${message} (gated calls are refused until it answers)`);
  };
  const watch = (connection: Redis, role: string): void => {
    connection.on('error', (error: Error) => outage(role, error.message));
    connection.on('ready', () => {
      if (!down) return;
      down = false;
      report(`redis ${role} at ${where} reachable again`);
    });
  };
  watch(client, 'store');
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new StoreUnavailableError(`cannot reach Redis at ${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  /** Runs one command, turning transport failures (closed, timed out, offline) into StoreUnavailableError. */
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && error.name === 'ReplyError') throw error; // Redis answered: a bug, not an outage
      outage('store', error instanceof Error ? error.message : String(error));
      throw new StoreUnavailableError(`Redis at ${where} did not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  const held = new Map<string, string>();
  const subscriptions = channelSubscriptions(client, prefix, watch, call);

  const store: RedisStore = {
    name: 'redis',
    async ping() {
      await call(() => client.ping());
    },
    async claimIdempotency(claim: IdempotencyClaim): Promise<ClaimOutcome> {
      const record = `${prefix}idem:${claim.key}`;
      const owner = `${prefix}owner:${segment(claim.owner.tenant)}:${segment(claim.owner.principal)}`;
      const token = randomUUID();
      const reply = await call(() => client.mcpClaim(record, owner, claim.inputSha256, claim.leaseMs, claim.ttlMs, token, maxPerOwner));
      return claimOutcome(reply, () => held.set(claim.key, token));
    },
    async renewIdempotencyLease(key, token, leaseMs) {
      return (await call(() => client.mcpRenew(`${prefix}idem:${key}`, token, leaseMs))) === 1;
    },
    async completeIdempotency(key, token, result, ttlMs) {
      const stored = (await call(() => client.mcpComplete(`${prefix}idem:${key}`, token, JSON.stringify(result ?? null), ttlMs))) === 1;
      if (held.get(key) === token) held.delete(key);
      return stored;
    },
    async releaseIdempotency(key, token) {
      await call(() => client.mcpRelease(`${prefix}idem:${key}`, token));
      if (held.get(key) === token) held.delete(key);
    },
    async consumeOnce(key, ttlMs) {
      return (await call(() => client.set(`${prefix}once:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'))) === 'OK';
    },
    async publish(channel, message) {
      await call(() => client.publish(`${prefix}events:${channel}`, message));
    },
    subscribe: (channel, listener) => subscriptions.subscribe(channel, listener),
    async close() {
      // A claim still held here belongs to a call that never finished: free it for a retry elsewhere.
      await Promise.allSettled([...held].map(([key, token]) => client.mcpRelease(`${prefix}idem:${key}`, token)));
      held.clear();
      await subscriptions.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
  return store;
}

/** Decodes the claim script's reply. */
function claimOutcome(reply: string[], onClaimed: () => void): ClaimOutcome {
  switch (reply[0]) {
    case 'claimed':
      onClaimed();
      return { kind: 'claimed', token: reply[1]! };
    case 'pending':
      return { kind: 'pending', inputSha256: reply[1]!, leaseExpiresAt: Number(reply[2]) };
    case 'completed':
      return { kind: 'completed', inputSha256: reply[1]!, result: JSON.parse(reply[2] ?? 'null') as unknown };
    case 'full':
      return { kind: 'full' };
    default:
      throw new Error(`unexpected reply from the claim script: ${JSON.stringify(reply)}`);
  }
}

/**
 * Pub/sub on a second connection (a subscribed Redis connection accepts no
 * other command), opened on the first `subscribe`. ioredis subscribes again
 * after a reconnection; events published while the connection was down are lost.
 */
function channelSubscriptions(
  client: Redis,
  prefix: string,
  watch: (connection: Redis, role: string) => void,
  call: <T>(run: () => Promise<T>) => Promise<T>,
): { subscribe: SharedStore['subscribe']; close(): Promise<void> } {
  let subscriber: Redis | undefined;
  const listeners = new Map<string, Set<(message: string) => void>>();
  const open = async (): Promise<Redis> => {
    if (subscriber) return subscriber;
    const connection = client.duplicate({ lazyConnect: true });
    watch(connection, 'subscriber');
    connection.on('message', (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) {
        try {
          listener(message);
        } catch {
          // One failing listener must not starve the others.
        }
      }
    });
    subscriber = connection;
    await call(() => connection.connect());
    return connection;
  };
  return {
    async subscribe(channel, listener) {
      const connection = await open();
      const name = `${prefix}events:${channel}`;
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
        await call(() => connection.subscribe(name));
      }
      set.add(listener);
      return async () => {
        const current = listeners.get(name);
        if (!current?.delete(listener) || current.size > 0) return;
        listeners.delete(name);
        await call(() => connection.unsubscribe(name)).catch(() => undefined);
      };
    },
    async close() {
      listeners.clear();
      await subscriber?.quit().catch(() => subscriber?.disconnect());
    },
  };
}
