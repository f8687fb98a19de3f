/**
 * `toolCallback()`: adapts a typed tool handler to the SDK's tool callback,
 * mapping return values to `CallToolResult` and failures to `isError` results
 * that never leak internals.
 */
import type { CallToolResult, ContentBlock, ServerContext } from '@modelcontextprotocol/server';
import { handlerContext, type Runtime } from './context.js';
import { NotImplementedError, ToolError } from './errors.js';
import type { ToolHandler, ToolSpec } from './types.js';

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Maps what a handler returned to the result the SDK sends. */
function toResult(spec: ToolSpec, value: unknown): CallToolResult {
  if (spec.output) {
    // The SDK validates structuredContent against outputSchema and turns a
    // violation into an isError result itself.
    return { content: [{ type: 'text', text: JSON.stringify(value) ?? 'null' }], structuredContent: value as Record<string, unknown> };
  }
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (Array.isArray(value)) return { content: value as ContentBlock[] };
  if (typeof value === 'object' && ('content' in value || 'resultType' in value)) return value as CallToolResult;
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

class Timeout {
  constructor(readonly ms: number) {}
}

/** Rejects with a {@link Timeout} after `ms`, aborting `controller` first. */
function timeoutAfter(ms: number, controller: AbortController): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${ms} ms`));
      reject(new Timeout(ms));
    }, ms);
    timer.unref?.();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Wraps `handler` as the callback for `server.registerTool(spec.name, …)`.
 *
 * - `spec.output`: the handler returns the structured value.
 * - otherwise: a string, content blocks or a whole `CallToolResult`.
 * - `ToolError` → isError with its message; `NotImplementedError` → isError `Not implemented: …`;
 *   anything else → isError `Internal error in tool <name>.` and `onError`.
 * - `spec.timeoutMs` → the handler's signal aborts and the call answers at once.
 */
export function toolCallback<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>): (args: I, ctx: ServerContext) => Promise<CallToolResult> {
  const primitive = { kind: 'tool', name: spec.name } as const;
  return async (args, sdk) => {
    // Our own controller so a timeout can abort the handler; it follows the
    // client's cancellation too.
    const controller = new AbortController();
    const follow = () => controller.abort(sdk.mcpReq.signal.reason);
    if (sdk.mcpReq.signal.aborted) follow();
    else sdk.mcpReq.signal.addEventListener('abort', follow, { once: true });
    const ctx = handlerContext(rt, primitive, sdk, controller.signal);
    const timeout = spec.timeoutMs === undefined ? undefined : timeoutAfter(spec.timeoutMs, controller);
    try {
      const run = Promise.resolve().then(() => handler(args, ctx));
      // After a timeout nobody awaits `run`; its late failure (usually the
      // abort) must not become an unhandled rejection.
      run.catch(() => undefined);
      const value = await (timeout ? Promise.race([run, timeout.promise]) : run);
      return toResult(spec, value);
    } catch (error) {
      if (error instanceof Timeout) return errorResult(`Tool ${spec.name} timed out after ${error.ms} ms.`);
      if (error instanceof ToolError) return errorResult(error.message);
      if (error instanceof NotImplementedError) return errorResult(error.message);
      rt.reportError(error, primitive);
      return errorResult(`Internal error in tool ${spec.name}.`);
    } finally {
      timeout?.cancel();
      sdk.mcpReq.signal.removeEventListener('abort', follow);
    }
  };
}
