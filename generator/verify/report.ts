/** The results verify reports, and the small helpers every check shares. */

/** The outcome of one check. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  /** Why it failed (one line each), or why it was skipped. */
  readonly details: readonly string[];
  readonly skipped?: boolean;
  /** Facts worth reading that are not failures (published fields no manifest can declare, how a read answered). */
  readonly notes?: readonly string[];
}

/** The whole verification report. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly checks: readonly CheckResult[];
}

export type Obj = Record<string, unknown>;

/** How a request ended: its result, or the error's JSON-RPC code (NaN when it has none) and message. */
export interface Outcome {
  readonly result?: Obj;
  readonly code?: number;
  readonly message?: string;
  /** The HTTP status of a refusal made before the MCP layer (401, 403), when the transport says. */
  readonly status?: number;
}

/** Awaits a request and tells its outcome apart, never throwing. */
export async function outcomeOf(p: Promise<unknown>): Promise<Outcome> {
  try {
    return { result: (await p) as Obj };
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown; status?: unknown };
    const status = typeof err.status === 'number' ? err.status : typeof err.code === 'number' && err.code >= 400 && err.code < 600 ? err.code : undefined;
    return { code: typeof err.code === 'number' ? err.code : Number.NaN, message: String(err.message ?? e), ...(status !== undefined ? { status } : {}) };
  }
}

/** A tool call's refusal text (`isError` content), or undefined when the call succeeded. */
export function toolErrorText(o: Outcome): string | undefined {
  if (o.code !== undefined) return o.message ?? `error ${o.code}`;
  if (o.result?.['isError'] !== true) return undefined;
  const content = o.result['content'];
  const texts = Array.isArray(content) ? content.map((c) => (c as Obj)['text']).filter((t) => typeof t === 'string') : [];
  return texts.join(' ') || 'isError';
}

export const pass = (name: string, ...notes: string[]): CheckResult => ({ name, ok: true, details: [], ...(notes.length ? { notes } : {}) });
export const fail = (name: string, ...details: string[]): CheckResult => ({ name, ok: false, details });
export const skip = (name: string, why: string): CheckResult => ({ name, ok: true, skipped: true, details: [why] });
/** Text cut to one readable line. */
export const short = (s: string): string => (s.length > 160 ? `${s.slice(0, 157)}...` : s);
