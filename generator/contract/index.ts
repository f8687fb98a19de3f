/**
 * The contract phase: from the IR, everything a client can observe of the server, computed once
 * (see types.ts). Pure: no file, no console.
 */
import type { Ir } from '../ir/types.js';
import { promptContract } from './prompts.js';
import { resourceContract } from './resources.js';
import { SchemaGraph } from './schemaGraph.js';
import { toolContract } from './tools.js';
import type { Contract, ServerContract } from './types.js';
import { defaultCache, listCache } from './cache.js';

export type * from './types.js';
export { SchemaGraph, namedRef } from './schemaGraph.js';
export { deriveAnnotations, withControls } from './tools.js';
export { LISTED_BASE_FIELDS, baseListing, metadataOf, stewardshipOf } from './base.js';
export { NO_CACHE, defaultCache, isNoCache, listCache, readCache, type CacheHint, type ListCacheHints } from './cache.js';
import { LISTED_BASE_FIELDS } from './base.js';

function serverContract(ir: Ir): ServerContract {
  const { server, tools, resources, prompts } = ir;
  // `server.capabilities` declares a kind with no primitive behind it, and `listChanged` per kind.
  const declared = server.capabilities;
  const capabilities: Record<string, unknown> = {};
  // `listChanged: ~` publishes the kind without the field; an explicit `subscribe: false` is published.
  const kind = (lc: boolean | null | undefined) => (lc === null ? {} : { listChanged: lc ?? false });
  if (tools.length > 0 || declared.tools) capabilities['tools'] = kind(declared.tools?.listChanged);
  if (resources.length > 0 || declared.resources) {
    const subscribe = resources.some((r) => r.subscribe) || declared.resources?.subscribe === true;
    const said = subscribe ? { subscribe: true } : declared.resources?.subscribe === false ? { subscribe: false } : {};
    capabilities['resources'] = { ...kind(declared.resources?.listChanged), ...said };
  }
  if (prompts.length > 0 || declared.prompts) capabilities['prompts'] = kind(declared.prompts?.listChanged);
  if (server.logging) capabilities['logging'] = {};
  const completions = declared.completions === true || resources.some((r) => r.complete.length > 0) || prompts.some((p) => p.arguments.some((a) => a.complete));
  return {
    info: {
      name: server.name,
      version: server.version,
      ...(server.title !== undefined ? { title: server.title } : {}),
      ...(server.description !== undefined ? { description: server.description } : {}),
      ...(server.websiteUrl !== undefined ? { websiteUrl: server.websiteUrl } : {}),
      ...(server.icons !== undefined ? { icons: server.icons } : {}),
    },
    ...(server.instructions !== undefined ? { instructions: server.instructions } : {}),
    capabilities,
    declaredCapabilities: completions ? { ...capabilities, completions: {} } : capabilities,
    cacheHints: listCache(ir),
  };
}

/** Builds the contract of one server. */
export function buildContract(ir: Ir): Contract {
  const graph = new SchemaGraph(ir);
  const listed = LISTED_BASE_FIELDS;
  return {
    server: serverContract(ir),
    tools: ir.tools.map((t) => toolContract(graph, t, listed)),
    resources: ir.resources.map((r) => resourceContract(graph, r, listed, defaultCache(ir.server.cache))),
    prompts: ir.prompts.map((p) => promptContract(graph, p, listed)),
    listedBaseFields: listed,
    graph,
  };
}
