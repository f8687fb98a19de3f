/**
 * OpenAPI schema objects → the manifest's JSON Schema 2020-12, faithfully:
 * `integer` stays `integer`, formats, enums, defaults and `$defs` are kept;
 * 3.0 `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`Maximum`
 * the numeric form, `example` becomes `examples`; OpenAPI-only keywords
 * (`discriminator`, `xml`, `externalDocs`, `x-…`) are dropped; a binary string
 * becomes `contentEncoding: base64`. References to `#/components/schemas/X`
 * become `#/schemas/X` (named, so recursion survives); any other local
 * reference is inlined.
 */
import { resolvePointer } from './pointer.js';

type Obj = Record<string, unknown>;

const DROP = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const COMPONENT = '#/components/schemas/';

/** Converts schemas of one document; `names` maps component schema names to manifest schema names. */
export class SchemaConverter {
  constructor(
    private readonly doc: unknown,
    private readonly version: '3.0' | '3.1',
    private readonly names: ReadonlyMap<string, string>,
  ) {}

  /** The manifest form of `schema`. */
  convert(schema: unknown, depth = 0): unknown {
    if (typeof schema === 'boolean') return schema;
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return {};
    if (depth > 64) return {};
    const s = schema as Obj;
    if (typeof s['$ref'] === 'string') return this.ref(s, depth);
    const out: Obj = {};
    for (const [k, v] of Object.entries(s)) {
      if (DROP.has(k) || k.startsWith('x-')) continue;
      if (SCHEMA_MAPS.includes(k) && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v as Obj).map(([n, x]) => [n, this.convert(x, depth + 1)]));
      else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) out[k] = v.map((x) => this.convert(x, depth + 1));
      else if (k === 'items' && Array.isArray(v)) out['prefixItems'] = v.map((x) => this.convert(x, depth + 1));
      else if (SCHEMA_ONE.includes(k) && typeof v === 'object') out[k] = this.convert(v, depth + 1);
      else out[k] = v;
    }
    if (this.version === '3.0') this.fix30(s, out);
    if (s['example'] !== undefined && out['examples'] === undefined) out['examples'] = [s['example']];
    if (out['format'] === 'binary' || out['format'] === 'byte') {
      delete out['format'];
      out['contentEncoding'] = 'base64';
    }
    if (out['allOf'] !== undefined && out['type'] === undefined && (out['allOf'] as unknown[]).some((m) => this.objectLike(m))) out['type'] = 'object';
    return out;
  }

  /** True when a (converted) schema describes an object. */
  objectLike(schema: unknown, depth = 0): boolean {
    if (!schema || typeof schema !== 'object' || depth > 16) return false;
    const s = schema as Obj;
    if (typeof s['$ref'] === 'string' && s['$ref'].startsWith('#/schemas/')) {
      const component = [...this.names].find(([, m]) => `#/schemas/${pointerEscape(m)}` === s['$ref'])?.[0];
      return component !== undefined && this.objectLike(this.convert(resolvePointer(this.doc, `${COMPONENT}${pointerEscape(component)}`), 1), depth + 1);
    }
    const type = s['type'];
    return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && (s['properties'] !== undefined || s['allOf'] !== undefined));
  }

  private ref(s: Obj, depth: number): unknown {
    const ref = s['$ref'] as string;
    const siblings = Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref' && !DROP.has(k) && !k.startsWith('x-')));
    let out: Obj;
    if (ref.startsWith(COMPONENT) && !ref.slice(COMPONENT.length).includes('/')) {
      const name = this.names.get(unescape(ref.slice(COMPONENT.length)));
      out = name !== undefined ? { $ref: `#/schemas/${pointerEscape(name)}` } : {};
    } else {
      out = this.convert(resolvePointer(this.doc, ref), depth + 1) as Obj;
    }
    // 3.1 allows keywords beside `$ref`; a 3.0 `nullable` beside it still means "or null".
    const nullable = this.version === '3.0' && s['nullable'] === true;
    const merged = Object.keys(siblings).length ? { allOf: [out], ...(this.convert(siblings, depth + 1) as Obj) } : out;
    return nullable ? { anyOf: [merged, { type: 'null' }] } : merged;
  }

  private fix30(s: Obj, out: Obj): void {
    if (s['nullable'] === true) {
      if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
      else if (out['type'] === undefined && (out['allOf'] || out['oneOf'] || out['anyOf'])) {
        const inner = { ...out };
        for (const k of Object.keys(out)) delete out[k];
        Object.assign(out, { anyOf: [inner, { type: 'null' }] });
      }
      if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    }
    for (const [bool, num] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      if (out[bool] === true && typeof out[num] === 'number') {
        out[bool] = out[num];
        delete out[num];
      } else if (typeof out[bool] === 'boolean') delete out[bool];
    }
  }
}

/** Escapes one JSON pointer segment. */
export function pointerEscape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}
