/**
 * `ServerOptions`: everything the author supplies to a generated
 * `createServer(handlers, options)`. Generated code never needs editing to
 * plug in identity, authorization, idempotency, approval, audit or limits.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ErrorSource, TextSink } from './errors.js';
import type { SharedStore } from './store/types.js';
import type { AuditSink } from './security/audit.js';
import type { Effect, StateStore } from './state.js';

/** Who is calling, as every gate and handler sees it. Never taken from arguments. */
export interface Identity {
  /** Stable id of the caller (token subject or client id over HTTP; the launch principal otherwise). */
  readonly principal: string;
  /** The caller's tenant, when the deployment has tenants. */
  readonly tenant?: string;
  /** The scopes granted to this caller. */
  readonly scopes: readonly string[];
  /**
   * The audiences this caller belongs to (`support-agents`, …): a resource that declares `audience` is
   * readable and listed only for callers in one of its audiences. Absent: none.
   */
  readonly audiences?: readonly string[];
}

/** The primitive an authorization decision is about. */
export interface AuthorizeRequest extends Identity {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly name: string;
  /** Tool input (validated, without idempotency key or approval receipt). */
  readonly input?: unknown;
  /** Resource URI and decoded, validated template variables. */
  readonly uri?: string;
  readonly params?: unknown;
  /** Prompt arguments (validated). */
  readonly args?: unknown;
  /** A resource's declared data classification. */
  readonly classification?: 'public' | 'internal' | 'confidential' | 'restricted';
  /** A resource's declared allowed audience: decide here whether this caller belongs to it. */
  readonly audience?: readonly string[];
}

/**
 * Object-level authorization ("this ticket belongs to this tenant"), run on every
 * call, read and get after scopes and validation, before the handler.
 * `true` allows; `false` refuses with a generic message; a string refuses with that message.
 */
export type AuthorizeHook = (request: AuthorizeRequest) => boolean | string | Promise<boolean | string>;

/** What an approval verifier is asked: does `receipt` approve exactly this call? */
export interface ApprovalCheck extends Identity {
  readonly tool: string;
  readonly input: unknown;
  /** sha256 of the canonical JSON of `input`: what a receipt should be bound to. */
  readonly inputSha256: string;
  /** The call's idempotency key (tools with `idempotency: required`): bind receipts to it too. */
  readonly idempotencyKey?: string;
  /** The receipt; an accepted one is consumed by this call and refused on any later call. */
  readonly receipt: string;
}

/** Approval settings for tools declared `approval: required`. */
export interface ApprovalOptions {
  /** Checks an `approvalReceipt` from the arguments. Without it, receipts are refused. */
  verifyReceipt?: (check: ApprovalCheck) => boolean | string | Promise<boolean | string>;
  /**
   * Ask the user through the client (elicitation / input_required) when the client supports it.
   * Default true.
   */
  elicit?: boolean;
  /**
   * @deprecated Use `ServerOptions.stateSecrets` or `MCP_STATE_SECRET`; still accepted as the sealing secret.
   */
  stateKey?: string;
  /** How long a confirmation request stays valid. Default 5 minutes. */
  ttlMs?: number;
  /** How long a used receipt is remembered, so it cannot authorize a second call. Default 24 hours. */
  receiptTtlMs?: number;
}

/** Size bounds applied before validation. */
export interface LimitOptions {
  /** Largest accepted tool arguments / prompt arguments, in bytes of JSON. Default 1 MiB. */
  maxInputBytes?: number;
  /** Longest accepted resource URI, in characters. Default 8192. */
  maxUriLength?: number;
  /** Time budget of a tool whose manifest sets no `timeoutMs`, in milliseconds. Default 60,000. */
  timeoutMs?: number;
}

