/**
 * Integrity for `requestState` (2026-07-28 multi-round requests). The state
 * round-trips through the client, so it is attacker-controlled on return; the
 * spec requires servers to protect it and the SDK does not by default. Every
 * generated server installs `requestStateHook`: a state that was not sealed
 * with this server's secret is refused with a JSON-RPC error before any handler
 * runs. Handlers seal and open their own state with `ctx.sealState` /
 * `ctx.openState`; approval confirmations use the same seal.
 *
 * One secret serves the fleet: `MCP_STATE_SECRET` (or `ServerOptions.stateSecrets`),
 * so a retry may reach any replica. `MCP_STATE_SECRET_PREVIOUS` is still accepted
 * for opening while a new secret rolls out; only the current one seals.
 */
import { randomBytes } from 'node:crypto';
import { hmac, sameDigest } from './hash.js';

/** The secrets states are sealed with: the first seals, every one opens. */
export interface StateKeys {
  readonly seal: string;
  readonly open: readonly string[];
}

/** Random per process: enough for stdio and one HTTP process, never for replicas. */
const processKey = randomBytes(32).toString('hex');

/** Shortest accepted secret: 32 characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_STATE_SECRET_LENGTH = 32;

/**
 * The state secrets from the options, else from `MCP_STATE_SECRET` / `MCP_STATE_SECRET_PREVIOUS`
 * (comma-separated), else a random secret of this process. A secret shorter than
 * {@link MIN_STATE_SECRET_LENGTH} is refused with an error naming where it came from.
 */
export function stateKeys(configured: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>> = process.env): StateKeys {
  const fromEnv = [env['MCP_STATE_SECRET'], ...(env['MCP_STATE_SECRET_PREVIOUS'] ?? '').split(',')].map((s) => s?.trim() ?? '').filter(Boolean);
  const source = configured !== undefined && configured.length > 0 ? 'stateSecrets' : 'MCP_STATE_SECRET';
  const secrets = configured !== undefined && configured.length > 0 ? [...configured] : env['MCP_STATE_SECRET'] ? fromEnv : [];
  if (secrets.length === 0) return { seal: processKey, open: [processKey] };
  for (const secret of secrets) {
    if (secret.length < MIN_STATE_SECRET_LENGTH) throw new Error(`mcp-gen: a ${source} secret is ${secret.length} characters long; use at least ${MIN_STATE_SECRET_LENGTH} random characters (e.g. \`openssl rand -hex 32\`).`);
  }
  return { seal: secrets[0]!, open: secrets };
}

/** `<base64url JSON>.<hmac>` of a payload. */
export function seal(keys: StateKeys, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload) ?? 'null').toString('base64url');
  return `${body}.${hmac(keys.seal, body)}`;
}

/** The body of a sealed state when its seal is intact under one of the keys, else undefined. */
function verifiedBody(keys: StateKeys, state: unknown): string | undefined {
  if (typeof state !== 'string') return undefined;
  const [body, mac, ...rest] = state.split('.');
  if (!body || !mac || rest.length > 0) return undefined;
  return keys.open.some((key) => sameDigest(mac, hmac(key, body))) ? body : undefined;
}

/** The payload of a state sealed with `keys`, or undefined when it is missing or was tampered with. */
export function open<T>(keys: StateKeys, state: unknown): T | undefined {
  const body = verifiedBody(keys, state);
  if (body === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * The `requestState` option for `McpServer`: refuses any state this server did not seal (the SDK answers
 * with a JSON-RPC error) and hands handlers the sealed string unchanged. `refused` hears of each refusal
 * (the audit log records it).
 */
export function requestStateHook<C>(keys: StateKeys, refused: (ctx: C | undefined) => void = () => undefined): { verify: (state: string, ctx?: C) => Promise<string> } {
  return {
    async verify(state: string, ctx?: C): Promise<string> {
      if (verifiedBody(keys, state) === undefined) {
        refused(ctx);
        throw new Error('requestState failed its integrity check');
      }
      return state;
    },
  };
}
