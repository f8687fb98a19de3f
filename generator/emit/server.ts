/** Emits `server.gen.ts`: the SDK server factory that registers every primitive with its exact metadata. */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import { isNoCache, servedListCache } from '../contract/cache.js';
import type { IrResource } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render, resourceHasHandler, promptHasHandler, tidy } from './context.js';
import { schemaConst } from './schemas.js';
import { importStatement, inline, jsdoc, key, lit, tsHeader } from './text.js';

/** One `key: value` line of an object literal in the template; `value` is code. */
interface Field {
  readonly key: string;
  readonly value: string;
}

/** The defined entries as template fields (keys quoted where they must be). */
function fields(entries: readonly [string, string | undefined][]): Field[] {
  return entries.filter((e): e is [string, string] => e[1] !== undefined).map(([k, value]) => ({ key: key(k), value }));
}

const opt = (v: unknown): string | undefined => (v === undefined ? undefined : lit(v));

/** The metadata entries of a listing (every field but `name` and `skip`), laid out where the template puts them. */
function metadata(listing: object, skip: readonly string[]): [string, string][] {
  const indent = 6;
  return Object.entries(listing)
    .filter(([k]) => k !== 'name' && !skip.includes(k))
    .map(([k, v]) => [k, lit(v, indent, indent + key(k).length + 2)]);
}

function toolView(c: ToolContract) {
  const t = c.ir;
  return {
    name: lit(t.name),
    id: t.id,
    fields: fields([
      ...metadata(c.listing, ['inputSchema', 'outputSchema', 'annotations']),
      ['inputSchema', `gated(S.${schemaConst.toolInput(t)})`],
      ['outputSchema', c.output !== undefined ? `gated(S.${schemaConst.toolOutput(t)})` : undefined],
      ['annotations', c.listing.annotations !== undefined ? inline(c.listing.annotations) : undefined],
    ]),
  };
}

function resourceView(c: ResourceContract) {
  const r = c.ir;
  const spec = `specs.resources.${r.id}`;
  let target: string;
  let callback: string;
  if (r.uriTemplate !== undefined) {
    const list = r.list ? `templateListCallback(rt, ${spec}, handlers.resources.${r.id})` : 'undefined';
    target = `new ResourceTemplate(${lit(r.uriTemplate)}, { list: ${list} })`;
    callback = `templateResourceCallback(rt, ${spec}, handlers.resources.${r.id})`;
  } else if (r.source !== undefined) {
    target = lit(r.uri);
    callback = `sourceResourceCallback(rt, ${spec}, content.${r.id}, ${lit(r.source.encoding)})`;
  } else {
    target = lit(r.uri);
    callback = `fixedResourceCallback(rt, ${spec}, handlers.resources.${r.id})`;
  }
  // The SDK's default hint is the protocol's `ttlMs: 0`, `private`: only another policy is registered.
  const meta = fields([...metadata(c.listing, ['uri', 'uriTemplate']), ['cacheHint', isNoCache(c.cache) ? undefined : `readCacheHint(rt, ${spec})`]]);
  return { name: lit(r.name), id: r.id, target, callback, fields: meta };
}

function promptView(ctx: EmitContext, c: PromptContract) {
  const p = c.ir;
  // Without `arguments:` in the manifest the prompt is registered without `argsSchema`, so its listing has no `arguments` field.
  const argsSchema = c.listing.arguments !== undefined ? `gated(S.${schemaConst.promptArgs(p)})` : undefined;
  const messages = c.messages?.map((m) => {
    if ('text' in m) return `{ role: ${lit(m.role)}, text: ${lit(m.text)} }`;
    const r = ctx.ir.resources.find((x) => x.name === m.resource)!;
    return `{ role: ${lit(m.role)}, resource: { uri: ${lit(r.uri ?? r.uriTemplate)}, read: ${readerExpr(r)} } }`;
  });
  return { name: lit(p.name), id: p.id, messages, withoutArguments: argsSchema === undefined, fields: fields([...metadata(c.listing, ['arguments']), ['argsSchema', argsSchema]]) };
}

