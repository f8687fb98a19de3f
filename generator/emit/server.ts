/** Emits `server.gen.ts`: the SDK server factory that registers every primitive with its exact metadata. */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import { isNoCache, servedListCache } from '../contract/cache.js';
import type { IrPrimitive, IrResource } from '../ir/types.js';
import { type EmitContext, type EmittedFile, embeddedResources, render, resourceHasHandler, promptHasHandler } from './context.js';
import { layout } from './layout.js';
import { schemaConst } from './schemas.js';
import { code, importStatement, jsdoc, key, lit, tsHeader } from './text.js';

/** One `key: value` line of an object literal in the template, which prints `value` (JSON with `Code` fragments). */
interface Field {
  readonly key: string;
  readonly value: unknown;
}

/** The defined entries as template fields (keys quoted where they must be). */
function fields(entries: readonly [string, unknown][]): Field[] {
  return entries.filter((e) => e[1] !== undefined).map(([k, value]) => ({ key: key(k), value }));
}

/** The metadata entries of a listing (every field but `name` and `skip`). */
function metadata(listing: object, skip: readonly string[]): [string, unknown][] {
  return Object.entries(listing).filter(([k]) => k !== 'name' && !skip.includes(k));
}

function toolView(c: ToolContract) {
  const t = c.ir;
  return {
    name: lit(t.name),
    id: t.id,
    fields: fields([
      ...metadata(c.listing, ['inputSchema', 'outputSchema', 'annotations']),
      ['inputSchema', code(`gated(S.${schemaConst.toolInput(t)})`)],
      ['outputSchema', c.output !== undefined ? code(`gated(S.${schemaConst.toolOutput(t)})`) : undefined],
      ['annotations', c.listing.annotations],
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
  const meta = fields([...metadata(c.listing, ['uri', 'uriTemplate']), ['cacheHint', isNoCache(c.cache) ? undefined : code(`readCacheHint(rt, ${spec})`)]]);
  return { name: lit(r.name), id: r.id, target, callback, fields: meta };
}

function promptView(ctx: EmitContext, c: PromptContract) {
  const p = c.ir;
  // Without `arguments:` in the manifest the prompt is registered without `argsSchema`, so its listing has no `arguments` field.
  const argsSchema = c.listing.arguments !== undefined ? code(`gated(S.${schemaConst.promptArgs(p)})`) : undefined;
  const messages = c.messages?.map((m) => {
    if ('text' in m) return { role: m.role, text: m.text };
    const r = ctx.ir.resources.find((x) => x.name === m.resource)!;
    return { role: m.role, resource: { uri: r.uri ?? r.uriTemplate, read: code(readerExpr(r)) } };
  });
  return { name: lit(p.name), id: p.id, messages, withoutArguments: argsSchema === undefined, fields: fields([...metadata(c.listing, ['arguments']), ['argsSchema', argsSchema]]) };
}

function readerExpr(r: IrResource): string {
  const spec = `specs.resources.${r.id}`;
  if (r.source !== undefined) return `resourceReader(rt, ${spec}, { content: content.${r.id}, encoding: ${lit(r.source.encoding)} })`;
  return `resourceReader(rt, ${spec}, handlers.resources.${r.id})`;
}

/** What the runtime enforces for a tool, from the contract (the gates clients observe). */
function toolSpec(c: ToolContract) {
  return {
    id: c.ir.id,
    fields: fields([
      ['name', c.name],
      ['output', c.output !== undefined],
      ['scopes', c.scopes],
      ['idempotency', c.idempotency],
      ['approval', c.approval],
      ['timeoutMs', c.timeoutMs],
      ['input', code(`S.${schemaConst.toolInput(c.ir)}`)],
      ['outputSchema', c.output !== undefined ? code(`S.${schemaConst.toolOutput(c.ir)}`) : undefined],
    ]),
  };
}

/** What the runtime enforces for a resource: its gates and content rules. */
function resourceSpec(c: ResourceContract) {
  return {
    id: c.ir.id,
    fields: fields([
      ['name', c.name],
      [c.listing.uriTemplate !== undefined ? 'uriTemplate' : 'uri', c.listing.uriTemplate ?? c.listing.uri],
      ['mimeType', c.content.mimeType],
      ['textual', c.content.textual],
      ['json', c.content.json],
      ['params', c.listing.uriTemplate !== undefined ? code(`S.${schemaConst.resourceParams(c.ir)}`) : undefined],
      ['content', c.content.schema !== undefined ? code(`S.${schemaConst.resourceContent(c.ir)}`) : undefined],
      ['scopes', c.scopes],
      ['maxBytes', c.maxBytes],
      ['cache', isNoCache(c.cache) ? undefined : c.cache],
      ['meta', c.contentMeta],
      ['classification', c.classification],
      ['audience', c.audience],
    ]),
  };
}

function promptSpec(c: PromptContract) {
  return { id: c.ir.id, fields: fields([['name', c.name], ['args', code(`S.${schemaConst.promptArgs(c.ir)}`)], ['scopes', c.scopes]]) };
}

/** Rendered text without its last newline: the template line that places it ends it. */
const line = (text: string): string => text.slice(0, -1);

/** One primitive of a kind: its contract, and the views of its entry in `specs` and of its registration. */
interface Entry<C> {
  readonly c: C;
  spec(c: C): object;
  registration(c: C): object;
  /** What the registration reads of other primitives (see `Fragments.piece`). */
  more(c: C): string | undefined;
}

/**
 * A kind's entries in `specs` and registrations, each a list of the file (emit/lists.ts): a primitive's
 * unit is reused from the old file while its IR entry (its contract entry follows from it), the server-wide
 * inputs and what it reads of other primitives are unchanged.
 */
function kindLists<C extends { readonly ir: IrPrimitive }>(ctx: EmitContext, kind: string, entries: readonly C[], view: Omit<Entry<C>, 'c'>): { specs: string; registrations: string } {
  const specs = ctx.fragments.list(`specs.${kind}`, '\n');
  const registrations = ctx.fragments.list(`${kind}s`, '\n');
  for (const c of entries) {
    specs.add(ctx.fragments.key(`server.${kind}.spec`, c.ir, ''), () => ({ text: line(render('server-spec.ts', view.spec(c))) }));
    registrations.add(ctx.fragments.key(`server.${kind}`, c.ir, view.more(c)), () => ({ text: line(render(`server-${kind}.ts`, view.registration(c))) }));
  }
  return { specs: specs.done(), registrations: registrations.done() };
}

/** Every primitive's entry in `specs` and registration, by kind. */
function pieces(ctx: EmitContext) {
  const { tools, resources, prompts } = ctx.contract;
  return {
    tools: kindLists(ctx, 'tool', tools, { spec: toolSpec, registration: toolView, more: () => '' }),
    resources: kindLists(ctx, 'resource', resources, { spec: resourceSpec, registration: resourceView, more: () => '' }),
    // A prompt's registration reads the resources its messages embed (their URIs and readers).
    prompts: kindLists(ctx, 'prompt', prompts, { spec: promptSpec, registration: (c) => promptView(ctx, c), more: (c) => embeddedResources(ctx, c.ir) }),
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
function completionMap(ctx: EmitContext): { prompts: Field[]; templates: Field[] } | undefined {
  if (!hasCompletions(ctx)) return undefined;
  // Completer names are manifest strings: as keys of the printed object they are quoted where they must be.
  const completers = (names: readonly string[], at: string) => Object.fromEntries(names.map((n) => [n, code(`${at}.complete.${key(n)}`)]));
  const prompts = ctx.ir.prompts
    .filter((p) => p.arguments.some((a) => a.complete))
    .map((p) => ({ key: lit(p.name), value: completers(p.arguments.filter((a) => a.complete).map((a) => a.name), `handlers.prompts.${p.id}`) }));
  const templates = ctx.ir.resources
    .filter((r) => r.complete.length > 0)
    .map((r) => ({ key: lit(r.uriTemplate), value: { spec: code(`specs.resources.${r.id}`), complete: completers(r.complete, `handlers.resources.${r.id}`) } }));
  return { prompts, templates };
}

/**
 * The constants of the resources that serve a file, one unit of a list each: a unit is reused from the old
 * file while the resource's IR entry (which holds the file's content) and the server-wide inputs are unchanged.
 */
function contentConsts(ctx: EmitContext): string {
  const list = ctx.fragments.list('content', '\n');
  for (const r of ctx.ir.resources) {
    const source = r.source;
    if (source === undefined) continue;
    const view = { doc: [`Content of \`${source.path}\`, served as resource \`${r.name}\` (${source.encoding}).`], id: r.id, value: source.content };
    list.add(ctx.fragments.key('server.resource.content', r, ''), () => ({ text: line(render('server-content.ts', view)) }));
  }
  return list.done();
}

/**
 * The `cacheHints` option: the hints of discovery and of the list methods the server's capabilities
 * serve, those that differ from the SDK's default (`ttlMs: 0`, `private`); undefined when none does.
 */
function listedCacheHints(ctx: EmitContext): object | undefined {
  const set = Object.entries(servedListCache(ctx.contract.server)).filter(([, hint]) => !isNoCache(hint));
  return set.length === 0 ? undefined : Object.fromEntries(set);
}

/** Emits `server.gen.ts`: it reads every primitive. */
export function emitServer(ctx: EmitContext): EmittedFile {
  return layout(ctx, 'server.gen.ts', ctx.fragments.entries(), serverFile);
}

/** The content of `server.gen.ts`, its lists of pieces joined for the template lines that place them. */
function serverFile(ctx: EmitContext): string {
  const { ir } = ctx;
  const { server } = ctx.contract;
  const { tools, resources, prompts } = pieces(ctx);
  const content = render('server.ts', {
    header: tsHeader(ir.manifestName),
    sdkImport: importStatement(ir.resources.some((r) => r.uriTemplate !== undefined) ? ['McpServer', 'ResourceTemplate'] : ['McpServer'], '@modelcontextprotocol/server'),
    runtimeImport: importStatement(runtimeNames(ctx), 'mcp-gen/runtime'),
    serverDoc: jsdoc([ir.server.title ?? ir.server.name, ir.server.description]),
    info: server.info,
    capabilities: server.capabilities,
    exactCapabilities: needsExactCapabilities(ctx) ? server.declaredCapabilities : undefined,
    instructions: server.instructions !== undefined ? lit(server.instructions) : undefined,
    cacheHints: listedCacheHints(ctx),
    specs: { tools: tools.specs, resources: resources.specs, prompts: prompts.specs },
    scopes: ir.server.scopes.map((s) => s.name),
    logging: ir.server.logging,
    hasTools: ir.tools.length > 0,
    hasResources: ir.resources.length > 0,
    hasPrompts: ir.prompts.length > 0,
    content: contentConsts(ctx),
    tools: tools.registrations,
    resources: resources.registrations,
    prompts: prompts.registrations,
    completions: completionMap(ctx),
    subscriptions: servesSubscriptions(ctx),
    usesHandlers: ir.tools.length > 0 || ir.resources.some(resourceHasHandler) || ir.prompts.some(promptHasHandler),
  });
  return ctx.text.tidy(content);
}
