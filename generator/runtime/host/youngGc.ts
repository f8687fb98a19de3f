/**
 * Young collections of a long-running HTTP server, kept short.
 *
 * V8 pretenures an allocation site once nearly every object it made survived a young collection: its
 * objects are then allocated straight in old space. A server trips this on its own: the registry built
 * at start-up, and the requests in flight whenever a young collection runs, survive it. Once the sites a
 * request's objects come from are pretenured, those objects live in old space, dead as soon as the request
 * is answered but taken for live by every young collection until the next full one, and everything young
 * they point to survives and is promoted with them, which makes more sites survive. Measured at 1,000
 * primitives, 100,000 calls one at a time on the 2026-07-28 lane in process: Node 20 promoted 1.3 MB per
 * young collection and paused 5.2 ms for each; without pretenuring, 0.7 MB and 2.9 ms (Node 22: 1.8 MB
 * and 5.9 ms → 0.2 MB and 1.5 ms). Served over HTTP at concurrency 32 on Node 20: 2.0 MB and 7.1 ms →
 * 0.5 MB and 2.5 ms; the benchmark's HTTP rows measure the rest (`bench/README.md`).
 *
 * `runMain` turns pretenuring off when it serves HTTP, once the server is built (the flag is read by
 * every collection, so it holds from there on). `MCP_V8_PRETENURING=on` keeps V8's default.
 */
import { setFlagsFromString } from 'node:v8';

/** The environment variable that keeps V8's allocation-site pretenuring. */
export const PRETENURING_ENV = 'MCP_V8_PRETENURING';

/**
 * Turns V8's allocation-site pretenuring off for this process unless `env` keeps it (`on`, `1`, `true`).
 * Returns whether it was turned off.
 */
export function tuneYoungCollections(env: Readonly<Record<string, string | undefined>>, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  const keep = env[PRETENURING_ENV]?.trim().toLowerCase();
  if (keep === 'on' || keep === '1' || keep === 'true') return false;
  setFlags('--no-allocation-site-pretenuring');
  return true;
}
