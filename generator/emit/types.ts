/** Emits `types.gen.ts`: a TypeScript type for every schema, and the handler contracts. */
import type { IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import { typeSuffix } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, resourceHasHandler, promptHasHandler, tidy } from './context.js';
import { importStatement, jsdoc, key, tsHeader } from './text.js';
import { layoutTypes } from './type-printer.js';
import { PLACEHOLDER } from './type-compiler.js';

/** One exported type for a schema, with a JSDoc block of our own above it. */
async function typeFor(ctx: EmitContext, name: string, schema: JsonSchema, doc: readonly (string | undefined)[]): Promise<string> {
  const prepared = ctx.graph.forTypes(schema);
  const body = typeof prepared === 'boolean' ? { tsType: prepared ? 'unknown' : 'never' } : { ...prepared };
  delete (body as Record<string, unknown>)['description'];
  // A root title would name the compiled declaration itself; the declaration takes the manifest's name.
  delete (body as Record<string, unknown>)['title'];
  const key = JSON.stringify(body);
  let code = ctx.typeBodies.get(key);
  if (code === undefined) {
    code = ctx.types.compile(body);
    ctx.typeBodies.set(key, code);
  }
  return `${jsdoc(doc)}${layoutTypes(await code, PLACEHOLDER, name)}`;
}

function alias(name: string, type: string, doc: readonly (string | undefined)[]): string {
  return `${jsdoc(doc)}export type ${name} = ${type};`;
}

function describe(p: { title?: string; description?: string }): string | undefined {
  if (p.title && p.description) return `${p.title}: ${p.description}`;
  return p.title ?? p.description;
}

async function toolTypes(ctx: EmitContext, t: IrTool): Promise<string[]> {
  const input = `${t.typeBase}${typeSuffix.toolInput}`;
  const output = `${t.typeBase}${typeSuffix.toolOutput}`;
  const out = await Promise.all([
    typeFor(ctx, input, t.input, [`Input of tool \`${t.name}\`.`, schemaDescription(t.input)]),
    ...(t.output !== undefined ? [typeFor(ctx, output, t.output, [`Structured output of tool \`${t.name}\`.`, schemaDescription(t.output)])] : []),
  ]);
  out.push(
    alias(`${t.typeBase}${typeSuffix.toolHandler}`, `ToolHandler<${input}, ${t.output !== undefined ? output : 'ToolReturn'}>`, [
      `Handler for tool \`${t.name}\` (side effect: ${t.sideEffect}).`,
      describe(t),
    ]),
  );
  return out;
}

function paramsSchema(r: IrResource): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(r.params.map((p) => [p.name, p.schema])),
    required: r.params.map((p) => p.name),
    additionalProperties: false,
  };
}

/** The content type of a resource without a content schema, from the contract's content rules. */
function plainContentType(ctx: EmitContext, r: IrResource): string {
  const rules = ctx.contract.resources.find((c) => c.ir === r)!.content;
  return rules.textual ? (rules.json ? 'unknown' : 'string') : 'Uint8Array';
}

