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
 */
import { PROTOCOL_VERSION_META_KEY, isLegacyRequest } from '@modelcontextprotocol/server';

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

/** Whether `createMcpHandler` would serve `request` as 2025-era traffic (`isLegacyRequest`), skipping the classification where the claim decides it. */
export async function isLegacyEra(request: Request, parsedBody: unknown): Promise<boolean> {
  if (request.method === 'POST' && parsedBody !== undefined && claimsModernEnvelope(parsedBody)) return false;
  return isLegacyRequest(request, parsedBody);
}
