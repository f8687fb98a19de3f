/**
 * `toolCallback()`: every gate a tool call passes, in order, then the handler.
 *
 * 1. scopes (before validation: an unauthorized caller learns nothing, not even the input rules);
 * 2. input size; 3. input validation (the SDK is given a pass-through schema, see `gated`);
 * 4. the author's `authorize` hook; 5. idempotency (replay / conflict);
 * 6. approval; 7. the handler under `timeoutMs`; 8. output validation.
 * Every path ends in exactly one audit event. Failures are `isError` results that leak nothing.
 */
import type { CallToolResult, ContentBlock, ServerContext } from '@modelcontextprotocol/server';
import { handlerContext, type PrimitiveRef, type Runtime } from './context.js';
import { NotImplementedError, ToolError } from './errors.js';
import { clientCanElicit, decideApproval } from './security/approval.js';
import { beginCall, exceedsJsonBytes, type Call } from './security/call.js';
import { missingScopes, runAuthorize, scopeRefusal } from './security/gate.js';
import { sha256Of } from './security/hash.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, type BeginOutcome } from './security/idempotency.js';
import type { AuditOutcome } from './security/audit.js';
import type { ToolHandler, ToolSpec } from './types.js';
import { APPROVAL_FIELD, IDEMPOTENCY_FIELD, controlArgumentsOf } from './control.js';

