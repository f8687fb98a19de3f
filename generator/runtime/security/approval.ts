/**
 * The approval gate of tools declared `approval: required`. The handler runs
 * only when one of these holds for the exact input being run:
 *
 * - an `approvalReceipt` argument that the author's `verifyReceipt` accepts
 *   (bound by the verifier to `inputSha256`);
 * - the user confirmed through the client (elicitation, SDK-V2 §8): the
 *   confirmation request carries a `requestState` signed over tool, input
 *   hash, principal, tenant and expiry, so a retry with other arguments or by
 *   another caller cannot reuse it.
 *
 * Otherwise the call is refused with a message that says what is missing.
 */
import { acceptedContent, inputRequired, inputResponse, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { ApprovalOptions, Identity } from '../options.js';
import { jsonSchema } from '../schema/jsonSchema.js';
import { open, seal, stateKey } from './requestState.js';

/** The `inputRequests` key of the confirmation. */
export const APPROVAL_REQUEST_KEY = 'mcpgen_approval';


const confirmation = jsonSchema<{ approve: boolean }>({
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Approve', description: 'Run this exact call now.' } },
  required: ['approve'],
});

/** What the gate decided. */
export type ApprovalDecision =
  | { readonly kind: 'approved'; readonly via: string }
  | { readonly kind: 'ask'; readonly result: CallToolResult }
  | { readonly kind: 'refused'; readonly message: string };

/** Everything the gate looks at. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly identity: Identity;
  readonly input: unknown;
  readonly inputSha256: string;
  readonly receipt: string | undefined;
  readonly sdk: ServerContext;
  /** Whether the client can be asked (declared elicitation, and not stateless 2025 HTTP). */
  readonly canAsk: boolean;
  readonly now: number;
}

interface StatePayload {
  readonly t: string;
  readonly h: string;
  readonly p: string;
  readonly n: string;
  readonly e: number;
}

function sign(options: ApprovalOptions, payload: StatePayload): string {
  return seal(stateKey(options.stateKey), payload);
}

function verifyState(options: ApprovalOptions, state: unknown, req: ApprovalRequest): boolean {
  const payload = open<StatePayload>(stateKey(options.stateKey), state);
  if (!payload) return false;
  return payload.t === req.tool && payload.h === req.inputSha256 && payload.p === req.identity.principal && payload.n === (req.identity.tenant ?? '') && payload.e > req.now;
}

function describeInput(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 1500 ? `${text.slice(0, 1500)}… (truncated)` : text;
}

/** Runs the approval gate for one call. */
export async function decideApproval(options: ApprovalOptions, req: ApprovalRequest): Promise<ApprovalDecision> {
  if (req.receipt !== undefined) {
    if (!options.verifyReceipt) return { kind: 'refused', message: `Approval refused: this server accepts no approval receipts (no verifier is configured). Tool ${req.tool} needs the user's confirmation through the client.` };
    let verdict: boolean | string;
    try {
      verdict = await options.verifyReceipt({ ...req.identity, tool: req.tool, input: req.input, inputSha256: req.inputSha256, receipt: req.receipt });
    } catch {
      verdict = false;
    }
    if (verdict === true) return { kind: 'approved', via: req.receipt };
    return { kind: 'refused', message: typeof verdict === 'string' ? verdict : `Approval refused: the approvalReceipt does not approve this exact call of ${req.tool} (input sha256 ${req.inputSha256}).` };
  }
  const responses = req.sdk.mcpReq.inputResponses;
  const answer = inputResponse(responses, APPROVAL_REQUEST_KEY);
  if (answer.kind === 'elicit') {
    if (!verifyState(options, req.sdk.mcpReq.requestState(), req)) return { kind: 'refused', message: `Approval refused: the confirmation does not match this call of ${req.tool} (different input, caller, or expired). Call again to be asked anew.` };
    const content = acceptedContent(responses, APPROVAL_REQUEST_KEY, confirmation);
    if (answer.action === 'accept' && content?.approve === true) return { kind: 'approved', via: 'elicitation' };
    return { kind: 'refused', message: `Approval refused: the user did not approve ${req.tool}; nothing was done.` };
  }
  if (options.elicit !== false && req.canAsk) {
    const payload: StatePayload = { t: req.tool, h: req.inputSha256, p: req.identity.principal, n: req.identity.tenant ?? '', e: req.now + (options.ttlMs ?? 10 * 60 * 1000) };
    const result = inputRequired({
      inputRequests: { [APPROVAL_REQUEST_KEY]: inputRequired.elicit({ message: `Approve ${req.tool} with exactly these arguments? ${describeInput(req.input)}`, requestedSchema: confirmation }) },
      requestState: sign(options, payload),
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
