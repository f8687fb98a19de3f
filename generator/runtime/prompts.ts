/**
 * Prompt callbacks: static templates rendered from validated arguments, and
 * handler-built prompts. Argument values are data: a value is inserted
 * literally and never re-read as template syntax.
 */
import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type PromptMessage, type ServerContext } from '@modelcontextprotocol/server';
import { handlerContext, type HandlerContext, type Runtime } from './context.js';
import { NotImplementedError, PromptError, ReadRefused } from './errors.js';
import type { AuditOutcome } from './security/audit.js';
import { beginCall, exceedsJsonBytes } from './security/call.js';
import { missingScopes, runAuthorize, scopeRefusal } from './security/gate.js';
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
  if (error instanceof ReadRefused) return error;
  if (error instanceof NotImplementedError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  rt.reportError(error, { kind: 'prompt', name: spec.name });
  return new ProtocolError(ProtocolErrorCode.InternalError, `Internal error in prompt ${spec.name}.`);
}

class Refusal extends ProtocolError {
  constructor(
    readonly outcome: AuditOutcome,
    message: string,
  ) {
    super(ProtocolErrorCode.InvalidParams, message, { reason: outcome });
  }
}

/**
 * Runs the gates of one prompt get (scopes, size, argument validation, `authorize`), then `build`,
 * recording one audit event. Arguments reach this point unvalidated (`argsSchema: gated(…)`), so a
 * caller without the scope never learns the argument rules.
 */
async function guardedGet<A>(rt: Runtime, spec: PromptSpec, rawArgs: unknown, sdk: ServerContext, build: (args: A, ctx: HandlerContext) => Promise<GetPromptResult>): Promise<GetPromptResult> {
  const call = beginCall(rt, 'prompt', spec.name, sdk, rawArgs ?? {});
  try {
    const missing = missingScopes(spec.scopes, call.identity.scopes);
    if (missing.length > 0) throw new Refusal('forbidden', scopeRefusal('prompt', spec.name, missing));
    if (exceedsJsonBytes(rawArgs ?? {}, rt.limits.maxInputBytes)) throw new Refusal('too_large', `Arguments too large: prompt ${spec.name} accepts at most ${rt.limits.maxInputBytes} bytes.`);
    let args = (rawArgs ?? {}) as A;
    if (spec.args) {
      const checked = spec.args.check(rawArgs ?? {});
      if (checked.issues) throw new Refusal('invalid', `Invalid arguments for prompt ${spec.name}: ${checked.issues.map((i) => i.message).join(', ')}`);
      args = checked.value as A;
    }
    const denied = await runAuthorize(rt.options, { ...call.identity, kind: 'prompt', name: spec.name, args }, (e) => rt.reportError(e, { kind: 'prompt', name: spec.name }));
    if (denied !== undefined) throw new Refusal('forbidden', denied);
    const result = await build(args, handlerContext(rt, { kind: 'prompt', name: spec.name }, sdk, { identity: call.identity }));
    call.end('ok');
    return result;
  } catch (error) {
    call.end(error instanceof Refusal ? error.outcome : 'error', { reason: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

/** Callback for `registerPrompt` that renders a static template (register with `argsSchema: gated(…)`). */
export function templatePromptCallback(rt: Runtime, spec: PromptSpec, messages: readonly PromptTemplateMessage[]): (args: unknown, sdk: ServerContext) => Promise<GetPromptResult> {
  const declared = new Set((spec.args?.args ?? []).map((a) => a.name));
  return (rawArgs, sdk) =>
    guardedGet<Record<string, unknown>>(rt, spec, rawArgs, sdk, async (args) => {
      const out: PromptMessage[] = [];
      for (const message of messages) {
        if ('text' in message) {
          out.push({ role: message.role, content: { type: 'text', text: renderTemplate(message.text, args, declared) } });
          continue;
        }
        // Readers throw protocol errors already (not found, bad variables, forbidden, generic internal).
        const resource = await message.resource.read(sdk, args);
        out.push({ role: message.role, content: { type: 'resource', resource } });
      }
      return { messages: out };
    });
}

function toMessage(message: PromptTextMessage | PromptMessage): PromptMessage {
  if ('text' in message && typeof message.text === 'string') return { role: message.role, content: { type: 'text', text: message.text } };
  return message as PromptMessage;
}

/** Normalizes what a prompt handler returned. */
function toPromptResult(value: PromptReturn): GetPromptResult {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { messages: value.map(toMessage) };
  // An input_required result asks the client for input before the messages exist; the SDK sends it as is.
  if ('resultType' in (value as object)) return value as unknown as GetPromptResult;
  const whole = value as Exclude<PromptReturn, string | readonly unknown[] | { resultType: unknown }>;
  return { ...(whole.description === undefined ? {} : { description: whole.description }), messages: whole.messages.map(toMessage) };
}

/**
 * Callback for `registerPrompt` backed by `handler.get(args, ctx)`. `PromptError`
 * → -32602 with its message; anything else → a generic -32603 and `onError`.
 */
export function promptCallback<A>(rt: Runtime, spec: PromptSpec, handler: PromptHandler<A>): (args: unknown, sdk: ServerContext) => Promise<GetPromptResult> {
  return (rawArgs, sdk) => guardedGet<A>(rt, spec, rawArgs, sdk, async (args, ctx) => {
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
  });
}

/**
 * Adapts a prompt callback to a prompt registered without `argsSchema`: the SDK then lists no
 * `arguments` field and calls back with the context alone. The prompt still takes no arguments
 * (its argument schema is the empty object); the SDK does not hand over arguments sent anyway.
 */
export function withoutArguments(callback: (args: unknown, sdk: ServerContext) => Promise<GetPromptResult>): (sdk: ServerContext) => Promise<GetPromptResult> {
  return (sdk) => callback({}, sdk);
}
