/**
 * YAML aliases (`*name`, naming a node marked `&name`). Both parsers answer an alias with the very object
 * its anchor made, so a value with aliases is a graph: this module measures it, refuses the two graphs
 * that are not data (a cycle, and one whose aliases add more than `ALIAS_BUDGET` values: the "billion
 * laughs" expansion), and copies the rest into a tree, so that a manifest with aliases and the same
 * manifest written out in full give the same value, and no step can change one entry through another.
 *
 * The budget counts what aliases add, not what the text holds: a manifest without aliases never meets it,
 * and one written by a YAML library that shares an object used twice (1,000 tools naming one schema
 * object) adds a few values per use. `yaml`'s own alias limit (a count per anchor) refused that.
 */
import type { Finding } from './report.js';

/** At most this many values may be added by aliases (each alias counts every value of the node it names). */
export const ALIAS_BUDGET = 1_000_000;

/** What aliases do to a value: nothing, a cycle, or the count of values they add. */
export type Sharing = { readonly kind: 'tree' } | { readonly kind: 'cycle' } | { readonly kind: 'shared'; readonly added: number };

/**
 * Measures a parsed value (plain objects, arrays and scalars): whether an object is reached twice, through
 * itself (a cycle), and how many values the repeats add. Linear in the distinct objects, whatever the
 * expansion: each object's expanded size is computed once.
 */
export function sharingOf(value: unknown): Sharing {
  return sharingAfter([], value);
}

/**
 * `sharingOf(value)` where the values of `before` were met first: what `value` adds to them. An object
 * reached once in `before` and again in `value` counts in `value`; repeats inside `before` do not count.
 * Since what aliases add is the sum, over every object, of its expanded size once per reach after the
 * first, the parts of a document measured this way, each after what it refers to, add up to the whole.
 */
export function sharingAfter(before: readonly unknown[], value: unknown): Sharing {
  const sizes = new Map<object, number>();
  const ON_PATH = -1;
  let added = 0;
  let cycle = false;
  const size = (v: unknown): number => {
    if (v === null || typeof v !== 'object') return 1;
    const known = sizes.get(v);
    if (known !== undefined) {
      if (known === ON_PATH) cycle = true;
      else added += known;
      return known === ON_PATH ? 0 : known;
    }
    sizes.set(v, ON_PATH);
    let n = 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) n += size(child);
    sizes.set(v, n);
    return n;
  };
  for (const b of before) size(b);
  added = 0;
  size(value);
  if (cycle) return { kind: 'cycle' };
  // Every repeat adds at least the object itself: none added, none repeated.
  return added === 0 ? { kind: 'tree' } : { kind: 'shared', added };
}

/** True when the aliases of a value with `sharing` may be expanded: no cycle, within the budget. */
export const expandable = (sharing: Sharing): boolean => sharing.kind === 'tree' || (sharing.kind === 'shared' && sharing.added <= ALIAS_BUDGET);

/** A copy of an acyclic value in which no object is reached twice (each alias becomes a copy of its node). */
export function unshare<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => unshare(v) as unknown) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // A key `__proto__` is an own property, as the parsers make it: assigned, it would set the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: unshare(v), enumerable: true, writable: true, configurable: true });
    else out[k] = unshare(v);
  }
  return out as T;
}

/** The error for a value whose aliases cannot be expanded (see `expandable`), without its position. */
export function aliasError(sharing: Sharing): Finding {
  if (sharing.kind === 'cycle') {
    return {
      code: 'MG004',
      message: 'an alias names a node that contains it, which makes the value infinite',
      hint: 'write the repeated part out, or move the anchor (&name) to a node that does not contain the alias (*name)',
    };
  }
  const added = sharing.kind === 'shared' ? sharing.added : 0;
  return {
    code: 'MG004',
    message: `aliases repeat ${added.toLocaleString('en-US')} values, more than the ${ALIAS_BUDGET.toLocaleString('en-US')} allowed (an alias repeats every value of the node it names)`,
    hint: 'this is how a "billion laughs" document grows; name shared JSON Schemas under `schemas:` and `$ref` them instead of nesting aliases',
  };
}
