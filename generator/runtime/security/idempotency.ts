/**
 * Idempotency keys for tools declared `idempotency: required`: exactly one
 * effect per key. A key is scoped to (tenant, principal, tool), so another
 * caller reusing it neither replays nor blocks someone else's result. The
 * state lives in the runtime's {@link SharedStore} (in memory by default).
 *
 * - the first call claims the key with a lease and runs the handler;
 * - a retry while it runs answers "in progress" (the handler never runs twice);
 * - a success is stored and replayed to every retry with the same input;
 * - a failure releases the key (a retry may run again);
 * - a timeout keeps the key claimed: the handler's late outcome is stored when
 *   it arrives, and a retry gets it then. The lease (twice the tool's timeout)
 *   bounds how long a lost run can hold the key.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { DEFAULT_LIMITS, type Identity } from '../options.js';
import type { SharedStore } from '../store/types.js';
import type { AuditOutcome } from './audit.js';

/** How long stored outcomes live unless the author says otherwise: 24 hours. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The time budget of a tool whose manifest sets no `timeoutMs`: 60 seconds (`limits.timeoutMs`). */
export const DEFAULT_TOOL_TIMEOUT_MS: number = DEFAULT_LIMITS.timeoutMs;

/** How long a claim is held for a run with `timeoutMs`: the budget plus as much again for an aborted handler to settle. */
export function leaseFor(timeoutMs: number): number {
  return Math.max(2 * timeoutMs, 1000);
}

/** The store key of one caller's key for one tool (JSON, so no separator inside a value can forge another). */
export function idempotencyStoreKey(tool: string, identity: Identity, key: string): string {
  return JSON.stringify(['idempotency', identity.tenant ?? null, identity.principal, tool, key]);
}

/** A claim this call holds. */
export interface HeldKey {
  readonly key: string;
  readonly token: string;
}

/** What claiming a key decided. */
export type KeyDecision =
  | { readonly kind: 'run'; readonly held: HeldKey }
  | { readonly kind: 'replay'; readonly result: CallToolResult }
  | { readonly kind: 'refuse'; readonly outcome: AuditOutcome; readonly text: string };

/** The facts of one claim. */
export interface KeyRequest {
  readonly store: SharedStore;
  readonly tool: string;
  readonly field: string;
  readonly identity: Identity;
  readonly key: string;
  readonly inputSha256: string;
  readonly timeoutMs: number;
  readonly ttlMs: number;
}

/** Claims the key of one call, or says why the handler must not run. Store failures refuse (fail closed). */
export async function claimKey(req: KeyRequest): Promise<KeyDecision> {
  const key = idempotencyStoreKey(req.tool, req.identity, req.key);
  let outcome;
  try {
    outcome = await req.store.claimIdempotency({ key, owner: req.identity, inputSha256: req.inputSha256, leaseMs: leaseFor(req.timeoutMs), ttlMs: req.ttlMs });
  } catch {
    return { kind: 'refuse', outcome: 'error', text: `Tool ${req.tool} is temporarily unavailable (the idempotency store did not answer); nothing was done.` };
  }
  switch (outcome.kind) {
    case 'claimed':
      return { kind: 'run', held: { key, token: outcome.token } };
    case 'full':
      return { kind: 'refuse', outcome: 'capacity', text: `Too many open operations: this caller holds as many ${req.field} records as the server keeps; retry later or reuse the key of a call to retry it.` };
    default:
      if (outcome.inputSha256 !== req.inputSha256) {
        return { kind: 'refuse', outcome: 'conflict', text: `Idempotency conflict: ${req.field} was already used for a different ${req.tool} call; use a new key for a new operation.` };
      }
      if (outcome.kind === 'pending') {
        return { kind: 'refuse', outcome: 'in_progress', text: `In progress: a ${req.tool} call with this ${req.field} is still running; retry later with the same key to get its outcome (it will not run twice).` };
      }
      return { kind: 'replay', result: outcome.result as CallToolResult };
  }
}
