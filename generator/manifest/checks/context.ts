import type { IrResourceSource } from '../../ir/types.js';
import type { SchemaRegistry } from '../json-schema.js';
import type { Reporter } from '../report.js';
import type { SourceMap } from '../source-map.js';
import type { RawManifest } from '../types.js';

/** What every semantic check gets: the resolved manifest and a place to report. */
export interface CheckContext {
  /** The shape-valid manifest with file `$ref`s inlined. */
  readonly m: RawManifest;
  readonly r: Reporter;
  readonly map: SourceMap;
  /** Named schemas (resolved), by key. */
  readonly named: ReadonlyMap<string, unknown>;
  /** Null when a `$ref` could not be resolved: schema compilation would only repeat that error. */
  readonly registry: SchemaRegistry | null;
  /** Absolute folder of the manifest, for `source:` files. */
  readonly manifestDir: string;
  /** Reads a file (absolute path) as bytes and records it as an input; undefined when unreadable. */
  readonly readFile: (abs: string) => Uint8Array | undefined;
  /** Filled by the source check: resource name → its served file. */
  readonly sources: Map<string, IrResourceSource>;
}

/** `[name, value]` pairs of an optional record, in insertion order. */
export function each<T>(rec: Record<string, T> | undefined): [string, T][] {
  return rec ? Object.entries(rec) : [];
}

/** Follows a root `$ref: '#/schemas/X'` chain to the schema it names; undefined on a cycle or a missing name. */
export function followNamed(schema: unknown, named: ReadonlyMap<string, unknown>): unknown {
  const seen = new Set<string>();
  let cur = schema;
  while (cur !== null && typeof cur === 'object' && typeof (cur as { $ref?: unknown }).$ref === 'string') {
    const ref = (cur as { $ref: string }).$ref;
    if (!ref.startsWith('#/schemas/')) return cur;
    const name = ref.slice('#/schemas/'.length);
    if (seen.has(name) || !named.has(name)) return undefined;
    seen.add(name);
    cur = named.get(name);
  }
  return cur;
}
