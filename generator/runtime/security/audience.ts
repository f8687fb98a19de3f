/**
 * A resource's `audience` enforced by the server itself: who the caller's audiences are (token claim,
 * scope grants, the launch identity) and whether they may see a resource. A caller outside every audience
 * of a resource is served as if the resource did not exist: reads answer the specification's "resource not
 * found", listings leave it out, and the `authorize` hook is asked only about callers inside the audience.
 */
import { ResourceNotFoundError, type AuthInfo } from '@modelcontextprotocol/server';
import type { Identity, ServerOptions } from '../options.js';

/** The part of a resource declaration this gate reads. */
interface Audienced {
  readonly name: string;
  readonly audience?: readonly string[];
}

/** Every audience some resource declares, in declaration order: what the launch identity belongs to by default. */
export function declaredAudiences(catalog: { readonly resources: readonly Audienced[] }): readonly string[] {
  return [...new Set(catalog.resources.flatMap((r) => r.audience ?? []))];
}

/** `identify` followed by the audiences `audienceScopes` grants for the token's scopes. */
export function withAudienceScopes(identify: (auth: AuthInfo) => Identity, grants: ServerOptions['audienceScopes']): (auth: AuthInfo) => Identity {
  if (grants === undefined) return identify;
  const entries = Object.entries(grants);
  return (auth) => {
    const identity = identify(auth);
    const granted = entries.filter(([, scopes]) => scopes.some((s) => identity.scopes.includes(s))).map(([audience]) => audience);
    if (granted.length === 0) return identity;
    return { ...identity, audiences: [...new Set([...(identity.audiences ?? []), ...granted])] };
  };
}

/** True when the resource states no audience, or `identity` belongs to one of its audiences. */
export function inAudience(spec: Audienced, identity: Identity): boolean {
  if (spec.audience === undefined) return true;
  const mine = identity.audiences ?? [];
  return spec.audience.some((a) => mine.includes(a));
}

/**
 * A read by a caller outside the resource's audience. On the wire it is exactly the answer to a URI the
 * server does not serve (-32602 `Resource not found`, `data.uri`), so the refusal does not tell the caller
 * the resource exists; the audit event says `forbidden` and why.
 */
export class OutsideAudience extends ResourceNotFoundError {
  readonly outcome = 'forbidden' as const;
  constructor(
    uri: string,
    readonly resource: string,
    readonly audience: readonly string[],
  ) {
    super(uri);
  }

  /** The sentence for the audit trail. */
  get detail(): string {
    return `caller is not in the audience of resource ${this.resource} (${this.audience.join(', ')})`;
  }
}

/** Throws {@link OutsideAudience} when `identity` may not see `spec`. */
export function checkAudience(spec: Audienced, identity: Identity, uri: string): void {
  if (!inAudience(spec, identity)) throw new OutsideAudience(uri, spec.name, spec.audience ?? []);
}
