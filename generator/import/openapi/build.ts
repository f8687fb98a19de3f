/**
 * Builds the manifest draft from classified operations: tools, resource
 * templates, named schemas, scopes and the `upstream:` block, each primitive
 * with the comment lines that explain its classification.
 */
import type { ImportConfig } from './config.js';
import { overridesFor } from './config.js';
import { classify, type Decision } from './classify.js';
import type { LoadedApi } from './load.js';
import { cleanName, fallbackName, schemaNames, variableName } from './names.js';
import { listOperations, type ApiOperation, type ApiParameter } from './operations.js';
import { SchemaConverter } from './schemas.js';
import type { Waivers } from './waivers.js';

type Obj = Record<string, unknown>;

/** One operation's fate, for the summary. */
export interface ImportedOperation {
  readonly method: string;
  readonly path: string;
  readonly decision: Decision;
  readonly tool?: string;
  readonly resource?: string;
  /** Why it was left out (exclusion, flag, name collision). */
  readonly note?: string;
}

/** The draft: the manifest as data, the comment above each primitive, and what happened to each operation. */
export interface Draft {
  readonly manifest: Obj;
  /** `tools.<name>` / `resources.<name>` → comment lines. */
  readonly comments: ReadonlyMap<string, readonly string[]>;
  readonly operations: readonly ImportedOperation[];
  /** Left-out operations as comment lines at the end of `tools:`. */
  readonly leftOut: readonly string[];
  /** `tools.<name>` and `resources.<name>` of every primitive. */
  readonly primitives: readonly string[];
  /** The waivers the draft carries. */
  readonly waivers: Waivers;
}

function serverName(api: LoadedApi, config: ImportConfig): string {
  const raw = config.server ?? api.doc.info?.title ?? 'imported-api';
  return raw.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '') || 'imported-api';
}

function envName(prefix: string, name: string): string {
  return `${prefix}_${name}`.toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
}

/** A server's URL with each `{variable}` replaced by its default (OpenAPI: every variable has one). */
export function defaultServerUrl(server: { url?: unknown; variables?: unknown } | undefined): string | undefined {
  if (typeof server?.url !== 'string') return undefined;
  const variables = (server.variables ?? {}) as Record<string, { default?: unknown }>;
  return server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name]?.default : undefined;
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
  });
}

