/**
 * The HTTP client behind a generated `upstream.gen.ts`: one request per call,
 * with the base URL and credentials taken from options or the environment
 * (never from arguments, never logged), the call's AbortSignal and a timeout,
 * and upstream failures mapped to what a model may see: a 4xx carries the
 * upstream's own message, a 5xx or a network failure only a generic one.
 */
import type { ContentBlock } from '@modelcontextprotocol/server';
import { ResourceNotFound, ToolError } from './errors.js';

/** One credential: where it goes and which variable holds it. */
export interface UpstreamCredential {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
  readonly scheme?: 'bearer' | 'basic';
  readonly env: string;
}

/** What the manifest's `upstream:` says, as generated code passes it. */
export interface UpstreamConfig {
  readonly baseUrl?: string;
  readonly baseUrlEnv: string;
  readonly timeoutMs: number;
  readonly credentials: Readonly<Record<string, UpstreamCredential>>;
}

/** Launch-time settings; each one wins over the environment. */
export interface UpstreamOptions {
  readonly baseUrl?: string;
  /** Credential name → secret value. */
  readonly credentials?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** The fetch implementation (a test double, a proxy-aware fetch); the global one by default. */
  readonly fetch?: typeof fetch;
  /** Where variables are read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One upstream operation, as the manifest's `http:` says. */
export interface UpstreamRoute {
  readonly method: string;
  readonly path: string;
  readonly response: 'json' | 'text' | 'binary' | 'none';
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly cookies?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** How the body is encoded; JSON when absent. */
  readonly bodyType?: 'json' | 'form' | 'multipart' | 'binary' | 'text';
  /** The `Content-Type` of a binary or text body. */
  readonly contentType?: string;
  /** Multipart fields whose values are base64 and go as files. */
  readonly files?: readonly string[];
  readonly wrap?: string;
  readonly credentials?: readonly string[];
  /** The tool declares `output`: a JSON answer is returned as structured content, otherwise as JSON text. */
  readonly structured?: boolean;
}

/** A binary body and its MIME type. */
export interface UpstreamBlob {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  /** The request URL without query, user or password: safe to show. */
  readonly url: string;
}

// Generated code passes its typed inputs (interfaces, so without an index signature) as plain objects.
type Values = object;
type Failure = (status: number, statusText: string, message: string | undefined) => Error;

/** Longest upstream message passed on to the model. */
const MAX_MESSAGE = 500;

/** Reads the upstream answer's own explanation: a JSON `message`/`error`/`detail`/`title`, or its text. */
async function upstreamMessage(res: Response): Promise<string | undefined> {
  const text = (await res.text().catch(() => '')).trim();
  if (!text) return undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const k of ['message', 'error_description', 'detail', 'title', 'error']) {
      const v = body?.[k];
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, MAX_MESSAGE);
      if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') return String((v as { message: string }).message).slice(0, MAX_MESSAGE);
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text.slice(0, MAX_MESSAGE);
}

function encodeValue(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

/** The request for one call: URL, headers and body; secrets only from options or the environment. */
function buildRequest(config: UpstreamConfig, options: UpstreamOptions, route: UpstreamRoute, given: Values): { url: URL; init: RequestInit } {
  const values = given as Readonly<Record<string, unknown>>;
  const env = options.env ?? process.env;
  const base = options.baseUrl ?? env[config.baseUrlEnv] ?? config.baseUrl;
  if (!base) throw new ToolError(`The upstream API is not configured: set ${config.baseUrlEnv} to its base URL.`);
  const path = route.path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(encodeValue(values[name])));
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [prop, name] of Object.entries(route.query ?? {})) {
    const v = values[prop];
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(name, encodeValue(item));
  }
  const headers = new Headers({ accept: route.response === 'json' ? 'application/json' : '*/*' });
  for (const [prop, name] of Object.entries(route.headers ?? {})) if (values[prop] !== undefined) headers.set(name, encodeValue(values[prop]));
  const cookies: string[] = [];
  for (const [prop, name] of Object.entries(route.cookies ?? {})) {
    if (values[prop] !== undefined && values[prop] !== null) cookies.push(`${name}=${encodeURIComponent(encodeValue(values[prop]))}`);
  }
  for (const name of route.credentials ?? []) {
    const c = config.credentials[name];
    const secret = options.credentials?.[name] ?? (c ? env[c.env] : undefined);
    if (!c || secret === undefined || secret === '') continue;
    const value = c.scheme === 'bearer' ? `Bearer ${secret}` : c.scheme === 'basic' ? `Basic ${Buffer.from(secret).toString('base64')}` : secret;
    if (c.in === 'header') headers.set(c.name, value);
    else if (c.in === 'query') url.searchParams.set(c.name, value);
    else cookies.push(`${c.name}=${encodeURIComponent(value)}`);
  }
  if (cookies.length) headers.set('cookie', cookies.join('; '));
  const init: RequestInit = { method: route.method, headers };
  if (route.body !== undefined && values[route.body] !== undefined) init.body = encodeBody(route, values[route.body], headers);
  return { url, init };
}

/** The fields of an object body with a value, in order; arrays give one field per item. */
function fields(value: unknown): [string, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map((item) => [k, item] as [string, unknown]) : [[k, v] as [string, unknown]]));
}

