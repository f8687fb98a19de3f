/**
 * `mcp-gen/runtime`: the small library every generated server imports.
 *
 * What generated code writes (all schema work at module scope, nothing
 * compiles until the first value is checked):
 *
 * ```ts
 * // schemas.gen.ts
 * export const ticketsGetInput = jsonSchema<TicketsGetInput>({ type: 'object', ... });
 * export const ticketParams = paramsValidator<TicketParams>({ ticketId: { type: 'string', pattern: '...' } });
 * export const reviewArgs = promptArgsSchema<ReviewArgs>([{ name: 'ticketId', description: '...', required: true, schema: {...} }]);
 *
 * // server.gen.ts
 * export function createServer(handlers: Handlers, options: ServerOptions = {}): McpServer {
 *   const rt = createRuntime(options, catalog); // catalog: declared scopes + every spec
 *   // inputSchema / argsSchema are `gated(S.x)`: the SDK lists the schema, the runtime validates after the scope check.
 *   const server = new McpServer(info, { capabilities: {...listChanged: false}, instructions });
 *   server.registerTool(name, { inputSchema, outputSchema, ... }, toolCallback(rt, toolSpec, handlers.tools.x));
 *   server.registerResource(name, uri, meta, fixedResourceCallback(rt, spec, handlers.resources.x));
 *   server.registerResource(name, uri, meta, sourceResourceCallback(rt, spec, CONTENT, 'text' | 'base64'));
 *   server.registerResource(name, new ResourceTemplate(tpl, { list: templateListCallback(rt, spec, h) | undefined }), meta,
 *     templateResourceCallback(rt, spec, h));
 *   server.registerPrompt(name, { argsSchema }, templatePromptCallback(rt, spec, [
 *     { role: 'user', text: 'Review {{ticketId}}' },
 *     { role: 'user', resource: { uri, read: resourceReader(rt, resourceSpec, handlerOrSource) } },
 *   ]));
 *   server.registerPrompt(name, { argsSchema }, promptCallback(rt, spec, handlers.prompts.x));
 *   installCompletions(server, rt, { prompts: { name: { arg: completer } }, resourceTemplates: { [tpl]: { spec, complete: { var: completer } } } });
 *   installSubscriptions(server, rt);
 *   installSecurity(server, rt); // listings filtered by the caller's scopes
 *   return server;
 * }
 *
 * // main.gen.ts — the factory receives the SDK's construction context; pass its era on.
 * runMain((ctx, services) => createServer(handlers, { ...launchOptions(), ...services, era: ctx.era }), { name, version });
 * ```
 *
 * Differences from the first sketch: `runMain`'s factory argument is the SDK's
 * `McpRequestContext` (`{era, authInfo?}`), not the era itself; passing
 * `era` is optional (it is learnt from the first request) but makes
 * out-of-band `rt.notifyResourceUpdated` correct before any request. A
 * `resourceReader` source for `source:` resources is `{ content, encoding }`.
 */
