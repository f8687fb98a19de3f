/**
 * Authorization on every call: declared scopes first (before validation, so an
 * unauthorized caller learns nothing about the input rules), then the
 * author's object-level `authorize` hook. Failures fail closed.
 */
import type { AuthorizeRequest, Identity, ServerOptions } from '../options.js';

/** The declared scopes `granted` lacks. */
export function missingScopes(required: readonly string[], granted: readonly string[]): readonly string[] {
  // The common answer (nothing missing) allocates nothing.
  for (let i = 0; i < required.length; i++) if (!granted.includes(required[i]!)) return required.filter((s) => !granted.includes(s));
  return NONE;
}

const NONE: readonly string[] = Object.freeze([]);

/** True when `identity` holds every scope in `required`. */
export function hasScopes(required: readonly string[], identity: Identity): boolean {
  return missingScopes(required, identity.scopes).length === 0;
}

/** The refusal text for missing scopes. */
export function scopeRefusal(kind: string, name: string, missing: readonly string[]): string {
  return `Forbidden: ${kind} ${name} requires scope ${missing.join(' ')}, which this caller was not granted.`;
}

/**
 * Runs the `authorize` hook. Returns a refusal message, or undefined when allowed.
 * A hook that throws refuses (and is reported): a broken policy must not open the door.
 */
export async function runAuthorize(options: ServerOptions, request: AuthorizeRequest, report: (error: unknown) => void): Promise<string | undefined> {
  if (!options.authorize) return undefined;
  let verdict: boolean | string;
  try {
    verdict = await options.authorize(request);
  } catch (error) {
    report(error);
    verdict = false;
  }
  if (verdict === true) return undefined;
  return typeof verdict === 'string' && verdict.length > 0 ? verdict : `Forbidden: this caller may not use ${request.kind} ${request.name} with these arguments.`;
}