function readerExpr(r: IrResource): string {
  const spec = `specs.resources.${r.id}`;
  if (r.source !== undefined) return `resourceReader(rt, ${spec}, { content: content.${r.id}, encoding: ${lit(r.source.encoding)} })`;
  return `resourceReader(rt, ${spec}, handlers.resources.${r.id})`;
}

/** What the runtime enforces for each primitive, from the contract (the gates and content rules clients observe). */
function specViews(ctx: EmitContext) {
  const { tools, resources, prompts } = ctx.contract;
  return {
    tools: tools.map((c) => ({
      id: c.ir.id,
      fields: fields([
        ['name', lit(c.name)],
        ['output', String(c.output !== undefined)],
        ['scopes', inline(c.scopes)],
        ['idempotency', lit(c.idempotency)],
        ['approval', lit(c.approval)],
        ['timeoutMs', opt(c.timeoutMs)],
        ['input', `S.${schemaConst.toolInput(c.ir)}`],
        ['outputSchema', c.output !== undefined ? `S.${schemaConst.toolOutput(c.ir)}` : undefined],
      ]),
    })),
    resources: resources.map((c) => ({
      id: c.ir.id,
      fields: fields([
        ['name', lit(c.name)],
        [c.listing.uriTemplate !== undefined ? 'uriTemplate' : 'uri', lit(c.listing.uriTemplate ?? c.listing.uri)],
        ['mimeType', lit(c.content.mimeType)],
        ['textual', String(c.content.textual)],
        ['json', String(c.content.json)],
        ['params', c.listing.uriTemplate !== undefined ? `S.${schemaConst.resourceParams(c.ir)}` : undefined],
        ['content', c.content.schema !== undefined ? `S.${schemaConst.resourceContent(c.ir)}` : undefined],
        ['scopes', inline(c.scopes)],
        ['maxBytes', opt(c.maxBytes)],
        ['cache', isNoCache(c.cache) ? undefined : inline(c.cache)],
        ['meta', c.contentMeta !== undefined ? inline(c.contentMeta) : undefined],
        ['classification', opt(c.classification)],
        ['audience', c.audience !== undefined ? inline(c.audience) : undefined],
      ]),
    })),
    prompts: prompts.map((c) => ({ id: c.ir.id, fields: fields([['name', lit(c.name)], ['args', `S.${schemaConst.promptArgs(c.ir)}`], ['scopes', inline(c.scopes)]]) })),
  };
}

/** The runtime functions and types the server file uses, in import order. */
function runtimeNames(ctx: EmitContext): string[] {
  const { ir } = ctx;
  const used = new Set(['createRuntime', 'gated', 'installSecurity', 'ownRegistries']);
  if (ir.tools.length > 0) used.add('toolCallback');
  for (const r of ir.resources) {
    if (r.uriTemplate !== undefined) (used.add('templateResourceCallback'), r.list && used.add('templateListCallback'));
    else used.add(r.source !== undefined ? 'sourceResourceCallback' : 'fixedResourceCallback');
  }
  for (const p of ir.prompts) used.add(p.messages === undefined ? 'promptCallback' : 'templatePromptCallback');
  if (ir.prompts.some((p) => p.messages?.some((m) => 'resource' in m))) used.add('resourceReader');
  if (ctx.contract.prompts.some((p) => p.listing.arguments === undefined)) used.add('withoutArguments');
  if (hasCompletions(ctx)) used.add('installCompletions');
  if (servesSubscriptions(ctx)) used.add('installSubscriptions');
  if (ctx.contract.resources.some((c) => !isNoCache(c.cache))) used.add('readCacheHint');
  if (needsExactCapabilities(ctx)) used.add('publishCapabilities');
  const values = [...used].sort();
  return [...values, 'type Catalog', 'type PromptSpec', 'type ResourceSpec', 'type ServerOptions', 'type ToolSpec'];
}

/** `resources.subscribe: true` is published (by a resource, or declared for the server): `resources/subscribe` must answer. */
function servesSubscriptions(ctx: EmitContext): boolean {
  return (ctx.contract.server.capabilities['resources'] as { subscribe?: unknown } | undefined)?.subscribe === true;
}

