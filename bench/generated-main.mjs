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

if (import.meta.url === `file://${process.argv[1]}`) await runMain((context) => createServer(handlers, { ...launchOptions(), era: context.era }), serverInfo);
