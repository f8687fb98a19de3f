/**
 * The manifest's shape checked piece by piece, so that a run after a one-primitive change validates one
 * entry instead of the whole manifest (and loads only that entry's validator). In the manifest schema,
 * `tools`, `resources` and `prompts` are objects whose every value must match one definition (`tool`,
 * `resource`, `prompt`) and nothing else looks into them: a manifest is valid exactly when its skeleton
 * (those sections emptied) is valid and every entry matches its definition. Each verdict is kept in the
 * cache under the exact JSON of what it judged, or for an entry read from a piece of the manifest's text
 * (see yaml-chunks.ts) under that text, which determines it. Only a "valid" answer is taken from the pieces: any
 * invalid piece sends the caller to the whole validation, whose errors are the diagnostics.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { jsonExact, type GenerationCache } from '../cache.js';
import { isObject } from './pointer.js';

/** The sections checked entry by entry, with the definition each entry must match. */
const SECTIONS: Readonly<Record<string, string>> = { tools: 'tool', resources: 'resource', prompts: 'prompt' };

/** The cache, and the manifest piece each entry object was read from (see `parseManifest`). */
export interface ShapeMemo {
  readonly cache: GenerationCache;
  readonly pieces?: WeakMap<object, string>;
  /**
   * True for an entry whose results the cache kept (see entries.ts): it was found valid under its exact text,
   * so it is neither judged again nor read.
   */
  readonly known?: (section: string, name: string) => boolean;
}

/** Where the validators come from (see shape.ts). */
export interface ShapeValidators {
  whole(): ValidateFunction;
  definition(def: string): ValidateFunction;
}

/** True when every piece of `value` is known or found valid; false means "validate it whole". */
export function validInPieces(value: unknown, memo: ShapeMemo, validators: ShapeValidators): boolean {
  if (!isObject(value)) return false;
  const skeleton: Record<string, unknown> = { ...value };
  const entries: [string, unknown][] = [];
  for (const [section, def] of Object.entries(SECTIONS)) {
    const v = value[section];
    if (v === undefined) continue;
    if (!isObject(v) || Object.prototype.hasOwnProperty.call(v, '__proto__')) return false;
    skeleton[section] = {};
    for (const name of Object.keys(v)) if (memo.known?.(section, name) !== true) entries.push([def, v[name]]);
  }
  const judged = (what: string, v: unknown, validate: () => ValidateFunction): boolean => {
    const text = v !== null && typeof v === 'object' ? memo.pieces?.get(v) : undefined;
    const key = text !== undefined ? `yaml\0${text}` : jsonExact(v) ? `json\0${JSON.stringify(v)}` : undefined;
    return key !== undefined && memo.cache.verdict(`shape\0${what}\0${key}`, () => validate()(v) === true);
  };
  return judged('manifest', skeleton, validators.whole) && entries.every(([def, entry]) => judged(def, entry, () => validators.definition(def)));
}
