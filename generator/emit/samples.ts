/**
 * Synthesises small valid values for schemas at generation time, so contract
 * tests can make real calls without hand-written fixtures. A sample is only
 * used after it validates against the schema; when none can be made the
 * test that needs it is left out (and the contract card says so).
 */
import { createRequire } from 'node:module';
import type RandExpModule from 'randexp';
import { FastValidator } from '../schema/fastValidate.js';
import type { Samples } from '../cache.js';
import type { JsonSchema } from '../ir/types.js';

type RandExpClass = typeof RandExpModule.default;
let randExp: RandExpClass | undefined;

/**
 * randexp (CommonJS, whose module.exports is the class itself), loaded on the first pattern a sample is
 * made for: a run whose samples all come from the incremental cache never loads it (nor ret, nor drange).
 */
function RandExp(): RandExpClass {
  return (randExp ??= createRequire(import.meta.url)('randexp') as RandExpClass);
}

type Obj = Record<string, unknown>;

/** A deterministic pseudo-random generator (mulberry32), so samples never change between runs. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-02T03:04:05Z',
  date: '2026-01-02',
  time: '03:04:05Z',
  email: 'user@example.com',
  uri: 'https://example.com/a',
  'uri-reference': '/a',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

/** Makes samples for schemas that may reference a fixed set of published schemas. */
export class SampleMaker {
  private readonly fast = new FastValidator();

  /** A value valid against `schema`, or undefined when none could be made. */
  sample(schema: JsonSchema): unknown {
    let value: unknown;
    try {
      value = this.make(schema, schema, 0);
    } catch {
      return undefined;
    }
    if (value === undefined) return undefined;
    return this.valid(schema, value) ? value : undefined;
  }

  /** True when `value` satisfies `schema` (a self-contained, published schema). */
  valid(schema: JsonSchema, value: unknown): boolean {
    return this.fast.valid(schema, value);
  }

  private make(s: JsonSchema, root: JsonSchema, depth: number): unknown {
    if (depth > 8 || typeof s === 'boolean') return s === true ? 'sample' : undefined;
    const o = s as Obj;
    if ('const' in o) return o['const'];
    if (Array.isArray(o['enum'])) return o['enum'][0];
    if (Array.isArray(o['examples']) && o['examples'].length > 0) return o['examples'][0];
    if (typeof o['$ref'] === 'string') return this.make(this.deref(o['$ref'], root), root, depth + 1);
    for (const k of ['oneOf', 'anyOf'] as const) {
      const alts = o[k];
      if (Array.isArray(alts)) {
        for (const alt of alts) {
          const v = this.make(alt as JsonSchema, root, depth + 1);
          if (v !== undefined && this.valid({ ...(root as Obj), ...(alt as Obj) }, v)) return v;
        }
      }
    }
    if (Array.isArray(o['allOf']) && o['allOf'].length > 0) return this.make(o['allOf'][0] as JsonSchema, root, depth + 1);
    const type = Array.isArray(o['type']) ? o['type'][0] : o['type'];
    switch (type ?? (o['properties'] ? 'object' : undefined)) {
      case 'string':
        return this.string(o);
      case 'integer':
      case 'number':
        return this.number(o, type === 'integer');
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array': {
        const n = Math.max(0, Number(o['minItems'] ?? 0));
        const item = o['items'] === undefined ? 'sample' : this.make(o['items'] as JsonSchema, root, depth + 1);
        if (n > 0 && item === undefined) return undefined;
        return Array.from({ length: n }, () => item);
      }
      case 'object':
        return this.object(o, root, depth);
      default:
        return undefined;
    }
  }

  private object(o: Obj, root: JsonSchema, depth: number): unknown {
    const props = (o['properties'] ?? {}) as Record<string, JsonSchema>;
    const out: Obj = {};
    for (const name of (o['required'] ?? []) as string[]) {
      const v = props[name] === undefined ? 'sample' : this.make(props[name]!, root, depth + 1);
      if (v === undefined) return undefined;
      out[name] = v;
    }
    return out;
  }

  private string(o: Obj): string | undefined {
    if (typeof o['format'] === 'string' && FORMATS[o['format']]) return FORMATS[o['format']];
    const min = Number(o['minLength'] ?? 0);
    const max = Number(o['maxLength'] ?? Math.max(min, 16));
    if (typeof o['pattern'] === 'string') {
      const re = new (RandExp())(o['pattern']);
      re.max = 4;
      const rnd = seeded(7);
      re.randInt = (a: number, b: number) => a + Math.floor(rnd() * (1 + b - a));
      for (let i = 0; i < 20; i++) {
        const v = re.gen();
        if (v.length >= min && v.length <= max) return v;
      }
      return undefined;
    }
    const base = 'sample';
    if (base.length >= min && base.length <= max) return base;
    return 'x'.repeat(Math.max(min, 1)).slice(0, Math.max(max, 1));
  }

  private number(o: Obj, integer: boolean): number {
    const min = typeof o['minimum'] === 'number' ? o['minimum'] : typeof o['exclusiveMinimum'] === 'number' ? o['exclusiveMinimum'] + (integer ? 1 : 0.5) : undefined;
    const max = typeof o['maximum'] === 'number' ? o['maximum'] : typeof o['exclusiveMaximum'] === 'number' ? o['exclusiveMaximum'] - (integer ? 1 : 0.5) : undefined;
    let v = min ?? (max !== undefined ? Math.min(1, max) : 1);
    if (integer) v = Math.ceil(v);
    const step = typeof o['multipleOf'] === 'number' ? o['multipleOf'] : undefined;
    if (step) v = Math.ceil(v / step) * step;
    return v;
  }

  private deref(ref: string, root: JsonSchema): JsonSchema {
    if (!ref.startsWith('#/')) return true;
    let cur: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      cur = (cur as Obj)?.[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))];
    }
    return (cur ?? true) as JsonSchema;
  }
}

/**
 * Another value valid against an object `schema` that differs from `value`: the first of `examples`
 * that differs, else `value` with one property changed (another enum member, a number one off, a
 * boolean flipped, a string one character longer or changed, a sample for an absent optional one).
 * Undefined when none validates. Idempotency conflict checks send it with a key already used.
 */
export function variantOf(samples: Samples, schema: JsonSchema, value: Obj, examples: readonly unknown[] = []): Obj | undefined {
  const same = JSON.stringify(value);
  for (const ex of examples) if (typeof ex === 'object' && ex !== null && JSON.stringify(ex) !== same) return ex as Obj;
  const props = (typeof schema === 'object' ? (schema['properties'] ?? {}) : {}) as Record<string, JsonSchema>;
  for (const [name, prop] of Object.entries(props)) {
    for (const candidate of othersThan(samples, prop, value[name])) {
      const variant = { ...value, [name]: candidate };
      if (samples.valid(schema, variant)) return variant;
    }
  }
  return undefined;
}

/** Values to try in place of `current` for a property of schema `prop`. */
function othersThan(samples: Samples, prop: JsonSchema, current: unknown): unknown[] {
  const p = typeof prop === 'object' ? (prop as Obj) : {};
  const out: unknown[] = [];
  if (Array.isArray(p['enum'])) out.push(...p['enum'].filter((v) => v !== current));
  if (typeof current === 'number') out.push(current + 1, current - 1);
  if (typeof current === 'boolean') out.push(!current);
  if (typeof current === 'string') out.push(`${current}0`, current.slice(0, -1) + (current.endsWith('1') ? '2' : '1'));
  if (current === undefined) {
    const sample = samples.sample(prop);
    if (sample !== undefined) out.push(sample);
  }
  return out;
}