export { APPROVAL_FIELD, IDEMPOTENCY_FIELD };

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Maps what a handler returned to the result the SDK sends. */
function toResult(spec: ToolSpec, value: unknown): CallToolResult {
  if (spec.output) {
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

/** Splits the control arguments (idempotency key, approval receipt) from the handler's input. */
function splitControl(spec: ToolSpec, args: Record<string, unknown>): { input: Record<string, unknown>; key: unknown; receipt: unknown } {
  // The copy keeps the request's arguments (which the audit event hashes) apart from what the handler gets.
  const input = { ...args };
  const controls = controlArgumentsOf(spec);
  if (controls.length === 0) return { input, key: undefined, receipt: undefined };
  const declared = (spec.input?.schema['properties'] ?? {}) as Record<string, unknown>;
  const taken: Record<string, unknown> = {};
  for (const { name } of controls) {
    taken[name] = input[name];
    // A field the author's own schema declares stays in the input as well.
    if (!(name in declared)) delete input[name];
  }
  return { input, key: taken[IDEMPOTENCY_FIELD], receipt: taken[APPROVAL_FIELD] };
}

const KEY_SHAPE = /^[\x21-\x7e]{1,200}$/;

/** Runs the handler under the tool's timeout; returns the mapped result or throws `Timeout`. */
async function runWithTimeout<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>, input: I, sdk: ServerContext, call: Call, facts: Facts): Promise<CallToolResult> {
  // The handler's signal aborts with the request's or on time, whichever comes first.
  const controller = new AbortController();
  const follow = (): void => controller.abort(sdk.mcpReq.signal.reason);
  if (sdk.mcpReq.signal.aborted) follow();
  else sdk.mcpReq.signal.addEventListener('abort', follow, { once: true });
  const ctx = handlerContext(rt, primitiveOf(spec), sdk, { ...facts, identity: call.identity, signal: controller.signal });
  const timeout = timeoutAfter(spec.timeoutMs!, controller);
  try {
    const run = Promise.resolve().then(() => handler(input, ctx));
    // After a timeout nobody awaits `run`; its late failure must not become an unhandled rejection.
    run.catch(() => undefined);
    return toResult(spec, await Promise.race([run, timeout.promise]));
  } finally {
    timeout.cancel();
    sdk.mcpReq.signal.removeEventListener('abort', follow);
  }
}

/** The refusal text for an output that does not match the declared schema, or undefined. */
function outputProblem(spec: ToolSpec, result: CallToolResult): string | undefined {
  if (!spec.outputSchema || result.isError) return undefined;
  const checked = spec.outputSchema.check(result.structuredContent);
  if (!checked.issues) return undefined;
  return `Output validation error: Invalid structured content for tool ${spec.name}: ${checked.issues.map((i) => i.message).join(', ')}`;
}

/**
 * Wraps `handler` as the callback for `server.registerTool(spec.name, …)`; register it with
 * `inputSchema: gated(S.xInput)` so the SDK validates nothing before the scope check.
 */
export function toolCallback<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>): (args: unknown, ctx: ServerContext) => Promise<CallToolResult> {
  return async (rawArgs, sdk) => {
    const args = rawArgs ?? {};
    const call = beginCall(rt, 'tool', spec.name, sdk, args);
    const audit: Facts = {};
    const missing = missingScopes(spec.scopes, call.identity.scopes);
    if (missing.length > 0) return refuse(call, audit, 'forbidden', scopeRefusal('tool', spec.name, missing));
    if (exceedsJsonBytes(args, rt.limits.maxInputBytes)) return refuse(call, audit, 'too_large', `Input too large: tool ${spec.name} accepts at most ${rt.limits.maxInputBytes} bytes of arguments.`);
    if (typeof args !== 'object' || Array.isArray(args)) return refuse(call, audit, 'invalid', `Input validation error: Invalid arguments for tool ${spec.name}: (root) must be object`);
    const { input, key, receipt } = splitControl(spec, args as Record<string, unknown>);
    const checked = spec.input?.check(input);
    if (checked?.issues) return refuse(call, audit, 'invalid', `Input validation error: Invalid arguments for tool ${spec.name}: ${checked.issues.map((i) => i.message).join(', ')}`);
    if (spec.idempotency === 'required') {
      if (key === undefined) return refuse(call, audit, 'invalid', `Missing ${IDEMPOTENCY_FIELD}: tool ${spec.name} changes state, so every call carries an ${IDEMPOTENCY_FIELD} (a unique string per intended operation; reuse it only to retry the same call).`);
      if (typeof key !== 'string' || !KEY_SHAPE.test(key)) return refuse(call, audit, 'invalid', `Input validation error: Invalid arguments for tool ${spec.name}: /${IDEMPOTENCY_FIELD} must be 1 to 200 printable ASCII characters without spaces`);
      audit.idempotencyKey = key;
    }
    if (receipt !== undefined && typeof receipt !== 'string') return refuse(call, audit, 'invalid', `Input validation error: Invalid arguments for tool ${spec.name}: /${APPROVAL_FIELD} must be string`);
    const value = (checked ? checked.value : input) as I;
    if (rt.options.authorize) {
      const denied = await runAuthorize(rt.options, { ...call.identity, kind: 'tool', name: spec.name, input: value }, (e) => rt.reportError(e, { kind: 'tool', name: spec.name }));
      if (denied !== undefined) return refuse(call, audit, 'forbidden', denied);
    }
    // Only idempotency and approval compare inputs; a plain call never pays for the hash.
    const inputSha256 = spec.approval === 'required' || audit.idempotencyKey !== undefined ? sha256Of(value) : '';
    const storeKey = audit.idempotencyKey === undefined ? undefined : [spec.name, call.identity.tenant ?? '', call.identity.principal, audit.idempotencyKey].join('\u0000');
    if (spec.approval === 'required') {
      if (storeKey !== undefined) {
        const early = await replayOrConflict(rt, spec, storeKey, inputSha256, false);
        if (early) return early.outcome === 'replayed' ? (call.end('replayed', audit), early.result) : refuse(call, audit, early.outcome, textOf(early.result));
      }
      const decision = await decideApproval(rt.options.approval ?? {}, {
        tool: spec.name,
        identity: call.identity,
        input: value,
        inputSha256,
        receipt: receipt as string | undefined,
        sdk,
        canAsk: clientCanElicit(sdk, rt.server?.server.getClientCapabilities()),
        now: rt.now(),
      });
      if (decision.kind === 'ask') {
        call.end('approval_required', audit);
        return decision.result;
      }
      if (decision.kind === 'refused') return refuse(call, audit, 'approval_refused', decision.message);
      audit.approval = decision.via;
    }
    if (storeKey !== undefined) {
      const early = await replayOrConflict(rt, spec, storeKey, inputSha256, true);
      if (early) return early.outcome === 'replayed' ? (call.end('replayed', audit), early.result) : refuse(call, audit, early.outcome, textOf(early.result));
    }
    return await execute(rt, spec, handler, value, sdk, call, audit, storeKey, inputSha256);
  };
}

const refs = new WeakMap<ToolSpec, PrimitiveRef>();
/** The handler context's `primitive` of a tool: one object per tool, not one per call. */
function primitiveOf(spec: ToolSpec): PrimitiveRef {
  let ref = refs.get(spec);
  if (ref === undefined) {
    ref = Object.freeze({ kind: 'tool', name: spec.name });
    refs.set(spec, ref);
  }
  return ref;
}

/** Ends a call refused by a gate: records the outcome and answers isError. */
function refuse(call: Call, audit: Facts, outcome: AuditOutcome, text: string): CallToolResult {
  call.end(outcome, { ...audit, reason: text });
  return errorResult(text);
}

