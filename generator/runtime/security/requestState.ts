/**
 * Integrity for `requestState` (2026-07-28 multi-round requests). The state
 * round-trips through the client, so it is attacker-controlled on return; the
 * spec requires servers to protect it and the SDK does not by default. Every
 * generated server installs `requestStateHook`: a state that was not sealed
 * with this server's key is refused with a JSON-RPC error before any handler
 * runs. Handlers seal and open their own state with `ctx.sealState` /
 * `ctx.openState`; approval confirmations use the same seal.
 */
import { randomBytes } from 'node:crypto';
import { hmac, sameDigest } from './hash.js';

/** Random per process; set `approval.stateKey` (the same on every replica) when retries may reach another process. */
const processKey = randomBytes(32).toString('hex');

/** The key states are sealed with. */
export function stateKey(configured: string | undefined): string {
  return configured ?? processKey;
}

/** `<base64url JSON>.<hmac>` of a payload. */
export function seal(key: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload) ?? 'null').toString('base64url');
  return `${body}.${hmac(key, body)}`;
}

/** The body of a sealed state when its seal is intact, else undefined. */
function verifiedBody(key: string, state: unknown): string | undefined {
  if (typeof state !== 'string') return undefined;
  const [body, mac, ...rest] = state.split('.');
  if (!body || !mac || rest.length > 0 || !sameDigest(mac, hmac(key, body))) return undefined;
  return body;
}

/** The payload of a state sealed with `key`, or undefined when it is missing or was tampered with. */
export function open<T>(key: string, state: unknown): T | undefined {
  const body = verifiedBody(key, state);
  if (body === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * The `requestState` option for `McpServer`: refuses any state this server did not seal (the SDK answers
 * with a JSON-RPC error) and hands handlers the sealed string unchanged.
 */
export function requestStateHook(key: string): { verify: (state: string) => Promise<string> } {
  return {
    async verify(state: string): Promise<string> {
      if (verifiedBody(key, state) === undefined) throw new Error('requestState failed its integrity check');
      return state;
    },
  };
}
