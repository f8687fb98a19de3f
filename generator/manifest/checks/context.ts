import type { IrResourceSource } from '../../ir/types.js';
import type { SchemaRegistry } from '../json-schema.js';
import type { Reporter } from '../report.js';
import type { SourceMap } from '../source-map.js';
import type { ResourceMatch } from './scenarios.js';
import type { RawManifest, RawPrompt, RawResource, RawTool } from '../types.js';

/** What every semantic check gets: the resolved manifest and a place to report. */
export interface CheckContext {
  /**
   * The shape-valid manifest with file `$ref`s inlined. A check's `whole` part reads the sections other than
   * `tools:`, `resources:` and `prompts:` here, and their entries through `EntrySummary`s only.
   */
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
  /** The resource serving a URI (`matchResource`), remembered across runs when there is a cache. */
  readonly resourceOf?: (uri: string) => ResourceMatch | undefined;
}

/** A section of primitives, each entry checked on its own. */
export type Section = 'tools' | 'resources' | 'prompts';

/** The sections of primitives, in the order checks visit them. */
export const SECTIONS: readonly Section[] = ['tools', 'resources', 'prompts'];

/** One entry of a primitive section, as a check's `entry` part reads it. */
export type Entry =
  | { readonly section: 'tools'; readonly name: string; readonly value: RawTool }
  | { readonly section: 'resources'; readonly name: string; readonly value: RawResource }
  | { readonly section: 'prompts'; readonly name: string; readonly value: RawPrompt };

/**
 * What the checks that compare entries read of one entry (plain JSON, so it can be kept with the entry in
 * the incremental cache): a function of the entry alone.
 */
export interface EntrySummary {
  readonly section: Section;
  readonly name: string;
  /** `deriveNames(name)`: the identifier and the base of its type names. */
  readonly id: string;
  readonly typeBase: string;
  readonly renamedFrom?: string;
  /** The scopes it names. */
  readonly scopes: readonly string[];
  /** A resource: its fixed URI or its template (what a scenario's read step is matched against). */
  readonly uri?: string;
  readonly uriTemplate?: string;
  /** A resource declaring `subscribe: true`. */
  readonly subscribe?: true;
  /** A templated resource: its template's variables. */
  readonly variables?: readonly string[];
  /** A prompt: its argument names, and each message that embeds a resource (index, resource name). */
  readonly args?: readonly string[];
  readonly embeds?: readonly (readonly [number, string])[];
}

/**
 * One semantic check (one file of checks/): its findings on one entry at a time (`entry`, reading the entry
 * and the other sections of the manifest), and those on the other sections and across entries (`whole`,
 * reading entries only through their summaries). So an entry's own findings are a function of its text and
 * the server-wide sections, which lets the incremental cache keep "no findings" per entry.
 */
export interface Check {
  readonly entry?: (ctx: CheckContext, e: Entry) => void;
  readonly whole?: (ctx: CheckContext, entries: readonly EntrySummary[]) => void;
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
