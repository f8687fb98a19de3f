/**
 * `installCompletions()`: one `completion/complete` handler for the whole
 * server. The SDK's built-in completion reads Zod-style `completable()`
 * shapes; generated schemas are plain JSON Schema, so the handler is
 * installed at the low level instead (SDK-V2 §5).
 */
import { ProtocolError, ProtocolErrorCode, type CompleteRequest, type CompleteResult, type McpServer, type ServerContext } from '@modelcontextprotocol/server';

type CompleteParams = CompleteRequest['params'];
import { handlerContext, type Runtime } from './context.js';
import { auditRefusal } from './security/call.js';
import { inAudience } from './security/audience.js';
import { missingScopes, scopeRefusal } from './security/gate.js';
import type { Completer, ResourceSpec } from './types.js';
import { firstOf, lookupOf } from './lookup.js';

/** The completers of one server, keyed by prompt name and by URI template. */
export interface CompletionMap {
  readonly prompts?: Readonly<Record<string, Readonly<Record<string, Completer<never> | undefined>>>>;
  readonly resourceTemplates?: Readonly<Record<string, { readonly spec: ResourceSpec; readonly complete: Readonly<Record<string, Completer<never> | undefined>> }>>;
}

/** The protocol's cap on values per completion response. */
const MAX_VALUES = 100;

/**
 * Declares the `completions` capability and answers `completion/complete`.
 * Call before connecting; unknown refs or arguments answer -32602.
 */
export function installCompletions(server: McpServer, rt: Runtime, map: CompletionMap): void {
  const install = (target: McpServer): void => serveCompletions(target, rt, map);
  rt.installers.push(install);
  install(server);
}

function serveCompletions(server: McpServer, rt: Runtime, map: CompletionMap): void {
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler('completion/complete', async (request, sdk): Promise<CompleteResult> => {
    rt.observe(sdk);
    const target = request.params.ref.type === 'ref/prompt' ? request.params.ref.name : request.params.ref.uri;
    try {
      return await complete(rt, map, request.params, sdk);
    } catch (error) {
      // Every refusal leaves an audit event (the values themselves are not logged).
      const reason = error instanceof Error ? error.message : String(error);
      const outcome = (error as { data?: { reason?: unknown } }).data?.reason === 'forbidden' ? 'forbidden' : /not found|no completion/i.test(reason) ? 'not_found' : 'error';
      auditRefusal(rt, sdk, 'completion', String(target).slice(0, 200), outcome, reason, { argument: request.params.argument.name });
      throw error;
    }
  });
}

/** Own entries only: a name such as `__proto__` or `constructor` must never reach Object.prototype. */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Answers one completion request (refusals throw protocol errors). */
async function complete(rt: Runtime, map: CompletionMap, params: CompleteParams, sdk: ServerContext): Promise<CompleteResult> {
  const { ref, argument, context } = params;
  let completer: Completer<never> | undefined;
  let primitive: { kind: 'prompt' | 'resource'; name: string };
  let scopes: readonly string[];
  if (ref.type === 'ref/prompt') {
    const byArg = rt.isDisabled('prompt', ref.name) ? undefined : own(map.prompts, ref.name);
    if (!byArg) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found or has no completions`);
    completer = own(byArg, argument.name);
    primitive = { kind: 'prompt', name: ref.name };
    scopes = firstOf(lookupOf(rt.catalog).prompts.get(ref.name))?.scopes ?? [];
  } else {
    const found = own(map.resourceTemplates, ref.uri);
    // A template switched off is completed as one the server never had.
    // …and so is one outside the caller's audience.
    const entry = found && !rt.isDisabled('resource', found.spec.name) && inAudience(found.spec, rt.identify(sdk)) ? found : undefined;
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${ref.uri} not found or has no completions`);
    completer = own(entry.complete, argument.name);
    primitive = { kind: 'resource', name: entry.spec.name };
    scopes = entry.spec.scopes;
  }
  // Completion values are data of the primitive: the same scopes apply.
  const missing = missingScopes(scopes, rt.identify(sdk).scopes);
  if (missing.length > 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, scopeRefusal(primitive.kind, primitive.name, missing), { reason: 'forbidden' });
  if (!completer) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No completion for argument '${argument.name}'`);
  const ctx = handlerContext(rt, primitive, sdk);
  let values: readonly string[];
  try {
    values = await (completer as Completer)(argument.value, { arguments: context?.arguments ?? {} }, ctx);
  } catch (error) {
    rt.reportError(error, { kind: 'completion', name: `${primitive.name}.${argument.name}` });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error completing ${argument.name}.`);
  }
  return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
}
