/** Emits `server.gen.ts`: the SDK server factory that registers every primitive with its exact metadata. */
import type { IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render, resourceHasHandler, promptHasHandler, tidy } from './context.js';
import { schemaConst } from './schemas.js';
import { isJsonMime } from './types.js';
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

/** The tool metadata object passed to `registerTool`; also what `tools/list` shows. */
export function toolConfig(t: IrTool): Record<string, unknown> {
  return {
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    annotations: { ...t.annotations },
  };
}

/** The resource metadata object passed to `registerResource`. */
export function resourceConfig(r: IrResource): Record<string, unknown> {
  return {
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    mimeType: r.mimeType,
    ...(r.annotations !== undefined ? { annotations: r.annotations } : {}),
    ...(r.revision !== undefined ? { _meta: { revision: r.revision } } : {}),
  };
}

function toolBlock(t: IrTool): string {
  const cfg = toolConfig(t);
  const body = props(
    [
      ['title', opt(cfg['title'])],
      ['description', opt(cfg['description'])],
      ['inputSchema', `gated(S.${schemaConst.toolInput(t)})`],
      ['outputSchema', t.output !== undefined ? `gated(S.${schemaConst.toolOutput(t)})` : undefined],
      ['annotations', inline(cfg['annotations'])],
    ],
    6,
  );
  return `  server.registerTool(\n    ${lit(t.name)},\n    {\n${body}\n    },\n    toolCallback(rt, specs.tools.${t.id}, handlers.tools.${t.id}),\n  );`;
}

function resourceBlock(r: IrResource): string {
  const cfg = resourceConfig(r);
  const body = props(Object.entries(cfg).map(([k, v]) => [k, lit(v, 6, 8 + k.length)]), 6);
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

function promptBlock(ctx: EmitContext, p: IrPrompt): string {
  const body = props(
    [
      ['title', opt(p.title)],
      ['description', opt(p.description)],
      ['argsSchema', `gated(S.${schemaConst.promptArgs(p)})`],
    ],
    6,
  );
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
  return `  server.registerPrompt(\n    ${lit(p.name)},\n    {\n${body}\n    },\n    ${callback},\n  );`;
}

function readerExpr(r: IrResource): string {
  const spec = `specs.resources.${r.id}`;
  if (r.source !== undefined) return `resourceReader(rt, ${spec}, { content: content.${r.id}, encoding: ${lit(r.source.encoding)} })`;
  return `resourceReader(rt, ${spec}, handlers.resources.${r.id})`;
}

function specEntries(ctx: EmitContext): { tools: string; resources: string; prompts: string } {
  const { tools, resources, prompts } = ctx.ir;
  const t = tools.map((x) => {
    const fields = props(
      [
        ['name', lit(x.name)],
        ['sideEffect', lit(x.sideEffect)],
        ['output', x.output !== undefined ? 'true' : 'false'],
        ['scopes', inline(x.scopes)],
        ['idempotency', lit(x.idempotency)],
        ['approval', lit(x.approval)],
        ['timeoutMs', opt(x.timeoutMs)],
        ['input', `S.${schemaConst.toolInput(x)}`],
        ['outputSchema', x.output !== undefined ? `S.${schemaConst.toolOutput(x)}` : undefined],
      ],
      6,
    );
    return `    ${x.id}: {\n${fields}\n    },`;
  });
  const r = resources.map((x) => {
    const fields = props(
      [
        ['name', lit(x.name)],
        [x.uriTemplate !== undefined ? 'uriTemplate' : 'uri', lit(x.uriTemplate ?? x.uri)],
        ['mimeType', lit(x.mimeType)],
        ['textual', String(x.textual)],
        ['json', String(isJsonMime(x.mimeType))],
        ['params', x.uriTemplate !== undefined ? `S.${schemaConst.resourceParams(x)}` : undefined],
        ['content', x.schema !== undefined ? `S.${schemaConst.resourceContent(x)}` : undefined],
        ['scopes', inline(x.scopes)],
      ],
      6,
    );
    return `    ${x.id}: {\n${fields}\n    },`;
  });
  const p = prompts.map((x) => {
    const fields = props(
      [
        ['name', lit(x.name)],
        ['args', `S.${schemaConst.promptArgs(x)}`],
        ['scopes', inline(x.scopes)],
      ],
      6,
    );
    return `    ${x.id}: {\n${fields}\n    },`;
  });
  return { tools: t.join('\n'), resources: r.join('\n'), prompts: p.join('\n') };
}

function capabilityObject(ctx: EmitContext): Record<string, unknown> {
  const { tools, resources, prompts } = ctx.ir;
  const caps: Record<string, unknown> = {};
  if (tools.length > 0) caps['tools'] = { listChanged: false };
  if (resources.length > 0) caps['resources'] = { listChanged: false, ...(resources.some((r) => r.subscribe) ? { subscribe: true } : {}) };
  if (prompts.length > 0) caps['prompts'] = { listChanged: false };
  if (ctx.ir.server.logging) caps['logging'] = {};
  return caps;
}

/** The capabilities a server must declare (completions included), for tests and cards. */
export function declaredCapabilities(ctx: EmitContext): Record<string, unknown> {
  const caps = capabilityObject(ctx);
  if (hasCompletions(ctx)) caps['completions'] = {};
  return caps;
}

function hasCompletions(ctx: EmitContext): boolean {
  return ctx.ir.resources.some((r) => r.complete.length > 0) || ctx.ir.prompts.some((p) => p.arguments.some((a) => a.complete));
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
  const info = {
    name: ir.server.name,
    version: ir.server.version,
    ...(ir.server.title !== undefined ? { title: ir.server.title } : {}),
    ...(ir.server.description !== undefined ? { description: ir.server.description } : {}),
  };
  const specs = specEntries(ctx);
  const content = render('server.ts', {
    header: tsHeader(ir.manifestName),
    serverDoc: jsdoc([ir.server.title ?? ir.server.name, ir.server.description]),
    info: lit(info, 0, 26),
    capabilities: lit(capabilityObject(ctx), 4, 18),
    instructions: ir.server.instructions !== undefined ? lit(ir.server.instructions) : undefined,
    specs,
    scopes: lit(ir.server.scopes.map((s) => s.name)),
    logging: ir.server.logging,
    hasTools: ir.tools.length > 0,
    hasResources: ir.resources.length > 0,
    hasPrompts: ir.prompts.length > 0,
    content: contentConsts(ctx),
    tools: ir.tools.map(toolBlock),
    resources: ir.resources.map(resourceBlock),
    prompts: ir.prompts.map((p) => promptBlock(ctx, p)),
    completions: completionMap(ctx),
    subscriptions: ir.resources.some((r) => r.subscribe),
    usesHandlers: ir.tools.length > 0 || ir.resources.some(resourceHasHandler) || ir.prompts.some(promptHasHandler),
  });
  return { path: 'server.gen.ts', content: tidy(content), owner: 'generator' };
}
