/**
 * The embedded input requests the 2026 `input_required` fixtures ask for, with
 * the exact keys, messages and schemas of the input-required-result scenarios.
 */
import { inputRequired, type InputRequest, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { ToolReturn } from 'mcp-gen/runtime';

/** `elicitation/create` for one required string field. */
export function askString(message: string, field: string): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
  });
}

/** `sampling/createMessage` with one user text message. */
export function askModel(text: string, maxTokens: number): InputRequest {
  return inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });
}

/** The text of a sampling response, whatever its content shape. */
export function samplingText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  const block = content as { type?: string; text?: string } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : JSON.stringify(content);
}

/**
 * The runtime passes an `input_required` result through unchanged (`toolCallback`
 * keeps any object with `resultType`), but its `ToolReturn` type does not list
 * `InputRequiredResult` yet (docs/conformance.md), hence this one cast.
 */
export function ask(result: InputRequiredResult): ToolReturn {
  return result as unknown as ToolReturn;
}
