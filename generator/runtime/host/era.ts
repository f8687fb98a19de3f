/**
 * Which era an HTTP request belongs to, without classifying it twice when its
 * body already says. The SDK's `isLegacyRequest` runs the same body-primary
 * classification as `createMcpHandler`, which runs it again; every call of it
 * validates the body against the JSON-RPC schemas. Its documented semantics
 * decide one case from the body's shape alone: a POST whose message carries
 * the per-request `_meta` envelope claim (`io.modelcontextprotocol/
 * protocolVersion`) is never legacy — whether it is served, or answered with
 * the modern path's own error (an unsupported revision, a malformed envelope,
 * a header that disagrees with the body). Every 2026-07-28 client message
 * carries it, so that case goes to the modern entry directly; every other
 * request is classified by the SDK as before.
 *
 * The case is narrowed to what the SDK's classifier decides before any schema
 * matters (checked against the installed SDK in `test/runtime/http-era.test.ts`):
 * - one message, not a batch (a batch carrying a claim is answered by the
 *   modern path too, but its elements are validated first: left to the SDK);
 * - neither a `result` nor an `error` member (a posted JSON-RPC response is
 *   legacy, whatever else it carries);
 * - not `initialize` (the legacy handshake, unless its claim is a valid modern
 *   envelope: left to the SDK).
 *
 * A second case is the 2025-era call itself: a POST whose body is one JSON-RPC
 * request (exactly as the SDK's `isJSONRPCRequest` takes one), other than
 * `initialize`, without the claim, whose `MCP-Protocol-Version` header is absent
 * or names a revision before 2026-07-28, is legacy ("no-claim" in the SDK's
 * classifier). Every call of a 2025 session is one; asking the SDK costs each
 * of them Zod parses of the body against the response schemas first, whose
 * failing results V8 keeps in hidden classes of their own (promoted by young
 * collections: about 2.4 KB per call of the 14 KB a session call promoted).
 * Notifications, batches, `initialize` and anything else go to the SDK.
 */
import { PROTOCOL_VERSION_META_KEY, isLegacyRequest } from '@modelcontextprotocol/server';
import { isPlainJsonRpcRequest } from './modernLane.js';

/** The first revision of the modern era (the SDK's `isModernProtocolVersion` compares revisions as strings). */
const FIRST_MODERN_REVISION = '2026-07-28';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** True when the SDK's documented semantics make this POST body non-legacy from its shape alone (see the module comment). */
export function claimsModernEnvelope(parsedBody: unknown): boolean {
  if (!isRecord(parsedBody) || 'result' in parsedBody || 'error' in parsedBody) return false;
  if (parsedBody['method'] === 'initialize') return false;
  const params = parsedBody['params'];
  if (!isRecord(params)) return false;
  const meta = params['_meta'];
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * True when the SDK's documented semantics make this POST legacy from its body's shape and its
 * `MCP-Protocol-Version` header alone: one JSON-RPC request, not `initialize`, without the envelope claim,
 * under no header naming a modern revision (see the module comment). The header is read from a web
 * `Headers`, which trims HTTP's whitespace around a value as the SDK's classifier does.
 */
export function isClaimlessLegacyCall(parsedBody: unknown, protocolVersionHeader: string | null): boolean {
  if (!isPlainJsonRpcRequest(parsedBody)) return false;
  const body = parsedBody as Record<string, unknown>;
  if (body['method'] === 'initialize') return false;
  const params = body['params'];
  const meta = isRecord(params) ? params['_meta'] : undefined;
  if (isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta) return false;
  return protocolVersionHeader === null || protocolVersionHeader < FIRST_MODERN_REVISION;
}

/** Whether `createMcpHandler` would serve `request` as 2025-era traffic (`isLegacyRequest`), skipping the classification where the body decides it. */
export async function isLegacyEra(request: Request, parsedBody: unknown): Promise<boolean> {
  if (request.method === 'POST' && parsedBody !== undefined) {
    if (claimsModernEnvelope(parsedBody)) return false;
    if (isClaimlessLegacyCall(parsedBody, request.headers.get('mcp-protocol-version'))) return true;
  }
  return isLegacyRequest(request, parsedBody);
}
