/**
 * The operations of a bundled OpenAPI 3.x document, each with its parameters
 * (path-level ones merged in), request body and success response.
 */
import type { OpenApiDoc } from './load.js';
import { deref } from './pointer.js';

/** One parameter as the operation declares it. */
export interface ApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: unknown;
  readonly deprecated: boolean;
}

/** The success response: what kind of body, its MIME type and JSON schema. */
export interface ApiResponse {
  readonly status: string;
  readonly kind: 'json' | 'text' | 'binary' | 'none';
  readonly mimeType?: string;
  readonly schema?: unknown;
}

/** How a request body is sent (see the manifest's `http.bodyType`). */
export type BodyType = 'json' | 'form' | 'multipart' | 'binary' | 'text';

/** An operation's request body. */
export interface ApiBody {
  readonly required: boolean;
  readonly mimeType: string;
  readonly type: BodyType;
  readonly schema: unknown;
  readonly description?: string;
}

/** One operation. */
export interface ApiOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly xMcp: unknown;
  readonly parameters: readonly ApiParameter[];
  /** The request body: how it is encoded, its MIME type and schema (a binary or text body is a string). */
  readonly body?: ApiBody;
  readonly response: ApiResponse;
  /** Security requirement alternatives (operation-level, else document-level). */
  readonly security: readonly Record<string, readonly string[]>[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const isJson = (mime: string) => /^application\/(.+\+)?json\b/i.test(mime) || mime === '*/*';
const isText = (mime: string) => /^text\//i.test(mime) || /^application\/(xml|.+\+xml)\b/i.test(mime);

function parameters(doc: OpenApiDoc, list: unknown): ApiParameter[] {
  return (Array.isArray(list) ? list : []).map((p) => deref<Record<string, unknown>>(doc, p)).filter((p): p is Record<string, unknown> => !!p && typeof p['name'] === 'string').map((p) => {
    const media = p['content'] && typeof p['content'] === 'object' ? Object.values(p['content'] as Record<string, { schema?: unknown }>)[0] : undefined;
    return {
      name: p['name'] as string,
      in: p['in'] as ApiParameter['in'],
      required: p['required'] === true || p['in'] === 'path',
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      schema: p['schema'] ?? media?.schema ?? { type: 'string' },
      deprecated: p['deprecated'] === true,
    };
  });
}

function successResponse(doc: OpenApiDoc, responses: unknown): ApiResponse {
  const all = (responses ?? {}) as Record<string, unknown>;
  const status = Object.keys(all).filter((s) => /^2(\d\d|XX)$/i.test(s)).sort()[0];
  if (status === undefined) return { status: 'none', kind: 'none' };
  const r = deref<{ content?: Record<string, { schema?: unknown }> }>(doc, all[status]);
  const content = r?.content ?? {};
  const mimes = Object.keys(content);
  if (mimes.length === 0) return { status, kind: 'none' };
  const json = mimes.find(isJson);
  if (json) return { status, kind: 'json', mimeType: json === '*/*' ? 'application/json' : json, schema: content[json]?.schema };
  const text = mimes.find(isText);
  if (text) return { status, kind: 'text', mimeType: text };
  return { status, kind: 'binary', mimeType: mimes[0]! };
}

const FORM = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART = /^multipart\/form-data\b/i;

/** The body's encoding for a MIME type, and the input schema that carries it. */
function bodyOf(mimeType: string, schema: unknown): { type: BodyType; schema: unknown } {
  if (isJson(mimeType)) return { type: 'json', schema: schema ?? {} };
  if (FORM.test(mimeType)) return { type: 'form', schema: schema ?? { type: 'object' } };
  if (MULTIPART.test(mimeType)) return { type: 'multipart', schema: schema ?? { type: 'object' } };
  if (isText(mimeType)) return { type: 'text', schema: { type: 'string' } };
  return { type: 'binary', schema: { type: 'string', contentEncoding: 'base64', contentMediaType: mimeType, description: `The ${mimeType} body, base64-encoded.` } };
}

function requestBody(doc: OpenApiDoc, body: unknown): ApiOperation['body'] {
  const b = deref<{ required?: boolean; description?: string; content?: Record<string, { schema?: unknown }> }>(doc, body);
  if (!b?.content) return undefined;
  const mimes = Object.keys(b.content);
  // JSON first, then the encodings that keep a schema's structure, then text, then bytes.
  const mimeType = mimes.find(isJson) ?? mimes.find((m) => FORM.test(m)) ?? mimes.find((m) => MULTIPART.test(m)) ?? mimes.find(isText) ?? mimes[0]!;
  return { required: b.required === true, mimeType, ...bodyOf(mimeType, b.content[mimeType]?.schema), ...(b.description ? { description: b.description } : {}) };
}

/** Every operation, in document order (paths, then methods in the order above). */
export function listOperations(doc: OpenApiDoc): ApiOperation[] {
  const out: ApiOperation[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref<Record<string, unknown>>(doc, rawItem) ?? {};
    const shared = parameters(doc, item['parameters']);
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op || typeof op !== 'object') continue;
      const own = parameters(doc, op['parameters']);
      const merged = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const body = requestBody(doc, op['requestBody']);
      out.push({
        method: method.toUpperCase(),
        path,
        ...(typeof op['operationId'] === 'string' ? { operationId: op['operationId'] } : {}),
        ...(typeof op['summary'] === 'string' ? { summary: op['summary'] } : {}),
        ...(typeof op['description'] === 'string' ? { description: op['description'] } : {}),
        tags: Array.isArray(op['tags']) ? (op['tags'] as string[]) : [],
        deprecated: op['deprecated'] === true,
        // The operation's own x-mcp, else its path item's, else the document's.
        xMcp: op['x-mcp'] ?? item['x-mcp'] ?? doc['x-mcp'],
        parameters: merged,
        ...(body ? { body } : {}),
        response: successResponse(doc, op['responses']),
        security: (Array.isArray(op['security']) ? op['security'] : doc.security ?? []) as Record<string, string[]>[],
      });
    }
  }
  return out;
}