/** A kind published without `listChanged`: the SDK would add `listChanged: true` when its first primitive registers. */
function needsExactCapabilities(ctx: EmitContext): boolean {
  const caps = ctx.contract.server.declaredCapabilities as Record<string, Record<string, unknown> | undefined>;
  return ['tools', 'resources', 'prompts'].some((k) => caps[k] !== undefined && !('listChanged' in caps[k]!));
}

function hasCompletions(ctx: EmitContext): boolean {
  return 'completions' in ctx.contract.server.declaredCapabilities;
}

/** What `installCompletions` gets: each completing prompt's and template's completers, laid out by the template. */
function completionMap(ctx: EmitContext): { prompts: { key: string; value: string }[]; templates: { key: string; value: string }[] } | undefined {
  if (!hasCompletions(ctx)) return undefined;
  const prompts = ctx.ir.prompts
    .filter((p) => p.arguments.some((a) => a.complete))
    .map((p) => {
      const args = p.arguments.filter((a) => a.complete).map((a) => `${key(a.name)}: handlers.prompts.${p.id}.complete.${key(a.name)}`);
      return { key: lit(p.name), value: `{ ${args.join(', ')} }` };
    });
  const templates = ctx.ir.resources
    .filter((r) => r.complete.length > 0)
    .map((r) => {
      const vars = r.complete.map((v) => `${key(v)}: handlers.resources.${r.id}.complete.${key(v)}`);
      return { key: lit(r.uriTemplate), value: `{ spec: specs.resources.${r.id}, complete: { ${vars.join(', ')} } }` };
    });
  return { prompts, templates };
}

function contentConsts(ctx: EmitContext): { doc: string; id: string; value: string }[] {
  return ctx.ir.resources
    .filter((r) => r.source !== undefined)
    .map((r) => ({ doc: jsdoc([`Content of \`${r.source!.path}\`, served as resource \`${r.name}\` (${r.source!.encoding}).`], 2), id: r.id, value: lit(r.source!.content) }));
}

/**
 * The `cacheHints` option: the hints of discovery and of the list methods the server's capabilities
 * serve, those that differ from the SDK's default (`ttlMs: 0`, `private`); undefined when none does.
 */
function listedCacheHints(ctx: EmitContext): string | undefined {
  const set = Object.entries(servedListCache(ctx.contract.server)).filter(([, hint]) => !isNoCache(hint));
  return set.length === 0 ? undefined : lit(Object.fromEntries(set), 4, '    cacheHints: '.length);
}

/** Emits `server.gen.ts`. */
export function emitServer(ctx: EmitContext): EmittedFile {
  const { ir } = ctx;
  const { server } = ctx.contract;
  const content = render('server.ts', {
    header: tsHeader(ir.manifestName),
    sdkImport: importStatement(ir.resources.some((r) => r.uriTemplate !== undefined) ? ['McpServer', 'ResourceTemplate'] : ['McpServer'], '@modelcontextprotocol/server'),
    runtimeImport: importStatement(runtimeNames(ctx), 'mcp-gen/runtime'),
    serverDoc: jsdoc([ir.server.title ?? ir.server.name, ir.server.description]),
    info: lit(server.info, 0, 'export const serverInfo = '.length),
    capabilities: lit(server.capabilities, 4, '    capabilities: '.length),
    exactCapabilities: needsExactCapabilities(ctx) ? lit(server.declaredCapabilities, 2, '  publishCapabilities(server, '.length) : undefined,
    instructions: server.instructions !== undefined ? lit(server.instructions) : undefined,
    cacheHints: listedCacheHints(ctx),
    specs: specViews(ctx),
    scopes: lit(ir.server.scopes.map((s) => s.name)),
    logging: ir.server.logging,
    hasTools: ir.tools.length > 0,
    hasResources: ir.resources.length > 0,
    hasPrompts: ir.prompts.length > 0,
    content: contentConsts(ctx),
    tools: ctx.contract.tools.map(toolView),
    resources: ctx.contract.resources.map(resourceView),
    prompts: ctx.contract.prompts.map((p) => promptView(ctx, p)),
    completions: completionMap(ctx),
    subscriptions: servesSubscriptions(ctx),
    usesHandlers: ir.tools.length > 0 || ir.resources.some(resourceHasHandler) || ir.prompts.some(promptHasHandler),
  });
  return { path: 'server.gen.ts', content: tidy(content), owner: 'generator' };
}