/** `upstream:` and the server's scopes from the security schemes (OAuth scopes by name). */
function security(api: LoadedApi, prefix: string): { upstream: Obj; scopes: Obj } {
  const schemes = (api.doc.components?.['securitySchemes'] ?? {}) as Record<string, Obj>;
  const credentials: Obj = {};
  const scopes: Obj = {};
  for (const [name, s] of Object.entries(schemes)) {
    const env = envName(prefix, name);
    if (s['type'] === 'apiKey') credentials[name] = { in: s['in'] ?? 'header', name: s['name'] ?? name, env };
    else if (s['type'] === 'http' && String(s['scheme']).toLowerCase() === 'basic') credentials[name] = { in: 'header', name: 'Authorization', scheme: 'basic', env };
    else credentials[name] = { in: 'header', name: 'Authorization', scheme: 'bearer', env };
    for (const flow of Object.values((s['flows'] ?? {}) as Record<string, { scopes?: Record<string, string> }>)) {
      for (const [scope, description] of Object.entries(flow.scopes ?? {})) scopes[scope] = description || scope;
    }
  }
  const server = defaultServerUrl(api.doc.servers?.[0]);
  const upstream: Obj = {
    ...(server && /^https?:\/\//.test(server) && !server.includes('{') ? { baseUrl: server } : {}),
    baseUrlEnv: envName(prefix, 'BASE_URL'),
    ...(Object.keys(credentials).length ? { credentials } : {}),
  };
  return { upstream, scopes };
}

/** An HTTP header name (RFC 9110 token); a header parameter named otherwise cannot be sent and is not imported. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface Built {
  input: Obj;
  http: Obj;
}

/** The tool input (path, query and header parameters, the body) and the `http:` that sends it. */
/**
 * True for a parameter the model must never supply: a credential (a security scheme's own header, query
 * parameter or cookie, or `Authorization`), which the upstream client adds from options or the environment;
 * or a header or cookie whose name cannot be sent.
 */
function notAnArgument(p: ApiParameter, secrets: readonly SecretParam[]): boolean {
  if ((p.in === 'header' || p.in === 'cookie') && (!HEADER_NAME.test(p.name) || p.name.toLowerCase() === 'authorization')) return true;
  return secrets.some((s) => s.in === p.in && (p.in === 'header' ? s.name.toLowerCase() === p.name.toLowerCase() : s.name === p.name));
}

/** Where a credential travels, as the security schemes say. */
export interface SecretParam {
  readonly in: string;
  readonly name: string;
}

function inputAndHttp(op: ApiOperation, conv: SchemaConverter, response: Obj, secrets: readonly SecretParam[]): Built {
  const properties: Obj = {};
  const required: string[] = [];
  const query: Obj = {};
  const headers: Obj = {};
  const cookies: Obj = {};
  let path = op.path;
  for (const p of op.parameters.filter((x) => !notAnArgument(x, secrets))) {
    let prop = p.in === 'path' ? variableName(p.name) : p.name;
    if (prop in properties) prop = `${prop}_${p.in}`;
    const schema = conv.convert(p.schema) as Obj;
    properties[prop] = p.description && schema['description'] === undefined && !('$ref' in schema) ? { ...schema, description: p.description } : schema;
    if (p.required) required.push(prop);
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(`{${prop}}`);
    if (p.in === 'query') query[prop] = p.name;
    if (p.in === 'header') headers[prop] = p.name;
    if (p.in === 'cookie') cookies[prop] = p.name;
  }
  let body: string | undefined;
  if (op.body !== undefined) {
    body = 'body' in properties ? 'requestBody' : 'body';
    const schema = conv.convert(op.body.schema) as Obj;
    properties[body] = op.body.description && !('$ref' in schema) ? { ...schema, description: op.body.description } : schema;
    if (op.body.required) required.push(body);
  }
  const input: Obj = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  const bodyType = op.body !== undefined && op.body.type !== 'json' ? op.body.type : undefined;
  const contentType = (bodyType === 'binary' || bodyType === 'text') && !/^(application\/octet-stream|text\/plain)$/i.test(op.body!.mimeType) ? op.body!.mimeType : undefined;
  const http: Obj = {
    method: op.method, path, ...(Object.keys(query).length ? { query } : {}), ...(Object.keys(headers).length ? { headers } : {}), ...(Object.keys(cookies).length ? { cookies } : {}),
    ...(body ? { body } : {}), ...(bodyType ? { bodyType } : {}), ...(contentType ? { contentType } : {}), ...response,
  };
  return { input, http };
}

function credentialsOf(op: ApiOperation, declared: ReadonlySet<string>): { credentials: string[]; scopes: string[] } {
  const credentials = [...new Set(op.security.flatMap((alt) => Object.keys(alt)))].filter((c) => declared.has(c));
  const scopes = [...new Set((op.security[0] ? Object.values(op.security[0]) : []).flat())];
  return { credentials, scopes };
}

/** The operation's description, else its summary (the model reads the description; the title is the summary). */
function description(op: ApiOperation): string | undefined {
  return [op.description, op.summary].map((s) => s?.trim()).find((s) => !!s);
}

/** Adds `lint.disable` waivers (see waivers.ts) to the primitives they name. */
function applyWaivers(section: string, entries: Obj, waivers: Waivers, comments: Map<string, string[]>): void {
  for (const [name, p] of Object.entries(entries)) {
    const disable = waivers.get(`${section}.${name}`);
    if (!disable) continue;
    (p as Obj)['lint'] = { disable };
    comments.get(`${section}.${name}`)?.push(`lint ${Object.keys(disable).join(', ')} waived by the import: review the waiver`);
  }
}

/** What every operation's primitives are built with. */
interface BuildContext {
  readonly server: string;
  readonly conv: SchemaConverter;
  readonly credentials: ReadonlySet<string>;
  readonly secrets: readonly SecretParam[];
}

/** One operation's tool and resource (as the decision says), and the comment lines for them. */
function primitivesOf(ctx: BuildContext, op: ApiOperation, decision: Decision): { tool?: Obj; resource?: Obj; why: string[] } {
  ctx.conv.notes.length = 0;
  const converted = outputOf(op, ctx.conv);
  const { credentials, scopes } = credentialsOf(op, ctx.credentials);
  const { input, http } = inputAndHttp(op, ctx.conv, { ...converted.http, ...(credentials.length ? { credentials } : {}) }, ctx.secrets);
  converted.notes.push(...ctx.conv.notes.splice(0));
  if (op.body !== undefined && op.body.type !== 'json') {
    converted.notes.push(`the request body is ${op.body.mimeType}, sent as ${op.body.type === 'binary' ? 'bytes from a base64 string' : op.body.type === 'text' ? 'text' : `${op.body.type} fields`}`);
  }
  const text = description(op);
  const common = { ...(op.summary ? { title: op.summary.trim() } : {}), ...(text ? { description: text } : {}), ...(scopes.length ? { scopes } : {}) };
  const why = [`from ${op.method} ${op.path}${op.operationId ? ` (operationId ${op.operationId})` : ''}`, ...decision.reasons, ...converted.notes];
  const tool =
    decision.kind === 'tool' || decision.kind === 'both'
      ? {
          ...common,
          sideEffect: decision.sideEffect,
          ...(decision.idempotency !== 'none' ? { idempotency: decision.idempotency } : {}),
          ...(decision.approval !== 'none' ? { approval: decision.approval } : {}),
          openWorld: true,
          input,
          ...(converted.output ? { output: converted.output } : {}),
          http,
        }
      : undefined;
  const resource = decision.kind === 'resource' || decision.kind === 'both' ? resourceOf(ctx.server, op, input, http, converted, common) : undefined;
  return { ...(tool ? { tool } : {}), ...(resource ? { resource } : {}), why };
}

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** `server:`, with the OAuth scopes some primitive uses. */
function serverOf(api: LoadedApi, name: string, scopes: Obj, primitives: readonly Obj[]): Obj {
  const used = new Set(primitives.flatMap((p) => (p['scopes'] as string[] | undefined) ?? []));
  const info = api.doc.info ?? {};
  return {
    name,
    version: SEMVER.test(info.version ?? '') ? info.version : '0.1.0',
    ...(info.title ? { title: info.title } : {}),
    ...(info.description ? { description: info.description.trim() } : {}),
    ...(used.size ? { scopes: Object.fromEntries(Object.entries(scopes).filter(([s]) => used.has(s))) } : {}),
  };
}

/** Builds the draft manifest for a loaded document. */
export function buildDraft(api: LoadedApi, config: ImportConfig, waivers: Waivers = new Map()): Draft {
  const name = serverName(api, config);
  const planned = listOperations(api.doc).map((op) => {
    const override = overridesFor(config, { path: op.path, method: op.method, tags: op.tags, ...(op.operationId ? { operationId: op.operationId } : {}), xMcp: op.xMcp });
    return { op, toolName: cleanName(override.name ?? op.operationId ?? fallbackName(op.method, op.path)), decision: classify(op, override, config.includeDeprecated === true) };
  });
  const components = Object.keys((api.doc.components?.['schemas'] ?? {}) as Obj);
  const names = schemaNames(components, planned.map((p) => p.toolName));
  const { upstream, scopes } = security(api, config.envPrefix ?? name.replace(/-/g, '_'));
  const ctx: BuildContext = { server: name, conv: new SchemaConverter(api.doc, api.sourceVersion === '3.1' ? '3.1' : '3.0', names), credentials: new Set(Object.keys((upstream['credentials'] ?? {}) as Obj)), secrets: Object.values((upstream['credentials'] ?? {}) as Record<string, SecretParam>) };
  const comments = new Map<string, string[]>();
  const operations: ImportedOperation[] = [];
  const leftOut: string[] = [];
  const tools: Obj = {};
  const resources: Obj = {};
  const taken = new Map<string, string>();
  for (const { op, toolName, decision } of planned) {
    const label = `${op.method} ${op.path}`;
    const clash = taken.get(toolName);
    const left = decision.kind === 'excluded' || decision.kind === 'flagged';
    if (left || clash !== undefined) {
      const note = left ? decision.reasons.join('; ') : `not imported: its name \`${toolName}\` is already taken by ${clash}; give it an x-mcp.name or an import config name`;
      leftOut.push(`${label}${left && op.operationId ? ` (${op.operationId})` : ''}: ${note}`);
      operations.push({ method: op.method, path: op.path, decision: left ? decision : { ...decision, kind: 'excluded' }, note: left ? decision.reasons[0]! : note });
      continue;
    }
    taken.set(toolName, label);
    const built = primitivesOf(ctx, op, decision);
    if (built.tool) (tools[toolName] = built.tool), comments.set(`tools.${toolName}`, [...built.why]);
    if (built.resource) (resources[toolName] = built.resource), comments.set(`resources.${toolName}`, [...built.why]);
    operations.push({ method: op.method, path: op.path, decision, ...(built.tool ? { tool: toolName } : {}), ...(built.resource ? { resource: toolName } : {}) });
  }
  applyWaivers('tools', tools, waivers, comments);
  applyWaivers('resources', resources, waivers, comments);
  const schemas = Object.fromEntries(components.map((c) => [names.get(c)!, ctx.conv.convert((api.doc.components!['schemas'] as Obj)[c])]));
  const manifest: Obj = {
    mcpgen: 1,
    server: serverOf(api, name, scopes, [...Object.values(tools), ...Object.values(resources)] as Obj[]),
    ...(Object.keys(schemas).length ? { schemas } : {}),
    ...(Object.keys(tools).length ? { tools } : {}),
    ...(Object.keys(resources).length ? { resources } : {}),
    upstream,
  };
  const primitives = [...Object.keys(tools).map((t) => `tools.${t}`), ...Object.keys(resources).map((r) => `resources.${r}`)];
  return { manifest, comments, operations, leftOut, primitives, waivers };
}

interface Converted {
  output?: Obj;
  http: Obj;
  notes: string[];
  resourceSchema?: unknown;
}

/** The output schema and the `http.response` of an operation's success response. */
function outputOf(op: ApiOperation, conv: SchemaConverter): Converted {
  const r = op.response;
  if (r.kind === 'binary') return { http: { response: 'binary' }, notes: [`responds with ${r.mimeType}: returned as blob content with that MIME type`] };
  if (r.kind === 'text') return { http: { response: 'text' }, notes: [`responds with ${r.mimeType}: returned as text`] };
  if (r.kind === 'none') return { http: { response: 'none' }, notes: [] };
  if (r.schema === undefined) return { http: {}, notes: ['the JSON response has no schema: returned as JSON text'] };
  const schema = conv.convert(r.schema) as Obj;
  if (conv.isObjectType(schema)) return { output: schema, http: {}, notes: [], resourceSchema: schema };
  const wrap = (schema['type'] === 'array') ? 'items' : 'result';
  return {
    output: { type: 'object', properties: { [wrap]: schema }, required: [wrap] },
    http: { wrap },
    notes: [`the response is not an object: the structured output carries it as \`${wrap}\` (MCP output schemas are objects)`],
    resourceSchema: schema,
  };
}

function resourceOf(server: string, op: ApiOperation, input: Obj, http: Obj, converted: Converted, common: Obj): Obj | undefined {
  const props = input['properties'] as Obj;
  const path = http['path'] as string;
  const vars = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  if (vars.some((v) => !(v in props))) return undefined;
  const mimeType = op.response.mimeType ?? 'application/json';
  const { title, description: text } = common as { title?: string; description?: string };
  return {
    ...(title ? { title } : {}),
    ...(text ? { description: text } : {}),
    uriTemplate: `${server}://${path.replace(/^\//, '')}`,
    mimeType,
    params: Object.fromEntries(vars.map((v) => [v, props[v]])),
    ...(converted.resourceSchema !== undefined && /json/.test(mimeType) ? { schema: converted.resourceSchema } : {}),
    ...((common['scopes'] as string[] | undefined)?.length ? { scopes: common['scopes'] } : {}),
    http: { path, ...(http['response'] !== undefined ? { response: http['response'] } : {}), ...(http['credentials'] ? { credentials: http['credentials'] } : {}) },
  };
}