function textOf(result: CallToolResult): string {
  return (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
}

/** Looks the key up (and with `reserve`, atomically reserves it). Undefined means: go on and run. */
async function replayOrConflict(rt: Runtime, spec: ToolSpec, storeKey: string, inputSha256: string, reserve: boolean): Promise<{ outcome: AuditOutcome; result: CallToolResult } | undefined> {
  const ttl = DEFAULT_IDEMPOTENCY_TTL_MS;
  let begun;
  try {
    begun = reserve ? await rt.idempotency.begin(storeKey, inputSha256, ttl) : await peek(rt, storeKey);
  } catch (error) {
    rt.reportError(error, { kind: 'tool', name: spec.name });
    return { outcome: 'error', result: errorResult(`Tool ${spec.name} is temporarily unavailable (idempotency store failed); nothing was done.`) };
  }
  if (!begun || begun.kind === 'started') return undefined;
  const record = begun.record;
  if (record.inputSha256 !== inputSha256) {
    return { outcome: 'conflict', result: errorResult(`Idempotency conflict: ${IDEMPOTENCY_FIELD} was already used for a different ${spec.name} call; use a new key for a new operation.`) };
  }
  if (record.state === 'pending') return { outcome: 'conflict', result: errorResult(`Idempotency conflict: a ${spec.name} call with this ${IDEMPOTENCY_FIELD} is still running; retry later with the same key.`) };
  return { outcome: 'replayed', result: record.result as CallToolResult };
}

/** A read-only look, for the check before asking for approval (nothing is reserved yet). */
async function peek(rt: Runtime, storeKey: string): Promise<BeginOutcome | undefined> {
  const record = await rt.idempotency.get(storeKey);
  return record ? { kind: 'existing', record } : undefined;
}

type Facts = { idempotencyKey?: string; approval?: string };

/** Gives the idempotency key back (a failed call may be retried with it); store failures are reported. */
async function release(rt: Runtime, spec: ToolSpec, storeKey: string | undefined): Promise<void> {
  if (storeKey !== undefined) await Promise.resolve(rt.idempotency.release(storeKey)).catch((e: unknown) => rt.reportError(e, { kind: 'tool', name: spec.name }));
}

/** Ends a call that failed after the gates: releases the key, records the outcome, answers isError. */
async function fail(rt: Runtime, spec: ToolSpec, call: Call, audit: Facts, storeKey: string | undefined, outcome: AuditOutcome, text: string): Promise<CallToolResult> {
  await release(rt, spec, storeKey);
  call.end(outcome, { ...audit, reason: text });
  return errorResult(text);
}

async function execute<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>, value: I, sdk: ServerContext, call: Call, audit: Facts, storeKey: string | undefined, inputSha256: string): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    // Without a timeout nothing races the handler: it is called right here (one async layer less per call).
    result =
      spec.timeoutMs === undefined
        ? toResult(spec, await handler(value, handlerContext(rt, primitiveOf(spec), sdk, { identity: call.identity, signal: sdk.mcpReq.signal, idempotencyKey: audit.idempotencyKey, approval: audit.approval })))
        : await runWithTimeout(rt, spec, handler, value, sdk, call, audit);
  } catch (error) {
    if (error instanceof Timeout) return fail(rt, spec, call, audit, storeKey, 'timeout', `Tool ${spec.name} timed out after ${error.ms} ms.`);
    if (error instanceof ToolError || error instanceof NotImplementedError) return fail(rt, spec, call, audit, storeKey, 'error', error.message);
    rt.reportError(error, { kind: 'tool', name: spec.name });
    return fail(rt, spec, call, audit, storeKey, 'error', `Internal error in tool ${spec.name}.`);
  }
  const problem = outputProblem(spec, result);
  if (problem) {
    rt.reportError(new Error(problem), { kind: 'tool', name: spec.name });
    return fail(rt, spec, call, audit, storeKey, 'error', problem);
  }
  if (storeKey !== undefined) {
    // Only successes are remembered: a failed call may be retried with the same key.
    if (result.isError) await release(rt, spec, storeKey);
    else await Promise.resolve(rt.idempotency.complete(storeKey, inputSha256, result, DEFAULT_IDEMPOTENCY_TTL_MS)).catch((e: unknown) => rt.reportError(e, { kind: 'tool', name: spec.name }));
  }
  call.end(result.isError ? 'error' : 'ok', audit);
  return result;
}
