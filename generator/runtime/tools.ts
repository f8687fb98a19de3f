/**
 * `toolCallback()`: every gate a tool call passes, in order, then the handler.
 *
 * 1. scopes (before validation: an unauthorized caller learns nothing, not even the input rules);
 * 2. input size; 3. input validation (the SDK is given a pass-through schema, see `gated`);
 * 4. the author's `authorize` hook; 5. idempotency (claim, or replay / conflict / in progress);
 * 6. approval (consumed: one approval, one execution); 7. the handler under its time budget
 * (`timeoutMs`, else `limits.timeoutMs`); 8. output validation.
 * Every path ends in exactly one audit event. Failures are `isError` results that leak nothing.
 */
import type { CallToolResult, ContentBlock, ServerContext } from '@modelcontextprotocol/server';
import { handlerContext, type PrimitiveRef, type Runtime } from './context.js';
import { NotImplementedError, ReadRefused, ToolError } from './errors.js';
import { clientCanElicit, decideApproval } from './security/approval.js';
import { beginCall, exceedsJsonBytes, type Call } from './security/call.js';
import { missingScopes, runAuthorize, scopeRefusal } from './security/gate.js';
import { sha256Of } from './security/hash.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, claimKey, type HeldKey } from './security/idempotency.js';
import { deadline } from './deadlines.js';
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

/**
 * The signal a tool handler sees: aborted with the request's, or when the call runs out of time,
 * whichever comes first. Most handlers never read it, so its controller (and the listener on the
 * request's signal) is made the first time it is read; a read after the call ended sees how it ended.
 */
class CallSignal {
  private controller: AbortController | undefined;
  private expired: Error | undefined;
  private ended = false;
  private readonly follow = (): void => this.controller?.abort(this.request.reason);

  constructor(private readonly request: AbortSignal) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.expired !== undefined) this.controller.abort(this.expired);
      else if (this.request.aborted) this.controller.abort(this.request.reason);
      else if (!this.ended) this.request.addEventListener('abort', this.follow, { once: true });
    }
    return this.controller.signal;
  }

  /** The call ran out of time. */
  expire(reason: Error): void {
    this.expired = reason;
    this.controller?.abort(reason);
  }

  /** The call is over: the request's abort no longer reaches the handler. */
  end(): void {
    this.ended = true;
    if (this.controller !== undefined) this.request.removeEventListener('abort', this.follow);
  }
}

/** `run`, or `Timeout` once `ms` have passed (the call's signal is aborted first). */
function withinBudget<T>(run: Promise<T>, ms: number, signal: CallSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const limit = deadline(ms, () => {
      signal.expire(new Error(`timed out after ${ms} ms`));
      reject(new Timeout(ms));
    });
    run.then(
      (value) => {
        if (limit.cancel()) resolve(value);
      },
      (error: unknown) => {
        if (limit.cancel()) reject(error);
      },
    );
  });
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

/** How a run that outlived its timeout ended. */
type Late = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/**
 * Runs the handler under `timeoutMs`; returns the mapped result or throws `Timeout`. After a timeout the
 * run goes on in the background (its signal aborted) and `late` hears how it ended.
 */
async function runWithTimeout<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>, input: I, sdk: ServerContext, call: Call, facts: Facts, timeoutMs: number, late: (outcome: Late) => void): Promise<CallToolResult> {
  const signal = new CallSignal(sdk.mcpReq.signal);
  const ctx = handlerContext(rt, primitiveOf(spec), sdk, { ...facts, identity: call.identity, signal });
  const run = Promise.resolve().then(() => handler(input, ctx));
  try {
    return toResult(spec, await withinBudget(run, timeoutMs, signal));
  } catch (error) {
    // After a timeout nobody awaits `run`: its outcome goes to `late`, never to an unhandled rejection.
    if (error instanceof Timeout) run.then((value) => late({ ok: true, value }), () => late({ ok: false }));
    throw error;
  } finally {
    signal.end();
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
    const timeoutMs = spec.timeoutMs ?? rt.limits.timeoutMs;
    let held: HeldKey | undefined;
    if (audit.idempotencyKey !== undefined) {
      const claimed = await claimKey({ store: rt.store, tool: spec.name, field: IDEMPOTENCY_FIELD, identity: call.identity, key: audit.idempotencyKey, inputSha256, timeoutMs, ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS });
      if (claimed.kind === 'replay') return (call.end('replayed', audit), claimed.result);
      if (claimed.kind === 'refuse') return refuse(call, audit, claimed.outcome, claimed.text);
      held = claimed.held;
    }
    if (spec.approval === 'required') {
      const refused = await approve(rt, spec, sdk, call, audit, value, inputSha256, receipt as string | undefined);
      if (refused) {
        await release(rt, spec, held);
        return refused;
      }
    }
    return await execute(rt, spec, handler, value, sdk, call, audit, held, timeoutMs);
  };
}

/**
 * The approval gate: undefined when this call is approved (and the approval is now used up), else the
 * answer to send (a confirmation request, or a refusal), already audited.
 */
