/**
 * The catalog's primitives by name, URI and template, built once per catalog: what a request targets is
 * found without a pass over every primitive (the scope challenge of each HTTP request, the gates of a
 * subscription or an embedded read, the filter of every listing). Each lookup gives what the first matching entry of the catalog, in
 * its order, would give.
 */
import type { Variables } from '@modelcontextprotocol/server';
import type { Catalog } from './context.js';
import type { PromptSpec, ResourceSpec, ToolSpec } from './types.js';
import { matchAlwaysThrows, TemplateRoutes, uriTemplateOf } from './uriRoutes.js';

/** The catalog's entries by key, each key's entries in catalog order. */
export interface CatalogLookup {
  readonly tools: ReadonlyMap<string, readonly ToolSpec[]>;
  readonly prompts: ReadonlyMap<string, readonly PromptSpec[]>;
  /** Resources by name. */
  readonly byName: ReadonlyMap<string, readonly ResourceSpec[]>;
  /** Fixed resources by URI. */
  readonly fixed: ReadonlyMap<string, readonly ResourceSpec[]>;
  /** Templated resources by their template text. */
  readonly byTemplate: ReadonlyMap<string, readonly ResourceSpec[]>;
  /** Templated resources filed by literal prefix (positions into `catalog.resources`). */
  readonly templates: TemplateRoutes<ResourceSpec>;
}

function grouped<T>(items: readonly T[], keyOf: (item: T) => string | undefined): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const list = map.get(key);
    if (list === undefined) map.set(key, [item]);
    else list.push(item);
  }
  return map;
}

/** Whether `spec`'s template must be tried on every URI: it does not parse, or its match always throws. */
function triedEverywhere(spec: ResourceSpec): boolean {
  try {
    return matchAlwaysThrows(uriTemplateOf(spec.uriTemplate!));
  } catch {
    return true;
  }
}

const lookups = new WeakMap<Catalog, CatalogLookup>();

/** The lookup of `catalog` (built on first use; a catalog is never changed once built). */
export function lookupOf(catalog: Catalog): CatalogLookup {
  let lookup = lookups.get(catalog);
  if (lookup === undefined) {
    lookup = {
      tools: grouped(catalog.tools, (t) => t.name),
      prompts: grouped(catalog.prompts, (p) => p.name),
      byName: grouped(catalog.resources, (r) => r.name),
      fixed: grouped(catalog.resources, (r) => r.uri),
      byTemplate: grouped(catalog.resources, (r) => r.uriTemplate),
      templates: new TemplateRoutes(catalog.resources, (r) => r.uriTemplate, triedEverywhere),
    };
    lookups.set(catalog, lookup);
  }
  return lookup;
}

/** The first of `entries` that `keep` accepts. */
export function firstOf<T>(entries: readonly T[] | undefined, keep: (entry: T) => boolean = () => true): T | undefined {
  if (entries === undefined) return undefined;
  for (let i = 0; i < entries.length; i++) if (keep(entries[i]!)) return entries[i];
  return undefined;
}

/**
 * The first templated resource of the catalog, in its order, that `keep` accepts and whose template
 * matches `uri`, with the variables of the match (what trying each template in turn finds).
 */
export function templateFor(lookup: CatalogLookup, uri: string, keep: (spec: ResourceSpec) => boolean): { readonly spec: ResourceSpec; readonly variables: Variables } | undefined {
  const { items } = lookup.templates;
  for (const position of lookup.templates.candidates(uri)) {
    const spec = items[position]!;
    if (!keep(spec)) continue;
    const variables = uriTemplateOf(spec.uriTemplate!).match(uri);
    if (variables) return { spec, variables };
  }
  return undefined;
}
