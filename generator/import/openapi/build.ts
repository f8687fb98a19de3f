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
import { listOperations, type ApiOperation } from './operations.js';
import { SchemaConverter } from './schemas.js';

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
}

function serverName(api: LoadedApi, config: ImportConfig): string {
  const raw = config.server ?? api.doc.info?.title ?? 'imported-api';
  return raw.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '') || 'imported-api';
}

function envName(prefix: string, name: string): string {
  return `${prefix}_${name}`.toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
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
  const server = api.doc.servers?.[0]?.url;
  const upstream: Obj = {
    ...(server && /^https?:\/\//.test(server) && !server.includes('{') ? { baseUrl: server } : {}),
    baseUrlEnv: envName(prefix, 'BASE_URL'),
    ...(Object.keys(credentials).length ? { credentials } : {}),
  };
  return { upstream, scopes };
}

interface Built {
  input: Obj;
  http: Obj;
}

/** The tool input (path, query and header parameters, the body) and the `http:` that sends it. */
function inputAndHttp(op: ApiOperation, conv: SchemaConverter, response: Obj): Built {
  const properties: Obj = {};
  const required: string[] = [];
  const query: Obj = {};
  const headers: Obj = {};
  let path = op.path;
  for (const p of op.parameters.filter((x) => x.in !== 'cookie')) {
    let prop = p.in === 'path' ? variableName(p.name) : p.name;
    if (prop in properties) prop = `${prop}_${p.in}`;
    const schema = conv.convert(p.schema) as Obj;
    properties[prop] = p.description && schema['description'] === undefined && !('$ref' in schema) ? { ...schema, description: p.description } : schema;
    if (p.required) required.push(prop);
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(`{${prop}}`);
    if (p.in === 'query') query[prop] = p.name;
    if (p.in === 'header') headers[prop] = p.name;
  }
  let body: string | undefined;
  if (op.body?.schema !== undefined) {
    body = 'body' in properties ? 'requestBody' : 'body';
    const schema = conv.convert(op.body.schema) as Obj;
    properties[body] = op.body.description && !('$ref' in schema) ? { ...schema, description: op.body.description } : schema;
    if (op.body.required) required.push(body);
  }
  const input: Obj = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  const http: Obj = { method: op.method, path, ...(Object.keys(query).length ? { query } : {}), ...(Object.keys(headers).length ? { headers } : {}), ...(body ? { body } : {}), ...response };
  return { input, http };
}

function credentialsOf(op: ApiOperation): { credentials: string[]; scopes: string[] } {
  const credentials = [...new Set(op.security.flatMap((alt) => Object.keys(alt)))];
  const scopes = [...new Set((op.security[0] ? Object.values(op.security[0]) : []).flat())];
  return { credentials, scopes };
}

/** The operation's description, else its summary (the model reads the description; the title is the summary). */
function description(op: ApiOperation): string | undefined {
  return [op.description, op.summary].map((s) => s?.trim()).find((s) => !!s);
}

/** Builds the draft manifest for a loaded document. */
export function buildDraft(api: LoadedApi, config: ImportConfig): Draft {
  const name = serverName(api, config);
  const prefix = config.envPrefix ?? name.replace(/-/g, '_');
  const ops = listOperations(api.doc);
  const comments = new Map<string, string[]>();
  const operations: ImportedOperation[] = [];
  const leftOut: string[] = [];
  const tools: Obj = {};
  const resources: Obj = {};
  const toolNames = new Map<string, string>();
  const planned = ops.map((op) => {
    const override = overridesFor(config, { path: op.path, method: op.method, tags: op.tags, ...(op.operationId ? { operationId: op.operationId } : {}), xMcp: op.xMcp });
    const toolName = cleanName(override.name ?? op.operationId ?? fallbackName(op.method, op.path));
    return { op, toolName, decision: classify(op, override, config.includeDeprecated === true), named: override.name !== undefined || op.operationId !== undefined };
  });
  const components = Object.keys((api.doc.components?.['schemas'] ?? {}) as Obj);
  const names = schemaNames(components, planned.map((p) => p.toolName));
  const conv = new SchemaConverter(api.doc, api.sourceVersion === '3.1' ? '3.1' : '3.0', names);
  const { upstream, scopes } = security(api, prefix);
  for (const { op, toolName, decision } of planned) {
    const label = `${op.method} ${op.path}`;
    if (decision.kind === 'excluded' || decision.kind === 'flagged') {
      leftOut.push(`${label}${op.operationId ? ` (${op.operationId})` : ''}: ${decision.reasons.join('; ')}`);
      operations.push({ method: op.method, path: op.path, decision, note: decision.reasons[0]! });
      continue;
    }
    const clash = toolNames.get(toolName);
    if (clash !== undefined) {
      const note = `not imported: its name \`${toolName}\` is already taken by ${clash}; give it an x-mcp.name or an import config name`;
      leftOut.push(`${label}: ${note}`);
      operations.push({ method: op.method, path: op.path, decision: { ...decision, kind: 'excluded' }, note });
      continue;
    }
    toolNames.set(toolName, label);
    const converted = outputOf(op, conv);
    const { credentials, scopes: opScopes } = credentialsOf(op);
    const { input, http } = inputAndHttp(op, conv, { ...converted.http, ...(credentials.length ? { credentials } : {}) });
    const common = { ...(op.summary ? { title: op.summary.trim() } : {}), ...(description(op) ? { description: description(op) } : {}), ...(opScopes.length ? { scopes: opScopes } : {}) };
    const why = [`from ${label}${op.operationId ? ` (operationId ${op.operationId})` : ''}`, ...decision.reasons, ...converted.notes];
    if (decision.kind === 'tool' || decision.kind === 'both') {
      tools[toolName] = {
        ...common,
        sideEffect: decision.sideEffect,
        ...(decision.idempotency !== 'none' ? { idempotency: decision.idempotency } : {}),
        ...(decision.approval !== 'none' ? { approval: decision.approval } : {}),
        openWorld: true,
        input,
        ...(converted.output ? { output: converted.output } : {}),
        http,
      };
      comments.set(`tools.${toolName}`, why);
    }
    if (decision.kind === 'resource' || decision.kind === 'both') {
      const resource = resourceOf(name, op, input, http, converted, common);
      if (resource) {
        resources[toolName] = resource;
        comments.set(`resources.${toolName}`, why);
      }
    }
    operations.push({ method: op.method, path: op.path, decision, ...(tools[toolName] ? { tool: toolName } : {}), ...(resources[toolName] ? { resource: toolName } : {}) });
  }
  const schemas = Object.fromEntries(components.map((c) => [names.get(c)!, conv.convert((api.doc.components!['schemas'] as Obj)[c])]));
  const usedScopes = new Set(Object.values({ ...tools, ...resources }).flatMap((p) => ((p as Obj)['scopes'] as string[] | undefined) ?? []));
  const manifest: Obj = {
    mcpgen: 1,
    server: {
      name,
      version: /^\d+\.\d+\.\d+/.test(api.doc.info?.version ?? '') ? api.doc.info!.version : '0.1.0',
      ...(api.doc.info?.title ? { title: api.doc.info.title } : {}),
      ...(api.doc.info?.description ? { description: api.doc.info.description.trim() } : {}),
      ...(usedScopes.size ? { scopes: Object.fromEntries(Object.entries(scopes).filter(([s]) => usedScopes.has(s))) } : {}),
    },
    ...(Object.keys(schemas).length ? { schemas } : {}),
    ...(Object.keys(tools).length ? { tools } : {}),
    ...(Object.keys(resources).length ? { resources } : {}),
    upstream,
  };
  return { manifest, comments, operations, leftOut };
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
  if (conv.objectLike(schema)) return { output: schema, http: {}, notes: [], resourceSchema: schema };
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
