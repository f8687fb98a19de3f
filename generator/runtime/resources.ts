/**
 * Resource callbacks: fixed URIs, templates (with variable decoding and
 * screening), embedded `source:` content, template listings, and readers
 * that prompts use to embed a resource.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ListResourcesResult,
  type ReadResourceResult,
  type ServerContext,
  type Variables,
} from '@modelcontextprotocol/server';
import { handlerContext, type HandlerContext, type Runtime, type ServedRevision } from './context.js';
import { firstOf, lookupOf, templateFor } from './lookup.js';
import { uriTemplateOf } from './uriRoutes.js';
import { NotImplementedError, ReadRefused, ResourceNotFound } from './errors.js';
import type { Identity } from './options.js';
import type { AuditOutcome } from './security/audit.js';
import { beginCall } from './security/call.js';
import { finishContents, OverBudget } from './budget.js';
import { checkAudience, inAudience, OutsideAudience } from './security/audience.js';
import { hasScopes, missingScopes, runAuthorize, scopeRefusal } from './security/gate.js';
import type { FixedResourceHandler, ResourceSpec, TemplateResourceHandler } from './types.js';

/** One entry of a read result: text or base64 blob. */
export type ResourceContents = ReadResourceResult['contents'][number];

/** Embedded content generated from a `source:` file. */
export interface ResourceSource {
  readonly content: string;
  readonly encoding: 'text' | 'base64';
}

/** Reads one resource for embedding in a prompt; template variables come from `args` of the same names. */
export type ResourceReader = (sdk: ServerContext, args?: Readonly<Record<string, unknown>>) => Promise<ResourceContents>;