/** The request body as `route.bodyType` says, setting its `Content-Type` (multipart: fetch sets it with the boundary). */
function encodeBody(route: UpstreamRoute, value: unknown, headers: Headers): BodyInit {
  switch (route.bodyType ?? 'json') {
    case 'form': {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      return new URLSearchParams(fields(value).map(([k, v]) => [k, encodeValue(v)])).toString();
    }
    case 'multipart': {
      const form = new FormData();
      for (const [k, v] of fields(value)) {
        if (route.files?.includes(k)) form.append(k, new Blob([Buffer.from(String(v), 'base64')], { type: 'application/octet-stream' }), k);
        else form.append(k, encodeValue(v));
      }
      return form;
    }
    case 'binary':
      headers.set('content-type', route.contentType ?? 'application/octet-stream');
      return new Uint8Array(Buffer.from(String(value), 'base64'));
    case 'text':
      headers.set('content-type', route.contentType ?? 'text/plain; charset=utf-8');
      return String(value);
    default:
      headers.set('content-type', 'application/json');
      return JSON.stringify(value);
  }
}

/** The URL without query, user or password. */
function safeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

async function send(config: UpstreamConfig, options: UpstreamOptions, route: UpstreamRoute, values: Values, signal: AbortSignal, fail: Failure): Promise<{ res: Response; url: URL }> {
  const { url, init } = buildRequest(config, options, route, values);
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, { ...init, signal: AbortSignal.any([signal, timeout]) });
  } catch (error) {
    // The call's own cancellation (client cancel, tool timeout) is the runtime's to report.
    if (signal.aborted) throw signal.reason ?? error;
    if (timeout.aborted) throw fail(0, '', `The upstream API did not answer within ${timeoutMs} ms; try again later.`);
    throw fail(0, '', 'The upstream API could not be reached; try again later.');
  }
  if (res.ok) return { res, url };
  if (res.status >= 400 && res.status < 500) throw fail(res.status, res.statusText, await upstreamMessage(res));
  await res.body?.cancel().catch(() => undefined);
  throw fail(res.status, res.statusText, undefined);
}

function toolFailure(status: number, statusText: string, message: string | undefined): Error {
  if (status === 0) return new ToolError(message!);
  if (status >= 500) return new ToolError(`The upstream API failed (HTTP ${status}); whether the operation took effect is unknown. Try again later.`);
  return new ToolError(`The upstream API refused the request (HTTP ${status}${statusText ? ` ${statusText}` : ''})${message ? `: ${message}` : '.'}`);
}

function resourceFailure(status: number, _statusText: string, message: string | undefined): Error {
  if (status === 404) return new ResourceNotFound();
  return new Error(status === 0 ? message : `The upstream API answered HTTP ${status}.`);
}

async function readJson(res: Response, fail: () => Error): Promise<unknown> {
  const text = await res.text();
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw fail();
  }
}

async function readBlob(res: Response, url: URL): Promise<UpstreamBlob> {
  const mimeType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
  return { bytes: new Uint8Array(await res.arrayBuffer()), mimeType, url: safeUrl(url) };
}

/** A blob as the content block a model can take: image, audio, or an embedded binary resource. */
export function blobContent(blob: UpstreamBlob): ContentBlock[] {
  const data = Buffer.from(blob.bytes).toString('base64');
  if (blob.mimeType.startsWith('image/')) return [{ type: 'image', data, mimeType: blob.mimeType }];
  if (blob.mimeType.startsWith('audio/')) return [{ type: 'audio', data, mimeType: blob.mimeType }];
  return [{ type: 'resource', resource: { uri: blob.url, mimeType: blob.mimeType, blob: data } }];
}

/** The client a generated `upstream.gen.ts` holds: one method for tools, one for resources. */
export interface UpstreamClient {
  /** Calls the route for a tool; the value suits the tool's handler return (structured output, text or content). */
  tool(route: UpstreamRoute, input: Values, signal: AbortSignal): Promise<unknown>;
  /** Calls the route for a resource read; 404 becomes resource-not-found. */
  resource(route: UpstreamRoute, params: Values, signal: AbortSignal): Promise<unknown>;
}

/** Creates the upstream client for a manifest's `upstream:` and the launch options. */
export function createUpstream(config: UpstreamConfig, options: UpstreamOptions = {}): UpstreamClient {
  const malformed = () => new ToolError('The upstream API answered with a body that is not valid JSON.');
  return {
    async tool(route, input, signal) {
      const { res, url } = await send(config, options, route, input, signal, toolFailure);
      if (route.response === 'binary') return blobContent(await readBlob(res, url));
      if (route.response === 'text') return await res.text();
      if (route.response === 'none') {
        await res.body?.cancel().catch(() => undefined);
        return `Done (HTTP ${res.status}).`;
      }
      const value = await readJson(res, malformed);
      if (!route.structured) return JSON.stringify(value);
      return route.wrap !== undefined ? { [route.wrap]: value } : value;
    },
    async resource(route, params, signal) {
      const { res, url } = await send(config, options, route, params, signal, resourceFailure);
      if (route.response === 'binary') return (await readBlob(res, url)).bytes;
      if (route.response === 'json') return await readJson(res, () => new Error('The upstream API answered with a body that is not valid JSON.'));
      return await res.text();
    },
  };
}
