/**
 * Resource callbacks: fixed URIs, templates (with variable decoding and
 * screening), embedded `source:` content, template listings, and readers
 * that prompts use to embed a resource.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UriTemplate,
  type ListResourcesResult,
  type ReadResourceResult,
  type ServerContext,
  type Variables,
} from '@modelcontextprotocol/server';
import { handlerContext, type HandlerContext, type Runtime } from './context.js';
import { NotImplementedError, ResourceNotFound } from './errors.js';
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

/** Turns a handler's value into the one contents entry of a read result. */
function toContents(rt: Runtime, spec: ResourceSpec, uri: string, value: unknown): ResourceContents {
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
    return { uri, mimeType: spec.mimeType, text };
  }
  // Binary: bytes, or a string that is already base64.
  if (value instanceof Uint8Array) return { uri, mimeType: spec.mimeType, blob: Buffer.from(value).toString('base64') };
  if (typeof value === 'string') return { uri, mimeType: spec.mimeType, blob: value };
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
async function readThrough(rt: Runtime, spec: ResourceSpec, uri: string, produce: () => unknown): Promise<ResourceContents> {
  let value: unknown;
  try {
    value = await produce();
  } catch (error) {
    if (error instanceof ResourceNotFound) throw new ResourceNotFoundError(error.uri ?? uri);
    if (error instanceof NotImplementedError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    rt.reportError(error, { kind: 'resource', name: spec.name });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error reading resource ${spec.name}.`);
  }
  try {
    return toContents(rt, spec, uri, value);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    rt.reportError(error, { kind: 'resource', name: spec.name });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error reading resource ${spec.name}.`);
  }
}

function contextFor(rt: Runtime, spec: ResourceSpec, sdk: ServerContext): HandlerContext {
  return handlerContext(rt, { kind: 'resource', name: spec.name }, sdk);
}

/** Decodes and validates template variables; invalid ones are -32602 naming the variable. */
function parseParams(spec: ResourceSpec, variables: Variables): unknown {
  if (!spec.params) return variables;
  const parsed = spec.params.parse(variables, { multiSegment: multiSegmentVariables(spec.uriTemplate) });
  if (!parsed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, parsed.message);
  return parsed.value;
}

/** Callback for `registerResource(name, uri, config, …)` backed by `handler.read(ctx)`. */
export function fixedResourceCallback<C>(rt: Runtime, spec: ResourceSpec, handler: FixedResourceHandler<C>): (uri: URL, sdk: ServerContext) => Promise<ReadResourceResult> {
  return async (uri, sdk) => ({ contents: [await readThrough(rt, spec, uri.href, () => handler.read(contextFor(rt, spec, sdk)))] });
}

/** Callback for `registerResource(name, new ResourceTemplate(…), config, …)` backed by `handler.read(params, ctx)`. */
export function templateResourceCallback<P, C>(
  rt: Runtime,
  spec: ResourceSpec,
  handler: TemplateResourceHandler<P, C>,
): (uri: URL, variables: Variables, sdk: ServerContext) => Promise<ReadResourceResult> {
  return async (uri, variables, sdk) => {
    const params = parseParams(spec, variables) as P;
    return { contents: [await readThrough(rt, spec, uri.href, () => handler.read(params, contextFor(rt, spec, sdk)))] };
  };
}

/** Callback serving content embedded at generation time (`source:`); no handler involved. */
export function sourceResourceCallback(_rt: Runtime, spec: ResourceSpec, content: string, encoding: 'text' | 'base64'): (uri: URL) => ReadResourceResult {
  return (uri) => ({ contents: [sourceContents(spec, uri.href, { content, encoding })] });
}

function sourceContents(spec: ResourceSpec, uri: string, source: ResourceSource): ResourceContents {
  return source.encoding === 'text' ? { uri, mimeType: spec.mimeType, text: source.content } : { uri, mimeType: spec.mimeType, blob: source.content };
}

/** Expands a template with percent-encoded values (the SDK's RFC 6570 expansion). */
export function expandTemplate(template: string, params: Readonly<Record<string, unknown>>): string {
  const variables: Variables = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    variables[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return new UriTemplate(template).expand(variables);
}

/** The `list` callback of a `ResourceTemplate`, backed by `handler.list(ctx)`. */
export function templateListCallback<P, C>(rt: Runtime, spec: ResourceSpec, handler: TemplateResourceHandler<P, C>): (sdk: ServerContext) => Promise<ListResourcesResult> {
  return async (sdk) => {
    if (!handler.list) return { resources: [] };
    let listings;
    try {
      listings = await handler.list(contextFor(rt, spec, sdk));
    } catch (error) {
      // A list handler that is still the generated stub contributes nothing, so the
      // rest of resources/list keeps working while the author fills handlers in.
      if (error instanceof NotImplementedError) return { resources: [] };
      rt.reportError(error, { kind: 'resource', name: spec.name });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error listing resource ${spec.name}.`);
    }
    return {
      resources: listings.map((l) => {
        const uri = expandTemplate(spec.uriTemplate ?? '', l.params as Record<string, unknown>);
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
    if ('content' in source) return sourceContents(spec, spec.uri ?? '', source);
    if (spec.uriTemplate === undefined) {
      const fixed = source as FixedResourceHandler<unknown>;
      return readThrough(rt, spec, spec.uri ?? '', () => fixed.read(contextFor(rt, spec, sdk)));
    }
    const template = source as TemplateResourceHandler<unknown, unknown>;
    const uri = expandTemplate(spec.uriTemplate, args);
    const raw = new UriTemplate(spec.uriTemplate).match(uri) ?? {};
    const params = parseParams(spec, raw);
    return readThrough(rt, spec, uri, () => template.read(params, contextFor(rt, spec, sdk)));
  };
}
