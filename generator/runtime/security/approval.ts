/**
 * The approval gate of tools declared `approval: required`. The handler runs
 * only when one of these holds for the exact input being run:
 *
 * - an `approvalReceipt` argument that the author's `verifyReceipt` accepts
 *   (bound by the verifier to `inputSha256`);
 * - the user confirmed through the client (elicitation, SDK-V2 §8): the
 *   confirmation request carries a `requestState` sealed over tool, input
 *   hash, idempotency key, principal, tenant, expiry and a one-time id, so a
 *   retry with other arguments, another key or by another caller cannot reuse it.
 *
 * Either authorizes exactly one execution: the runtime consumes it in the shared
 * store (`consumeOnce`) before the handler runs, so a second call with the same
 * receipt or confirmation is refused on every replica.
 *
 * Otherwise the call is refused with a message that says what is missing.
 */
import { randomUUID } from 'node:crypto';
import { acceptedContent, inputRequired, inputResponse, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalOptions, Identity } from '../options.js';
import { jsonSchema } from '../schema/jsonSchema.js';
import { sha256Of } from './hash.js';
import { open, seal, type StateKeys } from './requestState.js';

/** The `inputRequests` key of the confirmation. */
export const APPROVAL_REQUEST_KEY = 'mcpgen_approval';


const confirmation = jsonSchema<{ approve: boolean }>({
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Approve', description: 'Run this exact call now.' } },
  required: ['approve'],
});

/** How long a confirmation request stays valid unless `approval.ttlMs` says otherwise: 5 minutes. */
export const DEFAULT_CONFIRMATION_TTL_MS = 5 * 60 * 1000;

/** How long a used receipt is remembered (so it cannot run twice) unless `approval.receiptTtlMs` says otherwise: 24 hours. */
export const DEFAULT_RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;

/** The single-use mark an approval leaves in the store: consumed before the handler runs. */
export interface ApprovalUse {
  readonly key: string;
  readonly ttlMs: number;
}

/** What the gate decided. */
export type ApprovalDecision =
  | { readonly kind: 'approved'; readonly via: string; readonly once: ApprovalUse }
  | { readonly kind: 'ask'; readonly result: CallToolResult }
  | { readonly kind: 'refused'; readonly message: string };

/** Everything the gate looks at. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly identity: Identity;
  readonly input: unknown;
  readonly inputSha256: string;
  readonly receipt: string | undefined;
  /** The call's idempotency key, when the tool takes one: approvals are bound to it. */
  readonly idempotencyKey: string | undefined;
  readonly sdk: ServerContext;
  /** Whether the client can be asked (declared elicitation, and not stateless 2025 HTTP). */
  readonly canAsk: boolean;
  readonly now: number;
}

/** The sealed confirmation state: tool, input hash, key, principal, tenant, expiry and a one-time id. */
interface StatePayload {
  readonly a: 'mcpgen-approval';
  readonly t: string;
  readonly h: string;
  readonly k: string;
  readonly p: string;
  readonly n: string;
  readonly e: number;
  readonly j: string;
}

/** The payload when `state` is a confirmation of exactly this call that has not expired, else undefined. */
function verifyState(keys: StateKeys, state: unknown, req: ApprovalRequest): StatePayload | undefined {
  const payload = open<StatePayload>(keys, state);
  if (!payload || payload.a !== 'mcpgen-approval' || typeof payload.j !== 'string') return undefined;
  const matches =
    payload.t === req.tool &&
    payload.h === req.inputSha256 &&
    payload.k === (req.idempotencyKey ?? '') &&
    payload.p === req.identity.principal &&
    payload.n === (req.identity.tenant ?? '') &&
    payload.e > req.now;
  return matches ? payload : undefined;
}

function describeInput(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 1500 ? `${text.slice(0, 1500)}… (truncated)` : text;
}

/** Runs the approval gate for one call. */
export async function decideApproval(options: ApprovalOptions, keys: StateKeys, req: ApprovalRequest): Promise<ApprovalDecision> {
  if (req.receipt !== undefined) {
    if (!options.verifyReceipt) return { kind: 'refused', message: `Approval refused: this server accepts no approval receipts (no verifier is configured). Tool ${req.tool} needs the user's confirmation through the client.` };
    let verdict: boolean | string;
    try {
      const key = req.idempotencyKey === undefined ? {} : { idempotencyKey: req.idempotencyKey };
      verdict = await options.verifyReceipt({ ...req.identity, tool: req.tool, input: req.input, inputSha256: req.inputSha256, ...key, receipt: req.receipt });
    } catch {
      verdict = false;
    }
    if (verdict === true) return { kind: 'approved', via: req.receipt, once: { key: JSON.stringify(['approval-receipt', req.tool, sha256Of(req.receipt)]), ttlMs: options.receiptTtlMs ?? DEFAULT_RECEIPT_TTL_MS } };
    return { kind: 'refused', message: typeof verdict === 'string' ? verdict : `Approval refused: the approvalReceipt does not approve this exact call of ${req.tool} (input sha256 ${req.inputSha256}).` };
  }
  const responses = req.sdk.mcpReq.inputResponses;
  const answer = inputResponse(responses, APPROVAL_REQUEST_KEY);
  if (answer.kind === 'elicit') {
    const state = verifyState(keys, req.sdk.mcpReq.requestState(), req);
    if (!state) return { kind: 'refused', message: `Approval refused: the confirmation does not match this call of ${req.tool} (different input, key, caller, or expired). Call again to be asked anew.` };
    const content = acceptedContent(responses, APPROVAL_REQUEST_KEY, confirmation);
    if (answer.action === 'accept' && content?.approve === true) return { kind: 'approved', via: 'elicitation', once: { key: JSON.stringify(['approval-confirmation', state.j]), ttlMs: Math.max(state.e - req.now, 0) + 60_000 } };
    return { kind: 'refused', message: `Approval refused: the user did not approve ${req.tool}; nothing was done.` };
  }
  if (options.elicit !== false && req.canAsk) {
    const payload: StatePayload = {
      a: 'mcpgen-approval',
      t: req.tool,
      h: req.inputSha256,
      k: req.idempotencyKey ?? '',
      p: req.identity.principal,
      n: req.identity.tenant ?? '',
      e: req.now + (options.ttlMs ?? DEFAULT_CONFIRMATION_TTL_MS),
      j: randomUUID(),
    };
    const result = inputRequired({
      inputRequests: { [APPROVAL_REQUEST_KEY]: inputRequired.elicit({ message: `Approve ${req.tool} with exactly these arguments? ${describeInput(req.input)}`, requestedSchema: confirmation }) },
      requestState: seal(keys, payload),
    });
    return { kind: 'ask', result: result as unknown as CallToolResult };
  }
  return {
    kind: 'refused',
    message: `Approval required: ${req.tool} runs only after approval of this exact input. Pass an approvalReceipt for input sha256 ${req.inputSha256}, or call from a client that supports elicitation so the user can confirm.`,
  };
}

/** True when the client declared elicitation (2026: per request; 2025: at initialize) and can be reached. */
export function clientCanElicit(sdk: ServerContext, legacyCapabilities: { elicitation?: unknown } | undefined): boolean {
  const envelope = (sdk.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const modern = envelope['io.modelcontextprotocol/clientCapabilities'] as { elicitation?: unknown } | undefined;
  if (sdk.mcpReq.envelope) return modern?.elicitation !== undefined;
  // Stateless 2025 HTTP has no channel for a server → client request.
  if (sdk.http) return false;
  return legacyCapabilities?.elicitation !== undefined;
}
