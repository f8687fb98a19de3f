/**
 * The catalog a server must publish for a manifest: its contract's listings as a client receives
 * them from an SDK v2 server (the SDK puts `type: "object"` first in every published tool schema).
 */
import type { Contract } from '../contract/types.js';
import type { Catalog } from './catalog.js';

type Obj = Record<string, unknown>;

const asObject = (s: unknown): unknown => (s !== null && typeof s === 'object' ? { type: 'object', ...(s as Obj) } : s);

/** The expected catalog of a manifest's contract. */
export function expectedCatalog(c: Contract): Catalog {
  const tools = c.tools.map((t) => ({
    ...t.listing,
    inputSchema: asObject(t.listing.inputSchema),
    ...(t.listing.outputSchema !== undefined ? { outputSchema: asObject(t.listing.outputSchema) } : {}),
  }));
  const listings = c.resources.map((r) => r.listing as unknown as Obj);
  return {
    serverInfo: { ...c.server.info } as Obj,
    capabilities: c.server.declaredCapabilities as Obj,
    ...(c.server.instructions !== undefined ? { instructions: c.server.instructions } : {}),
    tools: JSON.parse(JSON.stringify(tools)) as Obj[],
    resources: listings.filter((r) => r['uri'] !== undefined),
    resourceTemplates: listings.filter((r) => r['uriTemplate'] !== undefined),
    prompts: c.prompts.map((p) => p.listing as unknown as Obj),
  };
}