/** Variables of `{+x}` / `{#x}` expressions may contain `/`; simple ones may not. */
function multiSegmentVariables(template: string | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  for (const match of (template ?? '').matchAll(/\{([+#]?)([^}]*)\}/g)) {
    if (match[1]) for (const name of (match[2] ?? '').split(',')) names.add(name.replace(/[*]|:\d+$/g, '').trim());
  }
  return names;
}

/** What one read's handler stated about the content it served (`ctx.servedRevision`). */
interface ReadBox {
  served?: ServedRevision;
}

/** Turns a handler's value into the one contents entry of a read result. */
function toContents(rt: Runtime, spec: ResourceSpec, uri: string, value: unknown, box: ReadBox): ResourceContents {
  if (spec.content) {
    const data = typeof value === 'string' && spec.json ? safeParse(value) : value;
    const result = spec.content.check(data);
    if (result.issues) {
      const message = `Resource ${spec.name} produced content that does not match its schema: ${result.issues.map((i) => i.message).join('; ')}`;
      rt.reportError(new Error(message), { kind: 'resource', name: spec.name });
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    }
  }
  if (spec.textual) {
    const text = typeof value === 'string' ? value : spec.json ? JSON.stringify(value) : undefined;
    if (text === undefined) throw new TypeError(`resource ${spec.name} returned ${typeof value}, expected a string`);
    return finishContents(rt, spec, { uri, mimeType: spec.mimeType, text }, box.served);
  }
  // Binary: bytes, or a string that is already base64.
  if (value instanceof Uint8Array) return finishContents(rt, spec, { uri, mimeType: spec.mimeType, blob: Buffer.from(value).toString('base64') }, box.served);
  if (typeof value === 'string') return finishContents(rt, spec, { uri, mimeType: spec.mimeType, blob: value }, box.served);
  throw new TypeError(`resource ${spec.name} returned ${typeof value}, expected a Uint8Array`);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Runs a handler and maps its failures to protocol errors that leak nothing. */
async function readThrough(rt: Runtime, spec: ResourceSpec, uri: string, box: ReadBox, produce: () => unknown): Promise<ResourceContents> {
  let value: unknown;
  try {
    value = await produce();
  } catch (error) {
    if (error instanceof ResourceNotFound) throw new ResourceNotFoundError(error.uri ?? uri);
    if (error instanceof ReadRefused) throw error;
    if (error instanceof NotImplementedError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    rt.reportError(error, { kind: 'resource', name: spec.name });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error reading resource ${spec.name}.`);
  }
  try {
    return toContents(rt, spec, uri, value, box);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    rt.reportError(error, { kind: 'resource', name: spec.name });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error reading resource ${spec.name}.`);
  }
}

function contextFor(rt: Runtime, spec: ResourceSpec, sdk: ServerContext, identity: Identity, box: ReadBox): HandlerContext {
  return handlerContext(rt, { kind: 'resource', name: spec.name }, sdk, { identity, onServedRevision: (served) => (box.served = served) });
}

/** A refusal by a gate, carrying its audit outcome. */
class Refusal extends ProtocolError {
  constructor(
    readonly outcome: AuditOutcome,
    message: string,
  ) {
    super(ProtocolErrorCode.InvalidParams, message, { reason: outcome });
  }
}

/** Decodes and validates template variables; invalid ones are -32602 naming the variable. */
function parseParams(spec: ResourceSpec, variables: Variables): unknown {
  if (!spec.params) return variables;
  const parsed = spec.params.parse(variables, { multiSegment: multiSegmentVariables(spec.uriTemplate) });
  if (!parsed.ok) throw new Refusal('invalid', parsed.message);
  return parsed.value;
}

/** The gates of one read, in order: audience, scopes, URI length, variables, the `authorize` hook. */
async function gate(rt: Runtime, spec: ResourceSpec, identity: Identity, uri: string, variables: Variables | undefined): Promise<unknown> {
  // First: outside the audience the resource does not exist for this caller, so no other gate may tell it apart.
  checkAudience(spec, identity, uri);
  const missing = missingScopes(spec.scopes, identity.scopes);
  if (missing.length > 0) throw new Refusal('forbidden', scopeRefusal('resource', spec.name, missing));
  if (uri.length > rt.limits.maxUriLength) throw new Refusal('too_large', `Resource URI too long: at most ${rt.limits.maxUriLength} characters.`);
  const params = variables === undefined ? undefined : parseParams(spec, variables);
  const denied = await runAuthorize(rt.options, { ...identity, kind: 'resource', name: spec.name, uri, ...(params === undefined ? {} : { params }), ...governanceOf(spec) }, (e) => rt.reportError(e, { kind: 'resource', name: spec.name }));
  if (denied !== undefined) throw new Refusal('forbidden', denied);
  return params;
}

/** What the `authorize` hook is told of a resource's declared data handling. */
function governanceOf(spec: ResourceSpec): { classification?: ResourceSpec['classification']; audience?: readonly string[] } {
  return { ...(spec.classification === undefined ? {} : { classification: spec.classification }), ...(spec.audience === undefined ? {} : { audience: spec.audience }) };
}

/** The declared resource that serves `uri`, with the raw variables of a template match. */
export function resourceFor(rt: Runtime, uri: string): { readonly spec: ResourceSpec; readonly variables?: Variables } | undefined {
  const lookup = lookupOf(rt.catalog);
  // A resource switched off is one the server does not have (`disable()`).
  const fixed = firstOf(lookup.fixed.get(uri));
  if (fixed !== undefined) return rt.isDisabled('resource', fixed.name) ? undefined : { spec: fixed };
  return templateFor(lookup, uri, (spec) => !rt.isDisabled('resource', spec.name));
}

/**
 * Why `identity` may not read `uri` (scopes, URI bounds, template variables, the `authorize` hook), or
 * undefined when it may: the same gates as `resources/read`, for subscriptions and their deliveries.
 */
export async function readRefusal(rt: Runtime, identity: Identity, uri: string): Promise<string | undefined> {
  const found = resourceFor(rt, uri);
  if (!found) return `Resource not found: ${uri}`;
  try {
    await gate(rt, found.spec, identity, uri, found.variables);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Runs the gates, then `produce`, recording one audit event either way. */
async function guardedRead(
  rt: Runtime,
  spec: ResourceSpec,
  sdk: ServerContext,
  uri: string,
  variables: Variables | undefined,
  produce: (params: unknown, ctx: HandlerContext, box: ReadBox) => Promise<ResourceContents> | ResourceContents,
): Promise<ReadResourceResult> {
  const call = beginCall(rt, 'resource', spec.name, sdk, { uri }, uri);
  try {
    const params = await gate(rt, spec, call.identity, uri, variables);
    const box: ReadBox = {};
    const contents = await produce(params, contextFor(rt, spec, sdk, call.identity, box), box);
    call.end('ok');
    return { contents: [contents] };
  } catch (error) {
    const reason = error instanceof OverBudget || error instanceof OutsideAudience ? error.detail : error instanceof Error ? error.message : String(error);
    call.end(error instanceof Refusal || error instanceof OverBudget || error instanceof OutsideAudience ? error.outcome : 'error', { reason });
    throw error;
  }
}

/** Callback for `registerResource(name, uri, config, …)` backed by `handler.read(ctx)`. */
export function fixedResourceCallback<C>(rt: Runtime, spec: ResourceSpec, handler: FixedResourceHandler<C>): (uri: URL, sdk: ServerContext) => Promise<ReadResourceResult> {
  return (uri, sdk) => guardedRead(rt, spec, sdk, uri.href, undefined, (_params, ctx, box) => readThrough(rt, spec, uri.href, box, () => handler.read(ctx)));
}

/** Callback for `registerResource(name, new ResourceTemplate(…), config, …)` backed by `handler.read(params, ctx)`. */
export function templateResourceCallback<P, C>(
  rt: Runtime,
  spec: ResourceSpec,
  handler: TemplateResourceHandler<P, C>,
): (uri: URL, variables: Variables, sdk: ServerContext) => Promise<ReadResourceResult> {
  return (uri, variables, sdk) => guardedRead(rt, spec, sdk, uri.href, variables, (params, ctx, box) => readThrough(rt, spec, uri.href, box, () => handler.read(params as P, ctx)));
}

/** Callback serving content embedded at generation time (`source:`); no handler involved. */
export function sourceResourceCallback(rt: Runtime, spec: ResourceSpec, content: string, encoding: 'text' | 'base64'): (uri: URL, sdk: ServerContext) => Promise<ReadResourceResult> {
  return (uri, sdk) => guardedRead(rt, spec, sdk, uri.href, undefined, () => sourceContents(rt, spec, uri.href, { content, encoding }));
}

function sourceContents(rt: Runtime, spec: ResourceSpec, uri: string, source: ResourceSource): ResourceContents {
  return finishContents(rt, spec, source.encoding === 'text' ? { uri, mimeType: spec.mimeType, text: source.content } : { uri, mimeType: spec.mimeType, blob: source.content });
}

/** Expands a template with percent-encoded values (the SDK's RFC 6570 expansion). */
export function expandTemplate(template: string, params: Readonly<Record<string, unknown>>): string {
  const variables: Variables = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    variables[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return uriTemplateOf(template).expand(variables);
}

/** The `list` callback of a `ResourceTemplate`, backed by `handler.list(ctx)`. */
export function templateListCallback<P, C>(rt: Runtime, spec: ResourceSpec, handler: TemplateResourceHandler<P, C>): (sdk: ServerContext) => Promise<ListResourcesResult> {
  return async (sdk) => {
    if (!handler.list) return { resources: [] };
    const identity = rt.identify(sdk);
    // Listings hide what the caller may not read.
    if (!hasScopes(spec.scopes, identity) || !inAudience(spec, identity)) return { resources: [] };
    let listings;
    try {
      listings = await handler.list(contextFor(rt, spec, sdk, identity, {}));
    } catch (error) {
      // A list handler that is still the generated stub contributes nothing, so the
      // rest of resources/list keeps working while the author fills handlers in.
      if (error instanceof NotImplementedError) return { resources: [] };
      rt.reportError(error, { kind: 'resource', name: spec.name });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error listing resource ${spec.name}.`);
    }
    const visible = [];
    for (const listing of listings) {
      const uri = expandTemplate(spec.uriTemplate ?? '', listing.params as Record<string, unknown>);
      const denied = await runAuthorize(rt.options, { ...identity, kind: 'resource', name: spec.name, uri, params: listing.params, ...governanceOf(spec) }, (e) => rt.reportError(e, { kind: 'resource', name: spec.name }));
      if (denied === undefined) visible.push({ l: listing, uri });
    }
    return {
      resources: visible.map(({ l, uri }) => {
        return {
          uri,
          name: l.name ?? uri,
          ...(l.title === undefined ? {} : { title: l.title }),
          ...(l.description === undefined ? {} : { description: l.description }),
          mimeType: spec.mimeType,
        };
      }),
    };
  };
}

/**
 * A reader for embedding `spec` in a prompt message. For a template resource,
 * variables are filled from the prompt arguments of the same names, then
 * decoded and screened exactly as a `resources/read` would be.
 */
export function resourceReader(
  rt: Runtime,
  spec: ResourceSpec,
  source: ResourceSource | FixedResourceHandler<unknown> | TemplateResourceHandler<unknown, unknown>,
): ResourceReader {
  return async (sdk, args = {}) => {
    // A resource switched off is not found, embedded or not.
    if (rt.isDisabled('resource', spec.name)) throw new ResourceNotFoundError(spec.uri ?? spec.uriTemplate ?? spec.name);
    // An embedded resource is read with the prompt caller's rights: a prompt never widens access.
    const identity = rt.identify(sdk);
    if ('content' in source) {
      await gate(rt, spec, identity, spec.uri ?? '', undefined);
      return sourceContents(rt, spec, spec.uri ?? '', source);
    }
    if (spec.uriTemplate === undefined) {
      const fixed = source as FixedResourceHandler<unknown>;
      await gate(rt, spec, identity, spec.uri ?? '', undefined);
      const box: ReadBox = {};
      return readThrough(rt, spec, spec.uri ?? '', box, () => fixed.read(contextFor(rt, spec, sdk, identity, box)));
    }
    const template = source as TemplateResourceHandler<unknown, unknown>;
    const uri = expandTemplate(spec.uriTemplate, args);
    const raw = uriTemplateOf(spec.uriTemplate).match(uri) ?? {};
    const params = await gate(rt, spec, identity, uri, raw);
    const box: ReadBox = {};
    return readThrough(rt, spec, uri, box, () => template.read(params, contextFor(rt, spec, sdk, identity, box)));
  };
}
