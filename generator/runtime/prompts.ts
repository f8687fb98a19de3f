/**
 * Prompt callbacks: static templates rendered from validated arguments, and
 * handler-built prompts. Argument values are data: a value is inserted
 * literally and never re-read as template syntax.
 */
import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type PromptMessage, type ServerContext } from '@modelcontextprotocol/server';
import { handlerContext, type Runtime } from './context.js';
import { NotImplementedError, PromptError } from './errors.js';
import type { ResourceReader } from './resources.js';
import type { PromptHandler, PromptReturn, PromptSpec, PromptTextMessage } from './types.js';

/** One message of a static prompt template: text with `{{name}}` placeholders, or an embedded resource. */
export type PromptTemplateMessage =
  | { readonly role: 'user' | 'assistant'; readonly text: string }
  | { readonly role: 'user' | 'assistant'; readonly resource: { readonly uri: string; readonly read: ResourceReader } };

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/**
 * Replaces every `{{ name }}` of a declared argument in ONE pass, so a value
 * that itself contains `{{x}}` stays literal. Absent optional arguments render
 * as the empty string; unknown placeholders are left as written.
 */
export function renderTemplate(text: string, args: Readonly<Record<string, unknown>>, declared: ReadonlySet<string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!declared.has(name)) return whole;
    const value = args[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** Maps an unexpected failure to a generic protocol error, reporting it. */
function promptFailure(rt: Runtime, spec: PromptSpec, error: unknown): ProtocolError {
  if (error instanceof PromptError) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  if (error instanceof NotImplementedError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  rt.reportError(error, { kind: 'prompt', name: spec.name });
  return new ProtocolError(ProtocolErrorCode.InternalError, `Internal error in prompt ${spec.name}.`);
}

/** Callback for `registerPrompt` that renders a static template (args already validated by `argsSchema`). */
export function templatePromptCallback(rt: Runtime, spec: PromptSpec, messages: readonly PromptTemplateMessage[]): (args: unknown, sdk: ServerContext) => Promise<GetPromptResult> {
  const declared = new Set((spec.args?.args ?? []).map((a) => a.name));
  return async (rawArgs, sdk) => {
    const args = (rawArgs ?? {}) as Record<string, unknown>;
    handlerContext(rt, { kind: 'prompt', name: spec.name }, sdk);
    const out: PromptMessage[] = [];
    for (const message of messages) {
      if ('text' in message) {
        out.push({ role: message.role, content: { type: 'text', text: renderTemplate(message.text, args, declared) } });
        continue;
      }
      // Readers throw protocol errors already (not found, bad variables, generic internal).
      const resource = await message.resource.read(sdk, args);
      out.push({ role: message.role, content: { type: 'resource', resource } });
    }
    return { messages: out };
  };
}

function toMessage(message: PromptTextMessage | PromptMessage): PromptMessage {
  if ('text' in message && typeof message.text === 'string') return { role: message.role, content: { type: 'text', text: message.text } };
  return message as PromptMessage;
}

/** Normalizes what a prompt handler returned. */
function toPromptResult(value: PromptReturn): GetPromptResult {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { messages: value.map(toMessage) };
  const whole = value as Exclude<PromptReturn, string | readonly unknown[]>;
  return { ...(whole.description === undefined ? {} : { description: whole.description }), messages: whole.messages.map(toMessage) };
}

/**
 * Callback for `registerPrompt` backed by `handler.get(args, ctx)`. `PromptError`
 * → -32602 with its message; anything else → a generic -32603 and `onError`.
 */
export function promptCallback<A>(rt: Runtime, spec: PromptSpec, handler: PromptHandler<A>): (args: A, sdk: ServerContext) => Promise<GetPromptResult> {
  return async (args, sdk) => {
    const ctx = handlerContext(rt, { kind: 'prompt', name: spec.name }, sdk);
    let value: PromptReturn;
    try {
      value = await handler.get(args, ctx);
    } catch (error) {
      throw promptFailure(rt, spec, error);
    }
    try {
      return toPromptResult(value);
    } catch (error) {
      throw promptFailure(rt, spec, error);
    }
  };
}
