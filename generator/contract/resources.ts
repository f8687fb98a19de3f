/** The contract of a resource: its listing, template variables and content rules. */
import type { IrResource } from '../ir/types.js';
import { isJsonMime } from '../manifest/mime.js';
import { sha256Of } from '../runtime/security/hash.js';
import { baseListing } from './base.js';
import type { SchemaGraph } from './schemaGraph.js';
import type { ResourceContract } from './types.js';

/** Computes a resource's contract. */
export function resourceContract(graph: SchemaGraph, r: IrResource, listed: readonly string[]): ResourceContract {
  const base = baseListing(r, listed);
  const schema = r.schema !== undefined ? graph.publish(r.schema) : undefined;
  return {
    kind: 'resource',
    name: r.name,
    ir: r,
    scopes: r.scopes,
    listing: {
      ...(r.uri !== undefined ? { uri: r.uri } : { uriTemplate: r.uriTemplate! }),
      ...base,
      mimeType: r.mimeType,
      ...(r.size !== undefined ? { size: r.size } : {}),
      ...(r.annotations !== undefined ? { annotations: r.annotations } : {}),
      ...(r.revision !== undefined || r._meta !== undefined ? { _meta: { ...r._meta, ...(r.revision !== undefined ? { revision: r.revision } : {}) } } : {}),
    },
    params: Object.fromEntries(r.params.map((p) => [p.name, graph.publish(p.schema)])),
    content: { mimeType: r.mimeType, textual: r.textual, json: isJsonMime(r.mimeType), ...(schema !== undefined ? { schema } : {}) },
    list: r.list,
    subscribe: r.subscribe,
    complete: r.complete,
    ...(r.source !== undefined ? { sourceHash: `sha256:${sha256Of(r.source.content)}` } : {}),
  };
}
