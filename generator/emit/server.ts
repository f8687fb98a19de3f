/** Emits `server.gen.ts`: the SDK server factory that registers every primitive with its exact metadata. */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { IrResource } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render, resourceHasHandler, promptHasHandler, tidy } from './context.js';
import { schemaConst } from './schemas.js';
import { inline, jsdoc, key, lit, tsHeader } from './text.js';

/** Adds `name: value` lines for the defined entries of an object literal. */
function props(entries: readonly [string, string | undefined][], indent: number): string {
  const pad = ' '.repeat(indent);
  return entries
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${pad}${key(k)}: ${v},`)
    .join('\n');
}

const opt = (v: unknown, indent = 0): string | undefined => (v === undefined ? undefined : lit(v, indent));

/** The metadata entries of a listing (every field but `name` and `skip`), laid out at `indent`. */
function metadata(listing: object, skip: readonly string[], indent: number): [string, string][] {
  return Object.entries(listing)
    .filter(([k]) => k !== 'name' && !skip.includes(k))
    .map(([k, v]) => [k, lit(v, indent, indent + 2 + k.length)]);
}

function toolBlock(c: ToolContract): string {
  const t = c.ir;
  const body = props(
    [
      ...metadata(c.listing, ['inputSchema', 'outputSchema', 'annotations'], 6),
      ['inputSchema', `gated(S.${schemaConst.toolInput(t)})`],
      ['outputSchema', c.output !== undefined ? `gated(S.${schemaConst.toolOutput(t)})` : undefined],
      ['annotations', inline(c.listing.annotations)],
    ],
    6,
  );
  return `  server.registerTool(\n    ${lit(t.name)},\n    {\n${body}\n    },\n    toolCallback(rt, specs.tools.${t.id}, handlers.tools.${t.id}),\n  );`;
}

function resourceBlock(c: ResourceContract): string {
  const r = c.ir;
  const body = props(metadata(c.listing, ['uri', 'uriTemplate'], 6), 6);
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
  return `  server.registerResource(\n    ${lit(r.name)},\n    ${target},\n    {\n${body}\n    },\n    ${callback},\n  );`;
}

function promptBlock(ctx: EmitContext, c: PromptContract): string {
  const p = c.ir;
  // Without `arguments:` in the manifest the prompt is registered without `argsSchema`, so its listing has no `arguments` field.
  const argsSchema = c.listing.arguments !== undefined ? `gated(S.${schemaConst.promptArgs(p)})` : undefined;
  const body = props([...metadata(c.listing, ['arguments'], 6), ['argsSchema', argsSchema]], 6);
  const spec = `specs.prompts.${p.id}`;
  let callback: string;
  if (p.messages === undefined) callback = `promptCallback(rt, ${spec}, handlers.prompts.${p.id})`;
  else {
    const msgs = p.messages.map((m) => {
      if ('text' in m) return `      { role: ${lit(m.role)}, text: ${lit(m.text)} },`;
      const r = ctx.ir.resources.find((x) => x.name === m.resource)!;
      return `      { role: ${lit(m.role)}, resource: { uri: ${lit(r.uri ?? r.uriTemplate)}, read: ${readerExpr(r)} } },`;
    });
    callback = `templatePromptCallback(rt, ${spec}, [\n${msgs.join('\n')}\n    ])`;
  }
  if (argsSchema === undefined) callback = `withoutArguments(${callback})`;
  return `  server.registerPrompt(\n    ${lit(p.name)},\n    {\n${body}\n    },\n    ${callback},\n  );`;
}

function readerExpr(r: IrResource): string {
  const spec = `specs.resources.${r.id}`;
  if (r.source !== undefined) return `resourceReader(rt, ${spec}, { content: content.${r.id}, encoding: ${lit(r.source.encoding)} })`;
  return `resourceReader(rt, ${spec}, handlers.resources.${r.id})`;
}

/** What the runtime enforces for each primitive, from the contract (the gates and content rules clients observe). */
function specEntries(ctx: EmitContext): { tools: string; resources: string; prompts: string } {
  const { tools, resources, prompts } = ctx.contract;
  const entry = (id: string, fields: [string, string | undefined][]) => `    ${id}: {\n${props(fields, 6)}\n    },`;
  const t = tools.map((c) =>
    entry(c.ir.id, [
      ['name', lit(c.name)],
      ['output', String(c.output !== undefined)],
      ['scopes', inline(c.scopes)],
      ['idempotency', lit(c.idempotency)],
      ['approval', lit(c.approval)],
      ['timeoutMs', opt(c.timeoutMs)],
      ['input', `S.${schemaConst.toolInput(c.ir)}`],
      ['outputSchema', c.output !== undefined ? `S.${schemaConst.toolOutput(c.ir)}` : undefined],
    ]),
  );
  const r = resources.map((c) =>
    entry(c.ir.id, [
      ['name', lit(c.name)],
      [c.listing.uriTemplate !== undefined ? 'uriTemplate' : 'uri', lit(c.listing.uriTemplate ?? c.listing.uri)],
      ['mimeType', lit(c.content.mimeType)],
      ['textual', String(c.content.textual)],
      ['json', String(c.content.json)],
      ['params', c.listing.uriTemplate !== undefined ? `S.${schemaConst.resourceParams(c.ir)}` : undefined],
      ['content', c.content.schema !== undefined ? `S.${schemaConst.resourceContent(c.ir)}` : undefined],
      ['scopes', inline(c.scopes)],
    ]),
  );
  const p = prompts.map((c) => entry(c.ir.id, [['name', lit(c.name)], ['args', `S.${schemaConst.promptArgs(c.ir)}`], ['scopes', inline(c.scopes)]]));
  return { tools: t.join('\n'), resources: r.join('\n'), prompts: p.join('\n') };
}

function hasCompletions(ctx: EmitContext): boolean {
  return 'completions' in ctx.contract.server.declaredCapabilities;
}

function completionMap(ctx: EmitContext): string | undefined {
  if (!hasCompletions(ctx)) return undefined;
  const prompts = ctx.ir.prompts
    .filter((p) => p.arguments.some((a) => a.complete))
    .map((p) => {
      const args = p.arguments.filter((a) => a.complete).map((a) => `${key(a.name)}: handlers.prompts.${p.id}.complete.${key(a.name)}`);
      return `      ${lit(p.name)}: { ${args.join(', ')} },`;
    });
  const templates = ctx.ir.resources
    .filter((r) => r.complete.length > 0)
    .map((r) => {
      const vars = r.complete.map((v) => `${key(v)}: handlers.resources.${r.id}.complete.${key(v)}`);
      return `      ${lit(r.uriTemplate)}: { spec: specs.resources.${r.id}, complete: { ${vars.join(', ')} } },`;
    });
  return `  installCompletions(server, rt, {\n    prompts: {\n${prompts.join('\n')}\n    },\n    resourceTemplates: {\n${templates.join('\n')}\n    },\n  });`;
}

function contentConsts(ctx: EmitContext): string[] {
  return ctx.ir.resources
    .filter((r) => r.source !== undefined)
    .map((r) => `${jsdoc([`Content of \`${r.source!.path}\`, served as resource \`${r.name}\` (${r.source!.encoding}).`], 2)}  ${r.id}: ${lit(r.source!.content)},`);
}

/** Emits `server.gen.ts`. */
export function emitServer(ctx: EmitContext): EmittedFile {
  const { ir } = ctx;
  const { server } = ctx.contract;
  const specs = specEntries(ctx);
  const content = render('server.ts', {
    header: tsHeader(ir.manifestName),
    serverDoc: jsdoc([ir.server.title ?? ir.server.name, ir.server.description]),
    info: lit(server.info, 0, 'export const serverInfo = '.length),
    capabilities: lit(server.capabilities, 4, '    capabilities: '.length),
    instructions: server.instructions !== undefined ? lit(server.instructions) : undefined,
    specs,
    scopes: lit(ir.server.scopes.map((s) => s.name)),
    logging: ir.server.logging,
    hasTools: ir.tools.length > 0,
    hasResources: ir.resources.length > 0,
    hasPrompts: ir.prompts.length > 0,
    content: contentConsts(ctx),
    tools: ctx.contract.tools.map(toolBlock),
    resources: ctx.contract.resources.map(resourceBlock),
    prompts: ctx.contract.prompts.map((p) => promptBlock(ctx, p)),
    completions: completionMap(ctx),
    subscriptions: ir.resources.some((r) => r.subscribe),
    withoutArguments: ctx.contract.prompts.some((p) => p.listing.arguments === undefined),
    usesHandlers: ir.tools.length > 0 || ir.resources.some(resourceHasHandler) || ir.prompts.some(promptHasHandler),
  });
  return { path: 'server.gen.ts', content: tidy(content), owner: 'generator' };
}
