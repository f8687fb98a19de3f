/** The listing fields every primitive shares, computed once for tools, resources and prompts alike. */
import type { IrPrimitiveBase } from '../ir/types.js';
import type { BaseListing } from './types.js';

/**
 * What a listing entry shows of the primitive base, in listing order. A field every primitive
 * gains and every listing shows is added here; the server, lock, client and diff pick it up.
 */
export function baseListing(p: IrPrimitiveBase): BaseListing {
  return {
    name: p.name,
    ...(p.title !== undefined ? { title: p.title } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.icons !== undefined ? { icons: p.icons } : {}),
  };
}

/** A listing without its `name` (and the given keys): the metadata object the SDK registers. */
export function metadataOf<L extends BaseListing, K extends keyof L>(listing: L, ...without: K[]): Omit<L, 'name' | K> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(listing)) if (k !== 'name' && !(without as string[]).includes(k)) out[k] = v;
  return out as Omit<L, 'name' | K>;
}
