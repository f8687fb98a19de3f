/**
 * What a client sees of a server: its identity and capabilities (the initialize or discover result)
 * and every page of every listing, exactly as received.
 */
import type { Client } from '@modelcontextprotocol/client';

type Obj = Record<string, unknown>;

/** The whole published catalog of one server. */
export interface Catalog {
  readonly serverInfo: Obj;
  readonly capabilities: Obj;
  readonly instructions?: string;
  readonly tools: readonly Obj[];
  readonly resources: readonly Obj[];
  readonly resourceTemplates: readonly Obj[];
  readonly prompts: readonly Obj[];
}

/** Most pages a listing may have before the server is considered to loop. */
const MAX_PAGES = 1000;

/** Reads every page of one list method. */
async function allPages(client: Client, method: string, field: string): Promise<Obj[]> {
  const out: Obj[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request({ method, params: cursor !== undefined ? { cursor } : {} } as never)) as Obj;
    out.push(...((result[field] as Obj[] | undefined) ?? []));
    cursor = typeof result['nextCursor'] === 'string' && result['nextCursor'] !== '' ? result['nextCursor'] : undefined;
    if (cursor === undefined) return out;
  }
  throw new Error(`${method} still had a next page after ${MAX_PAGES} pages`);
}

/** Reads the catalog of a connected server; only the listings its capabilities declare. */
export async function readCatalog(client: Client): Promise<Catalog> {
  const capabilities = (client.getServerCapabilities() ?? {}) as Obj;
  const instructions = client.getInstructions();
  return {
    serverInfo: (client.getServerVersion() ?? {}) as Obj,
    capabilities,
    ...(instructions !== undefined ? { instructions } : {}),
    tools: capabilities['tools'] ? await allPages(client, 'tools/list', 'tools') : [],
    resources: capabilities['resources'] ? await allPages(client, 'resources/list', 'resources') : [],
    resourceTemplates: capabilities['resources'] ? await allPages(client, 'resources/templates/list', 'resourceTemplates') : [],
    prompts: capabilities['prompts'] ? await allPages(client, 'prompts/list', 'prompts') : [],
  };
}
