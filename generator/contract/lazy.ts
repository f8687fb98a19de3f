/**
 * Fields of a contract computed when first read. Publishing a schema (inlining named schemas, dropping
 * nested dialects) is most of the contract's cost, and after a one-primitive change the emitters read
 * the published schemas of that primitive only: the others' pieces are kept (see docs/incremental.md).
 */

/**
 * Defines `key` on `target` as an enumerable property whose value is `compute()`, computed on first
 * read and the same value (object) on every read after. The property takes its place in the key order
 * like an assigned one, and reads as a plain value to `Object.keys`, spread and `JSON.stringify`.
 * `compute` must be pure: when it runs must not change what it returns.
 */
export function lazily<T extends object, V>(target: T, key: string, compute: () => V): T {
  let done = false;
  let value: V;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): V {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
  });
  return target;
}
