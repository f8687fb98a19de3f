/** The contract of a resource: its listing, template variables and content rules. */
import type { IrResource } from '../ir/types.js';
import { isJsonMime } from '../manifest/mime.js';
import { sha256Of } from '../runtime/security/hash.js';
import { baseListing, stewardshipOf } from './base.js';
import { readCache, type CacheHint } from './cache.js';
import { lazily } from './lazy.js';
import type { SchemaGraph } from './schemaGraph.js';
import type { ResourceContract } from './types.js';

/** Computes a resource's contract; the published schemas of its parameters and content when first read (see lazy.ts). */
export function resourceContract(graph: SchemaGraph, r: IrResource, listed: readonly string[], cacheDefault: CacheHint): ResourceContract {
  const base = baseListing(r, listed);
  const schema = r.schema;
  const params: Record<string, unknown> = {};
  for (const p of r.params) lazily(params, p.name, () => graph.publish(p.schema));
  const content: Record<string, unknown> = { mimeType: r.mimeType, textual: r.textual, json: isJsonMime(r.mimeType) };
  if (schema !== undefined) lazily(content, 'schema', () => graph.publish(schema));
  return {
    kind: 'resource',
    name: r.name,
    ir: r,
    scopes: r.scopes,
    ...stewardshipOf(r),
    listing: {
      ...(r.uri !== undefined ? { uri: r.uri } : { uriTemplate: r.uriTemplate! }),
      ...base,
      mimeType: r.mimeType,
      ...(r.size !== undefined ? { size: r.size } : {}),
      ...(r.annotations !== undefined ? { annotations: r.annotations } : {}),
      ...(r.revision !== undefined || r._meta !== undefined ? { _meta: { ...r._meta, ...(r.revision !== undefined ? { revision: r.revision } : {}) } } : {}),
    },
    params: params as ResourceContract['params'],
    content: content as unknown as ResourceContract['content'],
    list: r.list,
    subscribe: r.subscribe,
    complete: r.complete,
    ...(r.source !== undefined ? { sourceHash: `sha256:${sha256Of(r.source.content)}` } : {}),
    cache: readCache(r, cacheDefault),
    ...(r.classification !== undefined ? { classification: r.classification } : {}),
    ...(r.audience !== undefined ? { audience: r.audience } : {}),
    ...(r.maxBytes !== undefined ? { maxBytes: r.maxBytes } : {}),
    ...contentMetaOf(r),
  };
}

/** The revision and lastModified each contents entry carries in `_meta`, as the spec allows on contents. */
function contentMetaOf(r: IrResource): { contentMeta?: Readonly<Record<string, string>> } {
  const meta: Record<string, string> = {};
  if (r.revision !== undefined) meta['revision'] = r.revision;
  if (r.annotations?.lastModified !== undefined) meta['lastModified'] = r.annotations.lastModified;
  return Object.keys(meta).length > 0 ? { contentMeta: meta } : {};
}
