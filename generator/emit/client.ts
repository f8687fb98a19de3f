/** Emits `client.gen.ts`: typed wrappers over the SDK `Client`. */
import type { IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { toTypeName, typeSuffix } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { isJsonMime } from './types.js';
import { jsdoc, lit, tsHeader } from './text.js';

function toolMethod(t: IrTool): string {
  const input = `T.${t.typeBase}${typeSuffix.toolInput}`;
  const gates: string[] = [];
  if (t.idempotency === 'required') gates.push('`call.idempotencyKey` identifies the operation: a retry with the same key returns the first result.');
  if (t.approval === 'required') gates.push('`call.approvalReceipt` carries an approval of this exact call; without it the server asks the user through the client.');
  const doc = jsdoc([`Calls tool \`${t.name}\`${t.title ? ` (${t.title})` : ''}.`, t.description, ...gates, t.output !== undefined ? 'Resolves to the structured output; throws `ToolCallError` when the tool reports an error.' : 'Resolves to the tool result; throws `ToolCallError` when the tool reports an error.'], 4);
  const ret = t.output !== undefined ? `Promise<T.${t.typeBase}${typeSuffix.toolOutput}>` : 'Promise<CallToolResult>';
  const fn = t.output !== undefined ? 'callStructured' : 'callTool';
  const noInput = typeof t.input === 'object' && Object.keys((t.input['properties'] ?? {}) as object).length === 0;
  const inputParam = `input: ${input}${noInput ? ' = {}' : ''}`;
  if (t.idempotency === 'required' || t.approval === 'required') {
    const call = t.idempotency === 'required' ? 'call: { idempotencyKey: string; approvalReceipt?: string }' : 'call: { approvalReceipt?: string } = {}';
    return `${doc}    ${t.id}: (${inputParam}, ${call}, options?: RequestOptions): ${ret} =>
      ${fn}(this.client, ${lit(t.name)}, { ...input, ...call }, options),`;
  }
  return `${doc}    ${t.id}: (${inputParam}, options?: RequestOptions): ${ret} =>
      ${fn}(this.client, ${lit(t.name)}, input, options),`;
}

function contentType(r: IrResource): string {
  if (r.schema !== undefined && r.source === undefined) return `T.${r.typeBase}${typeSuffix.resourceContent}`;
  if (isJsonMime(r.mimeType)) return 'unknown';
  return r.textual ? 'string' : 'Uint8Array';
}

function resourceEntry(r: IrResource): string {
  const doc = jsdoc([`Resource \`${r.name}\`${r.title ? ` (${r.title})` : ''}, ${r.mimeType}.`, r.description], 4);
  const decode = isJsonMime(r.mimeType) ? 'json' : r.textual ? 'text' : 'binary';
  const type = contentType(r);
  if (r.uriTemplate === undefined) {
    return `${doc}    ${r.id}: {\n      uri: ${lit(r.uri)},\n      /** Reads the raw result. */\n      read: (options?: RequestOptions): Promise<ReadResourceResult> => this.client.readResource({ uri: ${lit(r.uri)} }, options),\n      /** Reads and decodes the content. */\n      content: async (options?: RequestOptions): Promise<${type}> =>\n        decode(await this.client.readResource({ uri: ${lit(r.uri)} }, options), ${lit(decode)}) as ${type},\n    },`;
  }
  const params = `T.${r.typeBase}${typeSuffix.resourceParams}`;
  const tpl = `templates.${r.id}`;
  return `${doc}    ${r.id}: {\n      uriTemplate: ${lit(r.uriTemplate)},\n      /** Builds the URI of one instance (values are percent-encoded). */\n      uri: (params: ${params}): string => ${tpl}.expand(stringify(params)),\n      /** Reads the raw result. */\n      read: (params: ${params}, options?: RequestOptions): Promise<ReadResourceResult> =>\n        this.client.readResource({ uri: ${tpl}.expand(stringify(params)) }, options),\n      /** Reads and decodes the content. */\n      content: async (params: ${params}, options?: RequestOptions): Promise<${type}> =>\n        decode(await this.client.readResource({ uri: ${tpl}.expand(stringify(params)) }, options), ${lit(decode)}) as ${type},\n    },`;
}

function promptMethod(p: IrPrompt): string {
  const doc = jsdoc([`Gets prompt \`${p.name}\`${p.title ? ` (${p.title})` : ''}.`, p.description], 4);
  const args = `T.${p.typeBase}${typeSuffix.promptArgs}`;
  const optional = p.arguments.every((a) => !a.required) ? ` = {}` : '';
  return `${doc}    ${p.id}: (args: ${args}${optional}, options?: RequestOptions): Promise<GetPromptResult> =>\n      this.client.getPrompt({ name: ${lit(p.name)}, arguments: stringify(args) }, options),`;
}

/** Emits `client.gen.ts`. */
export function emitClient(ctx: EmitContext): EmittedFile {
  const { ir } = ctx;
  const className = `${toTypeName(ir.server.name)}Client`;
  const templated = ir.resources.filter((r) => r.uriTemplate !== undefined);
  const content = render('client.ts', {
    header: tsHeader(ir.manifestName),
    className,
    serverName: ir.server.name,
    templates: templated.map((r) => `  ${r.id}: new UriTemplate(${lit(r.uriTemplate)}),`),
    structured: ir.tools.some((t) => t.output !== undefined),
    stringify: ir.prompts.length > 0 || templated.length > 0,
    tools: ir.tools.map(toolMethod),
    resources: ir.resources.map(resourceEntry),
    prompts: ir.prompts.map(promptMethod),
  });
  return { path: 'client.gen.ts', content: tidy(content), owner: 'generator' };
}
