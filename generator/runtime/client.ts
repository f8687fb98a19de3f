/**
 * `mcp-gen/runtime/client`: what every generated typed client (`client.gen.ts`) shares, kept here so
 * each client holds only its own methods. It imports the SDK client alone, never the server runtime.
 */
import type { CallToolResult, Client, ReadResourceResult, RequestOptions } from '@modelcontextprotocol/client';

/** Thrown when a tool answers with `isError: true`; `result` holds the whole answer. */
export class ToolCallError extends Error {
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    super(`Tool ${tool} failed: ${text}`);
    this.name = 'ToolCallError';
  }
}

/** Calls a tool with its input (and control arguments); throws {@link ToolCallError} on an `isError` result. */
export async function callTool(client: Client, name: string, input: object, options?: RequestOptions): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: { ...input } }, options)) as CallToolResult;
  if (result.isError) throw new ToolCallError(name, result);
  return result;
}

/** Calls a tool that declares an output schema and resolves to its structured content. */
export async function callStructured<O>(client: Client, name: string, input: object, options?: RequestOptions): Promise<O> {
  return (await callTool(client, name, input, options)).structuredContent as O;
}

/** Prompt arguments and template variables travel as strings; undefined values are left out. */
export function stringify(values: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = String(v);
  return out;
}

/** How a resource's content is decoded: parsed JSON, text, or the bytes of a base64 blob. */
export type Decoding = 'json' | 'text' | 'binary';

/** The first content of a read, decoded. */
export function decode(result: ReadResourceResult, as: Decoding): unknown {
  const first = result.contents[0];
  if (first === undefined) throw new Error('The resource returned no contents.');
  if ('text' in first) return as === 'json' ? JSON.parse(first.text) : first.text;
  return Uint8Array.from(Buffer.from(first.blob, 'base64'));
}

/** Reads a resource and decodes its first content. */
export async function readDecoded<C>(client: Client, uri: string, as: Decoding, options?: RequestOptions): Promise<C> {
  return decode(await client.readResource({ uri }, options), as) as C;
}
