/**
 * Emits `client.gen.ts`: typed wrappers over the SDK `Client`. The template carries the file's shape;
 * this module computes the values in it from the contract (the `call` parameter of a gated tool lists
 * exactly its control arguments) and the imports from what the file uses.
 */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import { clientClassName, typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render } from './context.js';
import { layout } from './layout.js';
import { importStatement, key, lit, tsHeader } from './text.js';

/** The `call` parameter of a gated tool: exactly its control arguments, optional where a call may omit them. */
function callParameter(c: ToolContract): string | undefined {
  if (c.controls.length === 0) return undefined;
  const fields = c.controls.map((a) => `${key(a.name)}${a.required ? '' : '?'}: string`);
  return `call: { ${fields.join('; ')} }${c.controls.some((a) => a.required) ? '' : ' = {}'}`;
}

function toolView(c: ToolContract) {
  const t = c.ir;
  const gates = c.controls.map((a) => `\`call.${a.name}\` ${a.summary}`);
  const result = c.output !== undefined ? 'Resolves to the structured output' : 'Resolves to the tool result';
  const doc = [`Calls tool \`${t.name}\`${t.title ? ` (${t.title})` : ''}.`, t.description, ...gates, `${result}; throws \`ToolCallError\` when the tool reports an error.`];
  const noInput = typeof c.input === 'object' && Object.keys((c.input['properties'] ?? {}) as object).length === 0;
  const call = callParameter(c);
  const params = [`input: T.${typeName.toolInput(t)}${noInput ? ' = {}' : ''}`, ...(call ? [call] : []), 'options?: RequestOptions'];
  return {
    doc,
    id: t.id,
    name: lit(t.name),
    params: params.join(', '),
    returns: c.output !== undefined ? `Promise<T.${typeName.toolOutput(t)}>` : 'Promise<CallToolResult>',
    call: callOf(c),
    args: call ? '{ ...input, ...call }' : 'input',
  };
}

function contentType(c: ResourceContract): string {
  const r = c.ir;
  if (c.content.schema !== undefined && r.source === undefined) return `T.${typeName.resourceContent(r)}`;
  if (c.content.json) return 'unknown';
  return c.content.textual ? 'string' : 'Uint8Array';
}

function resourceView(c: ResourceContract) {
  const r = c.ir;
  return {
    doc: [`Resource \`${r.name}\`${r.title ? ` (${r.title})` : ''}, ${r.mimeType}.`, r.description],
    id: r.id,
    uri: r.uri !== undefined ? lit(r.uri) : undefined,
    uriTemplate: r.uriTemplate !== undefined ? lit(r.uriTemplate) : undefined,
    params: `T.${typeName.resourceParams(r)}`,
    type: contentType(c),
    decode: lit(c.content.json ? 'json' : c.content.textual ? 'text' : 'binary'),
  };
}

function promptView(c: PromptContract) {
  const p = c.ir;
  return {
    doc: [`Gets prompt \`${p.name}\`${p.title ? ` (${p.title})` : ''}.`, p.description],
    id: p.id,
    name: lit(p.name),
    args: `T.${typeName.promptArgs(p)}`,
    optional: c.arguments.every((a) => !a.required),
  };
}

/**
 * The helper of `mcp-gen/runtime/client` a tool's method calls. It asks the IR, not `c.output`: reading
 * the contract's output would publish its schema (contract/lazy.ts) for a tool whose pieces are kept.
 */
const callOf = (c: ToolContract): 'callStructured' | 'callTool' => (c.ir.output !== undefined ? 'callStructured' : 'callTool');

/**
 * A kind's members of the client class, a list of the file (emit/lists.ts): a primitive's member is reused
 * from the old file while its IR entry (its contract entry follows from it) and the server-wide inputs are
 * unchanged. Each text loses its last newline: the template line that places the list ends it.
 */
function members<C extends ToolContract | ResourceContract | PromptContract>(ctx: EmitContext, kind: C['kind'], entries: readonly C[], view: (c: C) => object): string {
  const list = ctx.fragments.list(`${kind}s`, '\n');
  for (const c of entries) list.add(ctx.fragments.key(`client.${kind}`, c.ir, ''), () => ({ text: render(`client-${kind}.ts`, view(c)).slice(0, -1) }));
  return list.done();
}

/** The URI templates the client expands, one line per templated resource (a list of the file). */
function templates(ctx: EmitContext): string {
  const list = ctx.fragments.list('templates', '\n');
  for (const c of ctx.contract.resources) list.add(ctx.fragments.key('client.template', c.ir, ''), () => ({ text: c.ir.uriTemplate === undefined ? '' : `  ${c.ir.id}: new UriTemplate(${lit(c.ir.uriTemplate)}),` }));
  return list.done();
}

/** The names a client uses from the SDK's types and from `mcp-gen/runtime/client`, sorted. */
function importsOf(tools: readonly ToolContract[], resources: readonly ResourceContract[], prompts: number) {
  const sdk = new Set(['Client', 'RequestOptions']);
  const helpers = new Set<string>();
  for (const t of tools) {
    helpers.add(callOf(t));
    if (callOf(t) === 'callTool') sdk.add('CallToolResult');
  }
  if (resources.length > 0) (sdk.add('ReadResourceResult'), helpers.add('readDecoded'));
  if (resources.some((r) => r.ir.uriTemplate !== undefined) || prompts > 0) helpers.add('stringify');
  if (prompts > 0) sdk.add('GetPromptResult');
  return { sdkTypes: importStatement([...sdk].sort(), '@modelcontextprotocol/client', true), helpers: importStatement([...helpers].sort(), 'mcp-gen/runtime/client') };
}

/** Emits `client.gen.ts`: it reads every primitive. */
export function emitClient(ctx: EmitContext): EmittedFile {
  return layout(ctx, 'client.gen.ts', ctx.fragments.entries(), clientFile);
}

/** The content of `client.gen.ts`, its members joined for the template lines that place them. */
function clientFile(ctx: EmitContext): string {
  const { ir, contract } = ctx;
  const content = render('client.ts', {
    header: tsHeader(ir.manifestName),
    className: clientClassName(ir.server.name),
    serverName: ir.server.name,
    templates: templates(ctx),
    ...importsOf(contract.tools, contract.resources, contract.prompts.length),
    usesTypes: contract.tools.length + contract.resources.length + contract.prompts.length > 0,
    tools: members(ctx, 'tool', contract.tools, toolView),
    resources: members(ctx, 'resource', contract.resources, resourceView),
    prompts: members(ctx, 'prompt', contract.prompts, promptView),
  });
  return ctx.text.tidy(content);
}
