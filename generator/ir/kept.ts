/**
 * An IR entry as the incremental cache keeps it (see manifest/entries.ts): plain JSON, without its
 * location (where the entry sits in the file, not a function of its text), and with the shared defaults
 * the builder puts in (the input of a tool that declares none, the schema of a template variable or
 * prompt argument that declares none) written as a marker, so that a restored entry holds those very
 * objects, as a built one does.
 */
import { jsonExact } from '../cache.js';
import { DEFAULT_ARGUMENT_SCHEMA, EMPTY_INPUT } from './defaults.js';
import type { IrLocation, IrPrimitive } from './types.js';

/** Stands for a shared default (a schema is never a string). */
const DEFAULT = '\u0000default';

type Loose = Record<string, unknown>;

/** The kept form of an entry, or undefined when it is not exact JSON. */
export function keptForm(p: IrPrimitive): unknown {
  // `location` keeps its place among the keys, so a restored entry lists its fields in the same order.
  const out: Loose = { ...p, location: 0 };
  if (p.kind === 'tool' && p.input === EMPTY_INPUT) out['input'] = DEFAULT;
  if (p.kind === 'resource') out['params'] = p.params.map((x) => (x.schema === DEFAULT_ARGUMENT_SCHEMA ? { ...x, schema: DEFAULT } : x));
  if (p.kind === 'prompt') out['arguments'] = p.arguments.map((a) => (a.schema === DEFAULT_ARGUMENT_SCHEMA ? { ...a, schema: DEFAULT } : a));
  return jsonExact(out) ? out : undefined;
}

/** The entry a kept form (a fresh copy, which this changes) stands for, declared at `location`. */
export function restoredEntry(kept: unknown, location: IrLocation): IrPrimitive {
  const p = kept as Loose;
  p['location'] = location;
  if (p['kind'] === 'tool' && p['input'] === DEFAULT) p['input'] = EMPTY_INPUT;
  const fix = (list: unknown): void => {
    for (const x of list as Loose[]) if (x['schema'] === DEFAULT) x['schema'] = DEFAULT_ARGUMENT_SCHEMA;
  };
  if (p['kind'] === 'resource') fix(p['params']);
  if (p['kind'] === 'prompt') fix(p['arguments']);
  return p as unknown as IrPrimitive;
}
