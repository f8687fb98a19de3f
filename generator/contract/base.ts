/** The listing fields every primitive shares, computed once for tools, resources and prompts alike. */
import type { IrPrimitiveBase } from '../ir/types.js';
import type { BaseListing } from './types.js';

/**
 * The base fields every listing entry shows exactly as declared, in listing order. A field every
 * primitive gains and every listing shows is added to `IrPrimitiveBase`, to `buildBase` and here: the
 * server registers it, the lock records it, diff compares it and the contract suites expect it.
 */
export const LISTED_BASE_FIELDS = ['title', 'description', 'icons'] as const satisfies readonly (keyof IrPrimitiveBase)[];

/** What a listing entry shows of the primitive base: its name, then each listed field it declares. */
export function baseListing(p: IrPrimitiveBase, fields: readonly string[] = LISTED_BASE_FIELDS): BaseListing {
  const out: Record<string, unknown> = { name: p.name };
  for (const f of fields) {
    const v = (p as unknown as Record<string, unknown>)[f];
    if (v !== undefined) out[f] = v;
  }
  return out as unknown as BaseListing;
}

/** What a contract (and the lock) records of who a primitive serves and who owns it; never listed. */
export interface Stewardship {
  readonly outcome?: string;
  readonly owner?: string;
}

/** The primitive's `outcome` and `owner`, each only when declared. */
export function stewardshipOf(p: IrPrimitiveBase): Stewardship {
  return { ...(p.outcome !== undefined ? { outcome: p.outcome } : {}), ...(p.owner !== undefined ? { owner: p.owner } : {}) };
}

/** A listing without its `name` (and the given keys): the metadata object the SDK registers. */
export function metadataOf<L extends BaseListing, K extends keyof L>(listing: L, ...without: K[]): Omit<L, 'name' | K> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(listing)) if (k !== 'name' && !(without as string[]).includes(k)) out[k] = v;
  return out as Omit<L, 'name' | K>;
}
