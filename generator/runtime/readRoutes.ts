/**
 * `resources/read` of a templated URI without a pass over every template.
 *
 * The SDK's `resources/read` handler tries the templates of `_registeredResourceTemplates` in order and
 * answers with the first that matches (building a regular expression per template and per try). An
 * installed server's handler is wrapped: for a URI that is not a fixed resource, the server's template
 * registry is replaced, for the synchronous start of the SDK's handler only, by a view holding just the
 * templates that can match it ({@link TemplateRoutes}), in their order. The SDK's handler runs unchanged
 * on the view: its first match, its "disabled" and "not found" answers are those of the full pass. The
 * view gives the registry back the moment the SDK lists it, before any template's callback runs, so
 * nothing else ever sees it. The index follows the registry: every change made through the SDK
 * (registration, removal, rename, new template) and every primitive switched off or on is announced, which
 * indexes the registry again on the next read; a candidate no longer registered as indexed (a change made
 * behind the SDK) sends the read through the full pass. An entry added behind the SDK, without an
 * announcement, is found after the next announced change.
 */
import { UriTemplate, type McpServer } from '@modelcontextprotocol/server';
import { matchAlwaysThrows, TemplateRoutes } from './uriRoutes.js';

type TemplateEntry = { readonly resourceTemplate?: { readonly uriTemplate?: unknown } };
type Registry = Record<string, TemplateEntry | undefined>;
type Handler = (request: unknown, ctx: unknown) => unknown;

/** The SDK fields the routing reads and swaps. */
interface Fields {
  _registeredResources?: Record<string, unknown>;
  _registeredResourceTemplates?: Registry;
  sendResourceListChanged?: () => unknown;
}

interface Index {
  readonly version: number;
  readonly names: readonly string[];
  readonly entries: readonly (TemplateEntry | undefined)[];
  readonly templates: readonly unknown[];
  readonly routes: TemplateRoutes<number>;
  /** The view of each candidate list a lookup gave (lists of one prefix are the same array each time). */
  readonly views: WeakMap<readonly number[], Registry>;
}

const versions = new WeakMap<object, number>();
const indexes = new WeakMap<object, Index>();

/** Marks `registry` (a server's `_registeredResourceTemplates`) as changed: the next read indexes it again. */
export function templatesChanged(registry: unknown): void {
  if (registry !== null && typeof registry === 'object') versions.set(registry, (versions.get(registry) ?? 0) + 1);
}

function indexOf(registry: Registry): Index {
  const version = versions.get(registry) ?? 0;
  const known = indexes.get(registry);
  if (known !== undefined && known.version === version) return known;
  const names = Object.keys(registry);
  const entries = names.map((name) => registry[name]);
  const templates = entries.map((entry) => entry?.resourceTemplate?.uriTemplate);
  const routes = new TemplateRoutes(
    names.map((_, position) => position),
    (position) => (templates[position] instanceof UriTemplate ? templates[position].toString() : ''),
    (position) => !(templates[position] instanceof UriTemplate) || matchAlwaysThrows(templates[position]),
  );
  const index: Index = { version, names, entries, templates, routes, views: new WeakMap() };
  indexes.set(registry, index);
  return index;
}

/** The swap in progress: the server whose registry a view stands in for, and that registry. */
let swapped: { readonly fields: Fields; readonly registry: Registry; readonly view: Registry } | undefined;

/** Gives the swapped server its registry back (the view lists itself, or the handler returned). */
function restore(): void {
  const swap = swapped;
  swapped = undefined;
  if (swap !== undefined && swap.fields._registeredResourceTemplates === swap.view) swap.fields._registeredResourceTemplates = swap.registry;
}

/** A registry of `positions`' entries, in order, that restores the real registry when it is listed. */
function viewOf(index: Index, positions: readonly number[]): Registry {
  let view = index.views.get(positions);
  if (view === undefined) {
    const target: Registry = Object.create(null) as Registry;
    for (const position of positions) target[index.names[position]!] = index.entries[position];
    view = new Proxy(target, {
      ownKeys(t) {
        restore();
        return Reflect.ownKeys(t);
      },
    });
    index.views.set(positions, view);
  }
  return view;
}

/** The view for a read of `uri`, or undefined when the read takes the full pass. */
function viewFor(fields: Fields, registry: Registry, uri: unknown): Registry | undefined {
  if (typeof uri !== 'string') return undefined;
  let href: string;
  try {
    href = new URL(uri).href;
  } catch {
    return undefined; // the SDK refuses it before any template
  }
  // A fixed resource is answered before any template, by the SDK's own lookup.
  if (fields._registeredResources?.[href]) return undefined;
  const index = indexOf(registry);
  const positions = index.routes.candidates(href);
  if (positions.length === index.names.length) return undefined;
  for (const position of positions) {
    const entry = index.entries[position];
    if (registry[index.names[position]!] !== entry || entry?.resourceTemplate?.uriTemplate !== index.templates[position]) return undefined;
  }
  return viewOf(index, positions);
}

/**
 * Wraps `server`'s `resources/read` handler (when it has one) so a templated read tries only the templates
 * that can match, and marks the template registry changed whenever the server announces a resource list
 * change (every registration, removal and update through the SDK does).
 */
export function routeTemplateReads(server: McpServer): void {
  const fields = server as unknown as Fields;
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const read = handlers instanceof Map ? (handlers.get('resources/read') as Handler | undefined) : undefined;
  if (read === undefined || typeof fields._registeredResourceTemplates !== 'object') return;
  const announce = fields.sendResourceListChanged;
  if (typeof announce === 'function') {
    fields.sendResourceListChanged = function (this: unknown) {
      templatesChanged(fields._registeredResourceTemplates);
      return announce.call(this);
    };
  }
  (handlers as Map<string, Handler>).set('resources/read', (request, ctx) => {
    const registry = fields._registeredResourceTemplates;
    const view = registry === undefined ? undefined : viewFor(fields, registry, (request as { params?: { uri?: unknown } } | undefined)?.params?.uri);
    if (view === undefined || registry === undefined) return read(request, ctx);
    restore();
    swapped = { fields, registry, view };
    fields._registeredResourceTemplates = view;
    try {
      return read(request, ctx);
    } finally {
      if (swapped?.view === view) restore();
    }
  });
}
