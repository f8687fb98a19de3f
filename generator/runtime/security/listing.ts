/**
 * `installSecurity()`: listings that hide what the caller may not use. The
 * SDK lists every registered primitive; this wraps its own list handlers
 * (so the listed shapes stay exactly the SDK's) and drops entries whose
 * declared scopes the caller lacks (and resources outside the caller's audience). Template instances are already filtered
 * by `templateListCallback` (scopes and the `authorize` hook).
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { bindRuntime, type Runtime } from '../context.js';
import { tieRequests } from '../connection.js';
import { routeTemplateReads } from '../readRoutes.js';
import { firstOf, lookupOf } from '../lookup.js';
import type { ResourceSpec } from '../types.js';
import { inAudience } from './audience.js';
import { hasScopes } from './gate.js';
import { auditUnhandledRefusals } from './refusals.js';
import { listChangedAsAdvertised } from '../listChanged.js';

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<Record<string, unknown>>;

function storedHandler(server: McpServer, method: string): StoredHandler | undefined {
  // `_getRequestHandler` is the SDK's (protected) accessor for an installed handler; wrapping it keeps
  // the SDK's exact listing logic (schema conversion per era, metadata) instead of re-implementing it.
  const inner = server.server as unknown as { _getRequestHandler?: (m: string) => StoredHandler | undefined };
  if (typeof inner._getRequestHandler !== 'function') throw new Error('mcp-gen: this SDK version hides its request handlers; listings cannot be filtered');
  return inner._getRequestHandler.call(server.server, method);
}

function filterList(server: McpServer, rt: Runtime, method: string, field: string, visible: (entry: Record<string, unknown>, ctx: ServerContext) => boolean): void {
  const original = storedHandler(server, method);
  if (!original) return;
  server.server.removeRequestHandler(method);
  server.server.setRequestHandler(method as 'tools/list', async (request, ctx) => {
    rt.observe(ctx);
    const result = await original(request, ctx);
    const entries = (result[field] ?? []) as Record<string, unknown>[];
    return { ...result, [field]: entries.filter((e) => visible(e, ctx)) } as never;
  });
}

/**
 * Call after every primitive is registered (and before connecting): filters
 * `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
 * by the caller's scopes, binds the runtime to `server` (client capabilities
 * for the approval gate), and audits the requests the SDK refuses on its own.
 * Every instance that shares `server`'s registrations gets the same.
 */
export function installSecurity(server: McpServer, rt: Runtime): void {
  rt.server = server;
  const install = (target: McpServer): void => secure(target, rt);
  rt.installers.push(install);
  install(server);
}

function secure(server: McpServer, rt: Runtime): void {
  bindRuntime(server, rt);
  listChangedAsAdvertised(server);
  // After the senders are kept to what is advertised (a registry change is noted even when not announced),
  // before the request wrappers (the SDK's read handler must start in the turn its wrapper runs).
  routeTemplateReads(server);
  const { tools, prompts, fixed, byName } = lookupOf(rt.catalog);
  const templated = (spec: ResourceSpec): boolean => spec.uriTemplate !== undefined;
  // An entry the catalog does not know stays hidden: the server only lists what it declared.
  const allowed = (scopes: readonly string[] | undefined, ctx: ServerContext): boolean => scopes !== undefined && hasScopes(scopes, rt.identify(ctx));
  // A resource outside the caller's audience is one the server does not have, for this caller.
  const readable = (spec: ResourceSpec, ctx: ServerContext): boolean => {
    const identity = rt.identify(ctx);
    return hasScopes(spec.scopes, identity) && inAudience(spec, identity);
  };
  if (tools.size > 0) filterList(server, rt, 'tools/list', 'tools', (e, ctx) => allowed(firstOf(tools.get(String(e['name'])))?.scopes, ctx));
  if (prompts.size > 0) filterList(server, rt, 'prompts/list', 'prompts', (e, ctx) => allowed(firstOf(prompts.get(String(e['name'])))?.scopes, ctx));
  if (rt.catalog.resources.length > 0) {
    // Template instances come from list callbacks that already applied the gates.
    filterList(server, rt, 'resources/list', 'resources', (e, ctx) => {
      const spec = firstOf(fixed.get(String(e['uri'])));
      return spec === undefined || readable(spec, ctx);
    });
    filterList(server, rt, 'resources/templates/list', 'resourceTemplates', (e, ctx) => {
      const spec = firstOf(byName.get(String(e['name'])), templated);
      return spec !== undefined && readable(spec, ctx);
    });
  }
  auditUnhandledRefusals(server, rt);
  // Outermost: every request this instance dispatches finds its connection (subscriptions, client capabilities).
  tieRequests(server);
}
