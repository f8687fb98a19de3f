/**
 * Emits `upstream.gen.ts` (regenerated) for a manifest with `upstream:`: the
 * typed fetch client that the handlers of `http:` tools and resources call.
 * Each function takes the primitive's typed input and the handler context (for
 * its AbortSignal) and returns what the handler returns.
 */
import type { IrHttp, IrNamedSchema, IrPrimitive, IrResource, IrTool, IrToolHttp, IrUpstream } from '../ir/types.js';
import { typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render } from './context.js';
import { layout } from './layout.js';
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

/** The types of types.gen.ts a tool's member names. */
const toolTypes = (t: IrTool): string[] => (t.output !== undefined ? [typeName.toolInput(t), typeName.toolOutput(t)] : [typeName.toolInput(t)]);

/** The types of types.gen.ts a resource's member names; `params` only for a templated resource. */
const resourceTypes = (r: IrResource): string[] => (r.uriTemplate !== undefined ? [typeName.resourceParams(r), typeName.resourceContent(r)] : [typeName.resourceContent(r)]);

/** One `upstream.tools` member, as templates/upstream-tool.ts.hbs writes it. */
function toolMember(t: IrTool & { http: IrToolHttp }, named: readonly IrNamedSchema[]) {
  return {
    doc: [`\`${t.http.method} ${t.http.path}\` for tool \`${t.name}\`.`],
    key: key(t.id),
    input: typeName.toolInput(t),
    output: t.output !== undefined ? typeName.toolOutput(t) : 'ToolReturn',
    route: route(t.http, t.output !== undefined, fileFields(t, named)),
  };
}

/** One `upstream.resources` member, as templates/upstream-resource.ts.hbs writes it; `params` only for a templated resource. */
function resourceMember(r: IrResource & { http: IrHttp }) {
  return {
    doc: [`\`GET ${r.http.path}\` for resource \`${r.name}\`; an upstream 404 is "resource not found".`],
    key: key(r.id),
    params: r.uriTemplate !== undefined ? typeName.resourceParams(r) : undefined,
    content: typeName.resourceContent(r),
    route: route(r.http, false),
  };
}

/**
 * A kind's members of `upstream`, a list of the file (emit/lists.ts): a primitive's member is reused from
 * the old file while its IR entry and the server-wide inputs (the upstream, every named schema) are
 * unchanged. Each text loses its last newline: the template line that places the list ends it.
 */
function members<P extends IrPrimitive>(ctx: EmitContext, kind: P['kind'], entries: readonly P[], view: (p: P) => object): string {
  const list = ctx.fragments.list(`${kind}s`, '\n');
  for (const p of entries) list.add(ctx.fragments.key(`upstream.${kind}`, p, ''), () => ({ text: render(`upstream-${kind}.ts`, view(p)).slice(0, -1) }));
  return list.done();
}

/**
 * `upstream.gen.ts`, or nothing when the manifest has no `upstream:`. It reads every primitive; its members
 * are pieces, so a change renders the members of the primitives it changed.
 */
export function emitUpstream(ctx: EmitContext): EmittedFile[] {
  const u = ctx.ir.upstream;
  if (u === undefined) return [];
  return [layout(ctx, 'upstream.gen.ts', ctx.fragments.entries(), (c) => upstreamFile(c, u))];
}

/** The content of `upstream.gen.ts`, its members joined for the template lines that place them. */
function upstreamFile(ctx: EmitContext, u: IrUpstream): string {
  const tools = ctx.ir.tools.filter((t): t is IrTool & { http: IrToolHttp } => t.http !== undefined);
  const resources = ctx.ir.resources.filter((r): r is IrResource & { http: IrHttp } => r.http !== undefined);
  const types = [...new Set([...tools.flatMap(toolTypes), ...resources.flatMap(resourceTypes)])].sort();
  const content = render('upstream.ts', {
    header: tsHeader(ctx.ir.manifestName),
    environment: [u.baseUrlEnv, ...u.credentials.map((c) => c.env)].join(', '),
    runtimeImport: importStatement(['createUpstream', 'type HandlerContext', 'type ToolReturn', 'type UpstreamClient', 'type UpstreamOptions'], 'mcp-gen/runtime'),
    typesImport: importStatement(types, './types.gen.js', true),
    config: config(u),
    tools: members(ctx, 'tool', tools, (t) => toolMember(t, ctx.ir.schemas)),
    resources: members(ctx, 'resource', resources, resourceMember),
  });
  return ctx.text.tidy(content);
}