async function resourceTypes(ctx: EmitContext, r: IrResource): Promise<string[]> {
  if (!resourceHasHandler(r)) return [];
  const params = `${r.typeBase}${typeSuffix.resourceParams}`;
  const content = `${r.typeBase}${typeSuffix.resourceContent}`;
  const templated = r.uriTemplate !== undefined;
  const contentDoc = [`Content of resource \`${r.name}\` (${r.mimeType}).`];
  const out = await Promise.all([
    ...(templated ? [typeFor(ctx, params, paramsSchema(r), [`Variables of resource template \`${r.uriTemplate}\` (resource \`${r.name}\`).`])] : []),
    r.schema !== undefined ? typeFor(ctx, content, r.schema, contentDoc) : alias(content, plainContentType(ctx, r), contentDoc),
  ]);
  const members: string[] = [];
  members.push(
    templated
      ? `${jsdoc(['Reads one instance; `params` are decoded and validated.'], 2)}  read(params: ${params}, ctx: HandlerContext): Awaitable<${content}>;`
      : `${jsdoc(['Reads the resource.'], 2)}  read(ctx: HandlerContext): Awaitable<${content}>;`,
  );
  if (r.list) members.push(`${jsdoc(['Lists concrete instances for `resources/list`.'], 2)}  list(ctx: HandlerContext): Awaitable<readonly ResourceListing<${params}>[]>;`);
  if (r.complete.length > 0) {
    const fields = r.complete.map((v) => `    readonly ${key(v)}: Completer<${params}>;`).join('\n');
    members.push(`${jsdoc(['Completion for template variables.'], 2)}  readonly complete: {\n${fields}\n  };`);
  }
  out.push(`${jsdoc([`Handlers for resource \`${r.name}\` (${r.uri ?? r.uriTemplate}).`, describe(r)])}export interface ${r.typeBase}${typeSuffix.resourceHandler} {\n${members.join('\n')}\n}`);
  return out;
}

function argsSchema(p: IrPrompt): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      p.arguments.map((a) => [a.name, a.description && typeof a.schema === 'object' ? { ...a.schema, description: a.description } : a.schema]),
    ),
    required: p.arguments.filter((a) => a.required).map((a) => a.name),
    additionalProperties: false,
  };
}

async function promptTypes(ctx: EmitContext, p: IrPrompt): Promise<string[]> {
  const args = `${p.typeBase}${typeSuffix.promptArgs}`;
  const out = [await typeFor(ctx, args, argsSchema(p), [`Arguments of prompt \`${p.name}\`, converted from strings to their declared types.`])];
  if (!promptHasHandler(p)) return out;
  const members: string[] = [];
  if (p.messages === undefined) members.push(`${jsdoc(['Builds the messages from validated arguments.'], 2)}  get(args: ${args}, ctx: HandlerContext): Awaitable<PromptReturn>;`);
  const completing = p.arguments.filter((a) => a.complete);
  if (completing.length > 0) {
    const fields = completing.map((a) => `    readonly ${key(a.name)}: Completer<${args}>;`).join('\n');
    members.push(`${jsdoc(['Completion for arguments.'], 2)}  readonly complete: {\n${fields}\n  };`);
  }
  out.push(`${jsdoc([`Handlers for prompt \`${p.name}\`.`, describe(p)])}export interface ${p.typeBase}${typeSuffix.promptHandler} {\n${members.join('\n')}\n}`);
  return out;
}

function handlersInterface(ctx: EmitContext): string {
  const group = (name: string, entries: readonly { id: string; type: string; label: string }[]): string =>
    `  readonly ${name}: {\n${entries.map((e) => `${jsdoc([e.label], 4)}    readonly ${e.id}: ${e.type};`).join('\n')}${entries.length ? '\n' : ''}  };`;
  const { tools, resources, prompts } = ctx.ir;
  return [
    '/** Every handler the server needs, grouped by primitive kind. */',
    'export interface Handlers {',
    group('tools', tools.map((t) => ({ id: t.id, type: `${t.typeBase}${typeSuffix.toolHandler}`, label: `Tool \`${t.name}\`.` }))),
    group('resources', resources.filter(resourceHasHandler).map((r) => ({ id: r.id, type: `${r.typeBase}${typeSuffix.resourceHandler}`, label: `Resource \`${r.name}\`.` }))),
    group('prompts', prompts.filter(promptHasHandler).map((p) => ({ id: p.id, type: `${p.typeBase}${typeSuffix.promptHandler}`, label: `Prompt \`${p.name}\`.` }))),
    '}',
  ].join('\n');
}

function schemaDescription(s: JsonSchema): string | undefined {
  return typeof s === 'object' && typeof s['description'] === 'string' ? s['description'] : undefined;
}


/** The runtime types the handler contracts name, sorted (HandlerContext is always re-exported). */
function runtimeTypes(ctx: EmitContext): string[] {
  const { tools, resources, prompts } = ctx.ir;
  const handled = resources.filter(resourceHasHandler);
  const getters = prompts.filter((p) => promptHasHandler(p) && p.messages === undefined);
  const used: [string, boolean][] = [
    ['Awaitable', handled.length > 0 || getters.length > 0],
    ['Completer', handled.some((r) => r.complete.length > 0) || prompts.some((p) => p.arguments.some((a) => a.complete))],
    ['HandlerContext', true],
    ['PromptReturn', getters.length > 0],
    ['ResourceListing', handled.some((r) => r.list)],
    ['ToolHandler', tools.length > 0],
    ['ToolReturn', tools.some((t) => t.output === undefined)],
  ];
  return used.filter(([, yes]) => yes).map(([name]) => name);
}

/** Emits `types.gen.ts`. */
export async function emitTypes(ctx: EmitContext): Promise<EmittedFile> {
  // Every schema is handed to the compiler before any answer is awaited (see type-compiler.ts).
  const [named, tools, resources, prompts] = await Promise.all([
    Promise.all(
      ctx.ir.schemas.map((s) => {
        const title = typeof s.schema === 'object' && typeof s.schema['title'] === 'string' ? s.schema['title'] : undefined;
        return typeFor(ctx, s.typeName, s.schema, [`Schema \`${s.name}\`${title && title !== s.name ? ` (${title})` : ''}.`, schemaDescription(s.schema)]);
      }),
    ),
    Promise.all(ctx.ir.tools.map((t) => toolTypes(ctx, t))).then((x) => x.flat()),
    Promise.all(ctx.ir.resources.map((r) => resourceTypes(ctx, r))).then((x) => x.flat()),
    Promise.all(ctx.ir.prompts.map((p) => promptTypes(ctx, p))).then((x) => x.flat()),
  ]);
  const content = render('types.ts', {
    header: tsHeader(ctx.ir.manifestName),
    runtimeImport: importStatement(runtimeTypes(ctx), 'mcp-gen/runtime', true),
    sections: [
      { title: 'Named schemas', items: named },
      { title: 'Tools', items: tools },
      { title: 'Resources', items: resources },
      { title: 'Prompts', items: prompts },
    ].filter((s) => s.items.length > 0),
    handlers: handlersInterface(ctx),
  });
  return { path: 'types.gen.ts', content: tidy(content), owner: 'generator' };
}