async function approve(rt: Runtime, spec: ToolSpec, sdk: ServerContext, call: Call, audit: Facts, value: unknown, inputSha256: string, receipt: string | undefined): Promise<CallToolResult | undefined> {
  const decision = await decideApproval(rt.options.approval ?? {}, rt.stateKeys, {
    tool: spec.name,
    identity: call.identity,
    input: value,
    inputSha256,
    receipt,
    idempotencyKey: audit.idempotencyKey,
    sdk,
    canAsk: clientCanElicit(sdk, rt.connectionOf(sdk).server?.server.getClientCapabilities()),
    now: rt.now(),
  });
  if (decision.kind === 'ask') {
    call.end('approval_required', audit);
    return decision.result;
  }
  if (decision.kind === 'refused') return refuse(call, audit, 'approval_refused', decision.message);
  audit.approval = decision.via;
  let fresh: boolean;
  try {
    fresh = await rt.store.consumeOnce(decision.once.key, decision.once.ttlMs);
  } catch (error) {
    rt.reportError(error, { kind: 'tool', name: spec.name });
    return refuse(call, audit, 'error', `Tool ${spec.name} is temporarily unavailable (the approval store did not answer); nothing was done.`);
  }
  if (!fresh) return refuse(call, audit, 'approval_refused', `Approval refused: this approval was already used; an approval authorizes one call of ${spec.name}. Ask for a new one.`);
  return undefined;
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

type Facts = { idempotencyKey?: string; approval?: string };

/** Gives the idempotency key back (a failed call may be retried with it); store failures are reported. */
async function release(rt: Runtime, spec: ToolSpec, held: HeldKey | undefined): Promise<void> {
  if (held !== undefined) await rt.store.releaseIdempotency(held.key, held.token).catch((e: unknown) => rt.reportError(e, { kind: 'tool', name: spec.name }));
}

/** Stores the outcome of the run that holds `held` (a success is replayed to retries; anything else frees the key). */
async function settle(rt: Runtime, spec: ToolSpec, held: HeldKey | undefined, result: CallToolResult | undefined): Promise<void> {
  if (held === undefined) return;
  if (result === undefined || result.isError) return release(rt, spec, held);
  await rt.store.completeIdempotency(held.key, held.token, result, DEFAULT_IDEMPOTENCY_TTL_MS).then(
    (stored) => {
      if (!stored) rt.reportError(new Error(`the idempotency lease of a ${spec.name} call ended before it finished; its outcome was not stored`), { kind: 'tool', name: spec.name });
    },
    (e: unknown) => rt.reportError(e, { kind: 'tool', name: spec.name }),
  );
}

/** Ends a call that failed after the gates: releases the key, records the outcome, answers isError. */
async function fail(rt: Runtime, spec: ToolSpec, call: Call, audit: Facts, held: HeldKey | undefined, outcome: AuditOutcome, text: string): Promise<CallToolResult> {
  await release(rt, spec, held);
  call.end(outcome, { ...audit, reason: text });
  return errorResult(text);
}

/** The result of a run that finished (output checked), or undefined when it failed (reported). */
function finished(rt: Runtime, spec: ToolSpec, value: unknown): CallToolResult | undefined {
  try {
    const result = toResult(spec, value);
    const problem = outputProblem(spec, result);
    if (problem) {
      rt.reportError(new Error(problem), { kind: 'tool', name: spec.name });
      return undefined;
    }
    return result;
  } catch (error) {
    rt.reportError(error, { kind: 'tool', name: spec.name });
    return undefined;
  }
}

async function execute<I, O>(rt: Runtime, spec: ToolSpec, handler: ToolHandler<I, O>, value: I, sdk: ServerContext, call: Call, audit: Facts, held: HeldKey | undefined, timeoutMs: number): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await runWithTimeout(rt, spec, handler, value, sdk, call, audit, timeoutMs, (late) => {
      // The call answered `timeout` already; the run's late outcome is what a retry with the key gets.
      void settle(rt, spec, held, late.ok ? finished(rt, spec, late.value) : undefined);
    });
  } catch (error) {
    if (error instanceof Timeout) {
      const text = held ? `Tool ${spec.name} timed out after ${error.ms} ms; its outcome is not known yet. Retry with the same ${IDEMPOTENCY_FIELD} to get it once it is (it will not run twice).` : `Tool ${spec.name} timed out after ${error.ms} ms.`;
      call.end('timeout', { ...audit, reason: text });
      return errorResult(text);
    }
    if (error instanceof ToolError || error instanceof NotImplementedError || error instanceof ReadRefused) return fail(rt, spec, call, audit, held, 'error', error.message);
    rt.reportError(error, { kind: 'tool', name: spec.name });
    return fail(rt, spec, call, audit, held, 'error', `Internal error in tool ${spec.name}.`);
  }
  const problem = outputProblem(spec, result);
  if (problem) {
    rt.reportError(new Error(problem), { kind: 'tool', name: spec.name });
    return fail(rt, spec, call, audit, held, 'error', problem);
  }
  // Only successes are remembered: a failed call may be retried with the same key.
  await settle(rt, spec, held, result);
  call.end(result.isError ? 'error' : 'ok', audit);
  return result;
}
