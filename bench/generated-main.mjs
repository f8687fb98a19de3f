/**
 * Entry point of the generated server in the benchmark: the generated
 * `createServer` with handlers that return the same values as the
 * hand-written server's. Copied next to the transpiled `server.gen.js`.
 */
import { launchOptions, runMain } from 'mcp-gen/runtime';
import { createServer, serverInfo } from './server.gen.js';

const ITEM = { id: 'I-1', name: 'Sample', status: 'active', price: { amountMinor: 1500, currency: 'EUR' } };
const any = (value) => new Proxy({}, { get: (_, key) => (typeof key === 'string' ? value : undefined) });
const completers = any(async () => []);

/** One handler per primitive, whatever its id. */
export const handlers = {
  tools: any(async () => ITEM),
  resources: any({ read: async () => ITEM, list: async () => [], complete: completers }),
  prompts: any({ get: async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review item ${args.itemId}.` } }] }), complete: completers }),
};

/** The factory, for the in-memory measurements: defaults kept (audit on), its lines discarded as stdio's go to /dev/null. */
const discard = { write: () => true };
export const factory = (context) => createServer(handlers, { ...launchOptions(), stderr: discard, ...(context?.era ? { era: context.era } : {}) });

/**
 * `BENCH_BEARER` (scopes, comma-separated) puts the endpoint behind a bearer gate whose verifier grants any
 * token those scopes for this endpoint: each request then goes through authentication and the scope
 * challenge's lookup of its target, as in a deployment with tokens.
 */
function bearer() {
  const scopes = process.env.BENCH_BEARER;
  if (!scopes) return {};
  const port = process.argv[process.argv.indexOf('--port') + 1];
  const resource = new URL(`http://127.0.0.1:${port}/mcp`);
  const verifier = { verifyAccessToken: async (token) => ({ token, clientId: token, scopes: scopes.split(','), resource, expiresAt: Math.floor(Date.now() / 1000) + 3600 }) };
  return { auth: { verifier, authorizationServers: ['https://as.example'] } };
}

if (import.meta.url === `file://${process.argv[1]}`) await runMain((context) => createServer(handlers, { ...launchOptions(), era: context.era }), serverInfo, bearer());
