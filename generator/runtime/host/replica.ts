/**
 * Which replica served what. A 2025-era session lives in the memory of the
 * replica that opened it (the SDK's session transport cannot be resumed by
 * another process), so the load balancer must route by `Mcp-Session-Id`.
 * Session ids carry their replica's id, so a replica that receives a session
 * it does not own can say so plainly instead of a bare "not found".
 */
import { randomUUID } from 'node:crypto';

/** This replica's id: `MCP_REPLICA_ID` (letters, digits, `-`, `_`) or a random one per process. */
export function replicaId(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env['MCP_REPLICA_ID'];
  if (configured && /^[A-Za-z0-9_-]{1,64}$/.test(configured)) return configured;
  return `r-${randomUUID().slice(0, 8)}`;
}

/** A new session id owned by `replica` (visible ASCII, as the transport requires). */
export function sessionIdFor(replica: string): string {
  return `${replica}.${randomUUID()}`;
}

/** The replica that opened `sessionId`, when it was opened by an mcp-gen host. */
export function sessionReplica(sessionId: string): string | undefined {
  const dot = sessionId.lastIndexOf('.');
  return dot > 0 ? sessionId.slice(0, dot) : undefined;
}

/**
 * The answer to a session this replica does not hold: 404 as the protocol
 * requires (the client starts a new session), with a message that tells an
 * operator whether the session lives on another replica (routing is not
 * sticky) or is gone.
 */
export function unknownSessionResponse(sessionId: string, replica: string): Response {
  const owner = sessionReplica(sessionId);
  const message =
    owner !== undefined && owner !== replica
      ? `Session not found on replica ${replica}: it was opened on replica ${owner}. 2025-11-25 sessions live on the replica that opened them, so the load balancer must route by the Mcp-Session-Id header (sticky sessions); start a new session with initialize`
      : 'Session not found: start a new one with initialize';
  return Response.json({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }, { status: 404, headers: { 'mcp-replica': replica } });
}