/** Options generated `createServer(handlers, options)` accepts. */
export interface ServerOptions {
  /** Called with every unexpected handler error (the client only sees a generic message). Default: one line on stderr. */
  onError?: (error: unknown, source: ErrorSource) => void;
  /** The caller's identity when the transport carries no token (stdio: from the launch environment, see `launchOptions`). Default `local`. */
  principal?: string;
  /** The caller's tenant when the transport carries no token. */
  tenant?: string;
  /** The caller's scopes when the transport carries no token. Default: every scope the manifest declares. */
  scopes?: readonly string[];
  /**
   * The caller's audiences when the transport carries no token (stdio, loopback HTTP without a verifier).
   * Default: every audience the manifest declares, as for scopes: the launch user reads what the server
   * serves. `MCP_AUDIENCES` sets it at launch.
   */
  audiences?: readonly string[];
  /**
   * Places token holders in audiences by their scopes: audience → scopes, any one of which grants it
   * (`{ 'support-agents': ['tickets:read'] }`). Added to the audiences the token itself carries.
   */
  audienceScopes?: Readonly<Record<string, readonly string[]>>;
  /**
   * Maps a verified bearer token to the identity. Default: principal = `extra.sub` or `clientId`,
   * tenant = `extra.tenant` (a string), scopes = `scopes`, audiences = `extra.audiences` (an array of
   * strings, or one string of space- or comma-separated names).
   */
  identify?: (auth: AuthInfo) => Identity;
  /** Object-level authorization hook; see {@link AuthorizeHook}. */
  authorize?: AuthorizeHook;
  /**
   * The state every replica must share: idempotency claims and outcomes, single-use approvals, change
   * events. Default: one in-memory store per process (stdio, or a single HTTP process). The generated
   * entry point passes the Redis store of `--redis` / `MCP_REDIS_URL`.
   */
  store?: SharedStore;
  /**
   * Secrets that seal `requestState` (approval confirmations, `ctx.sealState`): the first seals, all open,
   * so a previous secret keeps working while a new one rolls out. Default: `MCP_STATE_SECRET` and
   * `MCP_STATE_SECRET_PREVIOUS` (comma-separated) from the environment, else random per process.
   * At least 32 characters each; the same on every replica.
   */
  stateSecrets?: readonly string[];
  /**
   * @deprecated Replaced by `store` (a `SharedStore`); passing it throws, so a deployment never runs
   * with a store it did not mean to use.
   */
  idempotencyStore?: never;
  /** Approval gate settings. */
  approval?: ApprovalOptions;
  /**
   * Receives one event per call, read and get, and one per refused request. Default: JSON lines on
   * `auditStream`. `false` disables.
   */
  audit?: AuditSink | false;
  /**
   * Where the default audit sink writes its JSON lines: a stream of its own (a file, a pipe) keeps the
   * audit trail apart from every other diagnostic. Default `stderr`, where `ctx.log` lines are escaped
   * so they can never pass for audit lines.
   */
  auditStream?: TextSink;
  /** Input bounds. */
  limits?: LimitOptions;
  /** Milliseconds since the epoch; tests pass a fake. Default `Date.now`. */
  clock?: () => number;
  /** Where logs, audit lines and the default error reporter write. Default `process.stderr`; never stdout. */
  stderr?: TextSink;
  /** The protocol era this instance serves (pass the factory's `ctx.era`); learnt from the first request when absent. */
  era?: 'legacy' | 'modern';
  // --- handler state and effects (hidden side-effect gate, scenario final state) ---
  /** The store handlers keep their domain state in (`ctx.state`). Default: one in-memory store per process. */
  state?: StateStore;
  /**
   * Told of every change a handler makes through its context (a `ctx.state` write, a
   * `ctx.notifyResourceUpdated`), with the primitive that made it. The contract suites use it to catch a
   * resource read or prompt get that changes state.
   */
  onEffect?: (effect: Effect) => void;
}

/** Defaults for {@link LimitOptions}. */
export const DEFAULT_LIMITS = { maxInputBytes: 1024 * 1024, maxUriLength: 8192, timeoutMs: 60_000 } as const;

/**
 * The launch identity of a stdio (or unauthenticated loopback HTTP) server, from the environment:
 * `MCP_PRINCIPAL`, `MCP_TENANT`, `MCP_SCOPES` (space- or comma-separated; set but empty grants nothing).
 * Never read from request arguments.
 */
export function launchOptions(env: Readonly<Record<string, string | undefined>> = process.env): Pick<ServerOptions, 'principal' | 'tenant' | 'scopes' | 'audiences'> {
  const out: { principal?: string; tenant?: string; scopes?: readonly string[]; audiences?: readonly string[] } = {};
  if (env['MCP_PRINCIPAL']) out.principal = env['MCP_PRINCIPAL'];
  if (env['MCP_TENANT']) out.tenant = env['MCP_TENANT'];
  const scopes = env['MCP_SCOPES'];
  if (scopes !== undefined) out.scopes = nameList(scopes);
  const audiences = env['MCP_AUDIENCES'];
  if (audiences !== undefined) out.audiences = nameList(audiences);
  return out;
}

/** Names separated by spaces or commas; empty means none. */
function nameList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** A token's `audiences` claim: an array of strings, or one string of names. Anything else: none. */
function audiencesClaim(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return nameList(value);
  if (Array.isArray(value)) return value.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return undefined;
}

/** The default token → identity mapping. */
export function identityFromToken(auth: AuthInfo): Identity {
  const extra = (auth.extra ?? {}) as Record<string, unknown>;
  const sub = typeof extra['sub'] === 'string' ? extra['sub'] : undefined;
  const tenant = typeof extra['tenant'] === 'string' ? extra['tenant'] : undefined;
  const audiences = audiencesClaim(extra['audiences']);
  return { principal: sub ?? auth.clientId, ...(tenant === undefined ? {} : { tenant }), scopes: auth.scopes ?? [], ...(audiences === undefined ? {} : { audiences }) };
}
