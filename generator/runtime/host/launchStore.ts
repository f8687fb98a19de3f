/**
 * The store a launch configures without code: `--redis URL` or
 * `MCP_REDIS_URL` opens the Redis store (importing ioredis only then);
 * nothing configured means the in-memory default and no import at all.
 */
import type { TextSink } from '../errors.js';
import type { SharedStore } from '../store/types.js';

/** Opens the Redis store at `url` for server `name`, or returns undefined when no URL is set. */
export async function openLaunchStore(url: string | undefined, name: string, stderr: TextSink): Promise<SharedStore | undefined> {
  if (!url) return undefined;
  if (!/^rediss?:\/\//.test(url)) throw new Error(`MCP_REDIS_URL must be a redis:// or rediss:// URL`);
  const { createRedisStore, redactUrl } = await import('../store/redis.js');
  const store = await createRedisStore({ url, server: name, onEvent: (message) => void stderr.write(`[mcp-gen] ${message}\n`) });
  stderr.write(`[mcp-gen] shared store: Redis at ${redactUrl(url)}\n`);
  return store;
}