export { gated, jsonSchema, type JsonSchemaObject, type JsonSchemaOptions, type JsonStandardSchema } from './schema/jsonSchema.js';
export { paramsValidator, type ParamsValidator, type ParamsResult, type ParseParamsOptions, type RawVariables } from './schema/params.js';
export { promptArgsSchema, type PromptArgDeclaration, type PromptArgsSchema } from './schema/promptArgs.js';
export { coerceString } from './schema/coerce.js';
export { compilationCount, dialectOf, type Dialect } from './schema/ajv.js';
export { memoryState, type Effect, type StateStore } from './state.js';
export { createRuntime, type Catalog, type HandlerContext, type PrimitiveRef, type ResourceNotifier, type Runtime, type ServedRevision, type ServerOptions } from './context.js';
export {
  DEFAULT_LIMITS,
  identityFromToken,
  launchOptions,
  type ApprovalCheck,
  type ApprovalOptions,
  type AuthorizeHook,
  type AuthorizeRequest,
  type Identity,
  type LimitOptions,
} from './options.js';
export { jsonLinesAudit, type AuditEvent, type AuditKind, type AuditOutcome, type AuditSink } from './security/audit.js';
export { DEFAULT_IDEMPOTENCY_TTL_MS, DEFAULT_TOOL_TIMEOUT_MS, idempotencyStoreKey, leaseFor } from './security/idempotency.js';
export { memoryStore, DEFAULT_RECORDS_PER_OWNER, type MemoryStoreOptions } from './store/memory.js';
export { StoreUnavailableError, type ClaimOutcome, type IdempotencyClaim, type SharedStore, type StoreOwner } from './store/types.js';
export { APPROVAL_REQUEST_KEY, DEFAULT_CONFIRMATION_TTL_MS, DEFAULT_RECEIPT_TTL_MS } from './security/approval.js';
export { MIN_STATE_SECRET_LENGTH, open as openState, seal as sealState, stateKeys, type StateKeys } from './security/requestState.js';
export { canonicalJson, sha256Of } from './security/hash.js';
export { installSecurity } from './security/listing.js';
export { ownRegistries } from './registries.js';
export {
  NotImplementedError,
  PromptError,
  ResourceNotFound,
  ReadRefused,
  ToolError,
  notImplemented,
  resourceNotFound,
  type ErrorSource,
  type TextSink,
} from './errors.js';
export type {
  Awaitable,
  Completer,
  Completers,
  FixedResourceHandler,
  PromptHandler,
  PromptReturn,
  PromptSpec,
  PromptTextMessage,
  ResourceCache,
  ResourceListing,
  ResourceSpec,
  ResourceValue,
  Returns,
  TemplateResourceHandler,
  ToolHandler,
  ToolReturn,
  ToolSpec,
} from './types.js';
export { toolCallback } from './tools.js';
export { OverBudget, base64Bytes, contentBytes, readCacheHint } from './budget.js';
export { APPROVAL_FIELD, CONTROL_ARGUMENTS, IDEMPOTENCY_FIELD, controlArgumentsOf, type ControlArgument, type ControlPolicy } from './control.js';
export {
  expandTemplate,
  fixedResourceCallback,
  resourceReader,
  sourceResourceCallback,
  templateListCallback,
  templateResourceCallback,
  type ResourceContents,
  type ResourceReader,
  type ResourceSource,
} from './resources.js';
export { promptCallback, renderTemplate, templatePromptCallback, withoutArguments, type PromptTemplateMessage } from './prompts.js';
export { installCompletions, type CompletionMap } from './completions.js';
export { installSubscriptions } from './subscriptions.js';
export { publishCapabilities } from './capabilities.js';
export { startStdioServer, type StdioHostHandle, type StdioHostOptions } from './host/stdio.js';
export { SharedRegistry, sharingFactory, type InstanceOptions, type Sharing } from './shared.js';
export { disableEntries, primitiveRefs, primitiveSwitch, resolvePrimitive, PrimitiveSwitch, type PrimitiveKind, type PrimitiveSwitches } from './toggle.js';
export type { Connection } from './connection.js';
export { startHttpServer, type HttpAuthOptions, type HttpHostOptions, type HttpServerHandle } from './host/http.js';
export { parseMainArgs, runMain, usage, type LaunchServices, type MainHandle, type MainArgs, type MainFactory, type MainInfo, type RunMainOptions } from './host/main.js';
export { PRETENURING_ENV, tuneYoungCollections } from './host/youngGc.js';
export { createRedisStore, redactUrl, type RedisStore, type RedisStoreOptions } from './store/redis.js';
export { FleetEventBus, runAsTenant } from './host/events.js';
export {
  blobContent,
  createUpstream,
  type UpstreamBlob,
  type UpstreamClient,
  type UpstreamConfig,
  type UpstreamCredential,
  type UpstreamOptions,
  type UpstreamRoute,
} from './upstream.js';
