/**
 * Emits `upstream.gen.ts` (regenerated) for a manifest with `upstream:`: the
 * typed fetch client that the handlers of `http:` tools and resources call.
 * Each function takes the primitive's typed input and the handler context (for
 * its AbortSignal) and returns what the handler returns.
 */
import type { IrHttp, IrNamedSchema, IrResource, IrTool, IrToolHttp, IrUpstream } from '../ir/types.js';
import { typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { importStatement, key, tsHeader } from './text.js';

function config(u: IrUpstream): Record<string, unknown> {
  const credentials = Object.fromEntries(u.credentials.map((c) => [c.name, { in: c.in, name: c.param, ...(c.scheme ? { scheme: c.scheme } : {}), env: c.env }]));
  return { ...(u.baseUrl !== undefined ? { baseUrl: u.baseUrl } : {}), baseUrlEnv: u.baseUrlEnv, timeoutMs: u.timeoutMs, credentials };
}

type Obj = Record<string, unknown>;

/** A schema with the manifest's `#/schemas/Name` reference followed. */
function follow(schema: unknown, named: readonly IrNamedSchema[]): Obj | undefined {
  const ref = (schema as Obj | undefined)?.['$ref'];
  const found = typeof ref === 'string' ? named.find((n) => `#/schemas/${n.name}` === ref)?.schema : schema;
  return found !== null && typeof found === 'object' ? (found as Obj) : undefined;
}

/** The fields of a multipart body that carry files (base64 in the input, bytes on the wire). */
function fileFields(t: IrTool & { http: IrToolHttp }, named: readonly IrNamedSchema[]): string[] {
  if (t.http.bodyType !== 'multipart' || t.http.body === undefined) return [];
  const inputProps = (follow(t.input, named)?.['properties'] ?? {}) as Obj;
  const body = follow(inputProps[t.http.body], named);
  const props = (body?.['properties'] ?? {}) as Obj;
  return Object.keys(props).filter((k) => follow(props[k], named)?.['contentEncoding'] === 'base64');
}

function route(h: IrHttp | IrToolHttp, structured: boolean, files: readonly string[] = []): Record<string, unknown> {
  const pairs = (list: readonly { property: string; name: string }[]) => Object.fromEntries(list.map((p) => [p.property, p.name]));
  const tool = 'query' in h ? h : undefined;
  return {
    method: h.method,
    path: h.path,
    response: h.response,
    ...(tool && tool.query.length ? { query: pairs(tool.query) } : {}),
    ...(tool && tool.headers.length ? { headers: pairs(tool.headers) } : {}),
    ...(tool && tool.cookies.length ? { cookies: pairs(tool.cookies) } : {}),
    ...(tool?.body !== undefined ? { body: tool.body } : {}),
    ...(tool?.bodyType !== undefined ? { bodyType: tool.bodyType } : {}),
    ...(tool?.contentType !== undefined ? { contentType: tool.contentType } : {}),
    ...(files.length ? { files } : {}),
    ...(tool?.wrap !== undefined ? { wrap: tool.wrap } : {}),
    ...(h.credentials.length ? { credentials: h.credentials } : {}),
    ...(structured ? { structured: true } : {}),
  };
}

/** One `upstream.tools` member, as templates/upstream.ts.hbs writes it. */
function toolMember(t: IrTool & { http: IrToolHttp }, named: readonly IrNamedSchema[]) {
  const input = `${typeName.toolInput(t)}`;
  const output = t.output !== undefined ? `${typeName.toolOutput(t)}` : 'ToolReturn';
  return {
    doc: [`\`${t.http.method} ${t.http.path}\` for tool \`${t.name}\`.`],
    key: key(t.id),
    input,
    output,
    route: route(t.http, t.output !== undefined, fileFields(t, named)),
    types: t.output !== undefined ? [input, output] : [input],
  };
}

/** One `upstream.resources` member; `params` only for a templated resource. */
function resourceMember(r: IrResource & { http: IrHttp }) {
  const params = r.uriTemplate !== undefined ? `${typeName.resourceParams(r)}` : undefined;
  const content = `${typeName.resourceContent(r)}`;
  return {
    doc: [`\`GET ${r.http.path}\` for resource \`${r.name}\`; an upstream 404 is "resource not found".`],
    key: key(r.id),
    params,
    content,
    route: route(r.http, false),
    types: params !== undefined ? [params, content] : [content],
  };
}

/** `upstream.gen.ts`, or nothing when the manifest has no `upstream:`. */
export function emitUpstream(ctx: EmitContext): EmittedFile[] {
  const u = ctx.ir.upstream;
  if (u === undefined) return [];
  const tools = ctx.ir.tools.filter((t): t is IrTool & { http: IrToolHttp } => t.http !== undefined).map((t) => toolMember(t, ctx.ir.schemas));
  const resources = ctx.ir.resources.filter((r): r is IrResource & { http: IrHttp } => r.http !== undefined).map(resourceMember);
  const types = [...new Set([...tools, ...resources].flatMap((m) => m.types))].sort();
  const content = render('upstream.ts', {
    header: tsHeader(ctx.ir.manifestName),
    environment: [u.baseUrlEnv, ...u.credentials.map((c) => c.env)].join(', '),
    runtimeImport: importStatement(['createUpstream', 'type HandlerContext', 'type ToolReturn', 'type UpstreamClient', 'type UpstreamOptions'], 'mcp-gen/runtime'),
    typesImport: importStatement(types, './types.gen.js', true),
    config: config(u),
    tools,
    resources,
  });
  return [{ path: 'upstream.gen.ts', content: tidy(content), owner: 'generator' }];
}
