/**
 * Turning the manifest's schemas (with `#/schemas/Name` references) into
 * self-contained published schemas and into input for type generation.
 */
import { recursionSlotName } from '../ir/names.js';
import type { Ir, JsonSchema } from '../ir/types.js';
import { LOCAL_REF } from '../manifest/pointer.js';

const NAMED_REF = /^#\/schemas\/(.+)$/;

type Json = unknown;

/** The named schema a `$ref` value points at, or undefined. */
export function namedRef(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = NAMED_REF.exec(ref);
  return m ? decodeURIComponent(m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
}

/** Applies `fn` to every subschema-like object bottom-up, returning a new value. */
function mapObjects(value: Json, fn: (obj: Record<string, Json>) => Json): Json {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapObjects(v, fn);
    return fn(out);
  }
  return value;
}

/**
 * `$schema` is meaningful only at the root of a published schema; a named schema from its own file
 * keeps one, which must not survive inside the schemas it is inlined into.
 */
function stripNestedDialects(value: Json, root: boolean, keep?: WeakSet<object>): Json {
  if (Array.isArray(value)) return value.map((v) => stripNestedDialects(v, false, keep));
  if (value === null || typeof value !== 'object') return value;
  if (keep?.has(value)) return value; // a shared named body: already stripped
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$schema' && !root) continue;
    out[k] = k === 'enum' || k === 'const' || k === 'examples' || k === 'default' ? v : stripNestedDialects(v, false, keep);
  }
  return out;
}

/** Named schemas referenced (directly) from a value. */
function directRefs(value: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) directRefs(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref') {
        const n = namedRef(v);
        if (n !== undefined) into.add(n);
      } else directRefs(v, into);
    }
  }
  return into;
}


/** True when a schema holds a local reference (one that resolves against its own root). */
function hasLocalRefs(value: Json): boolean {
  if (Array.isArray(value)) return value.some(hasLocalRefs);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => (k === '$ref' ? typeof v === 'string' && LOCAL_REF.test(v) : hasLocalRefs(v)));
}

/**
 * A named schema with local references, moved under `$defs/<name>` of the schema that uses it:
 * its references now go through that entry (`#/$defs/X` → `#/$defs/<name>/$defs/X`), so they still
 * resolve against the named schema's own definitions.
 */
function rebaseLocalRefs(value: Json, name: string): Json {
  const base = `#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return mapObjects(value, (obj) => {
    const ref = obj['$ref'];
    return typeof ref === 'string' && LOCAL_REF.test(ref) ? { ...obj, $ref: base + ref.slice(1) } : obj;
  });
}

/** What {@link plainRefs} reports for a named reference with sibling keywords (it moves under `$defs`). */
const WITH_SIBLINGS = '\0with siblings';

/** The named schemas a value references (`WITH_SIBLINGS` for a named reference that has sibling keywords). */
function plainRefs(value: Json, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) plainRefs(v, into);
  else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, Json>;
    const n = namedRef(obj['$ref']);
    if (n !== undefined) into.push(Object.keys(obj).length === 1 ? n : WITH_SIBLINGS);
    for (const [k, v] of Object.entries(obj)) if (k !== '$ref') plainRefs(v, into);
  }
  return into;
}

/** The named schema an object that holds only `$ref` refers to, or undefined. */
function plainRefName(obj: Record<string, Json>): string | undefined {
  let keys = 0;
  for (const _ in obj) if (++keys > 1) return undefined;
  return keys === 1 && Object.hasOwn(obj, '$ref') ? namedRef(obj['$ref']) : undefined;
}

/** Precomputed reference graph of a server's named schemas. */
export class SchemaGraph {
  private readonly named = new Map<string, JsonSchema>();
  private readonly typeNames = new Map<string, string>();
  private readonly recursive = new Set<string>();
  /** Named schemas with local references: never inlined (their references would point elsewhere). */
  private readonly local = new Set<string>();
  private readonly bundled = new Map<string, JsonSchema>();

  constructor(ir: Pick<Ir, 'schemas'>) {
    for (const s of ir.schemas) {
      this.named.set(s.name, s.schema);
      this.typeNames.set(s.name, s.typeName);
      if (hasLocalRefs(s.schema)) this.local.add(s.name);
    }
    const edges = new Map<string, Set<string>>();
    for (const [n, s] of this.named) edges.set(n, directRefs(s));
    for (const n of this.named.keys()) {
      const seen = new Set<string>();
      const stack = [...(edges.get(n) ?? [])];
      while (stack.length > 0) {
        const m = stack.pop()!;
        if (m === n) {
          this.recursive.add(n);
          break;
        }
        if (seen.has(m)) continue;
        seen.add(m);
        stack.push(...(edges.get(m) ?? []));
      }
    }
  }

  /** The TypeScript type name of a named schema. */
  typeName(name: string): string {
    return this.typeNames.get(name) ?? name;
  }

  /**
   * A self-contained schema for publishing and validation: references to
   * non-recursive named schemas are inlined (when they have no sibling
   * keywords); recursive ones, and references with siblings, move under
   * `$defs` as `#/$defs/Name`. The same source schema always gives the same
   * (shared, not to be modified) object.
   */
  publish(schema: JsonSchema): JsonSchema {
    if (typeof schema !== 'object' || schema === null) return this.publishNew(schema);
    let published = this.publishedCache.get(schema);
    if (published === undefined) {
      published = this.publishNew(schema);
      this.publishedCache.set(schema, published);
    }
    return published;
  }

  /** Published forms by source schema: every emitter asks for the same ones, and shares the result (read only). */
  private readonly publishedCache = new WeakMap<object, JsonSchema>();

  private publishNew(schema: JsonSchema): JsonSchema {
    // A plain reference to a self-contained named schema publishes as that schema's shared body: what the
    // inliner below returns for it, without copying the reference and the body to get there.
    const plain = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? plainRefName(schema) : undefined;
    if (plain !== undefined && this.named.has(plain) && this.selfContained(plain)) return this.sharedBody(plain);
    const defs = new Map<string, JsonSchema>();
    const inline = this.inliner(defs);
    const body = stripNestedDialects(inline(schema, []), true, this.sharedSet) as JsonSchema;
    for (const [n, d] of defs) defs.set(n, stripNestedDialects(d, false, this.sharedSet) as JsonSchema);
    if (defs.size === 0 || typeof body === 'boolean') return body;
    const sorted = Object.fromEntries([...defs.entries()].sort(([a], [b]) => a.localeCompare(b)));
    const own = (body as Record<string, Json>)['$defs'];
    const merged = own && typeof own === 'object' ? { ...(own as object), ...sorted } : sorted;
    return { ...body, $defs: merged };
  }

  /** Inlines references to named schemas; those that cannot be inlined are collected into `defs`. */
  private inliner(defs: Map<string, JsonSchema>): (value: Json, stack: readonly string[]) => Json {
    const inline = (value: Json, stack: readonly string[]): Json =>
      mapObjects(value, (obj) => {
        const n = namedRef(obj['$ref']);
        if (n === undefined || !this.named.has(n)) return obj;
        const siblings = Object.keys(obj).length > 1;
        if (!siblings && !this.recursive.has(n) && !this.local.has(n) && !stack.includes(n)) {
          return this.selfContained(n) ? this.sharedBody(n) : inline(this.named.get(n), [...stack, n]);
        }
        this.addDef(n, defs, inline);
        return { ...obj, $ref: `#/$defs/${n}` };
      });
    return inline;
  }

  /** Inlined bodies of self-contained named schemas, one object each, shared by every schema that inlines it. */
  private readonly shared = new Map<string, JsonSchema>();
  private readonly sharedSet = new WeakSet<object>();
  private readonly containment = new Map<string, boolean>();

  /**
   * True when a named schema inlines completely, the same way wherever it is referenced: it is not
   * recursive, declares no dialect of its own (`$schema` survives at the root of a published schema), and
   * every named reference in it (transitively) is a plain `$ref` to such a schema.
   */
  private selfContained(name: string): boolean {
    let known = this.containment.get(name);
    if (known !== undefined) return known;
    this.containment.set(name, false); // a cycle (only possible through recursive schemas) is not self-contained
    const schema = this.named.get(name);
    const ownDialect = typeof schema === 'object' && schema !== null && '$schema' in schema;
    known = !this.recursive.has(name) && !this.local.has(name) && !ownDialect && plainRefs(schema).every((n) => n !== WITH_SIBLINGS && (!this.named.has(n) || this.selfContained(n)));
    this.containment.set(name, known);
    return known;
  }

  private sharedBody(name: string): JsonSchema {
    let body = this.shared.get(name);
    if (body === undefined) {
      const defs = new Map<string, JsonSchema>();
      body = stripNestedDialects(this.inliner(defs)(this.named.get(name), [name]), false, this.sharedSet) as JsonSchema;
      if (body !== null && typeof body === 'object') this.sharedSet.add(body);
      this.shared.set(name, body);
    }
    return body;
  }

  /**
   * The shared bodies of named schemas by object, with the manifest name of each: an emitter may declare
   * each once and refer to it wherever it appears in a published schema. Every self-contained named
   * schema's body is there, whether or not a schema published so far inlines it: the contract publishes
   * its schemas when they are first read (contract/lazy.ts), and a body no published schema reaches is
   * an object nothing else holds, so the map answers the same for every object a published schema holds.
   */
  sharedSchemas(): ReadonlyMap<object, string> {
    for (const name of this.named.keys()) if (this.selfContained(name)) this.sharedBody(name);
    const out = new Map<object, string>();
    for (const [name, body] of this.shared) if (body !== null && typeof body === 'object') out.set(body, name);
    return out;
  }

  private addDef(
    n: string,
    defs: Map<string, JsonSchema>,
    inline: (value: Json, stack: readonly string[]) => Json,
  ): void {
    if (defs.has(n)) return;
    defs.set(n, true);
    const body = this.local.has(n) ? rebaseLocalRefs(this.named.get(n), n) : this.named.get(n);
    defs.set(n, inline(body, [n]) as JsonSchema);
  }

  /** The published form of a named schema, memoised. */
  publishNamed(name: string): JsonSchema {
    let b = this.bundled.get(name);
    if (b === undefined) {
      b = this.publish({ $ref: `#/schemas/${name}` });
      this.bundled.set(name, b);
    }
    return b;
  }

  /**
   * The schema prepared for json-schema-to-typescript: named references
   * become `tsType` (so every named schema is one exported type), nested
   * `title`/`$id` are dropped (they would spawn extra declarations), and any
   * `tsType`/`tsEnumNames` the author wrote is removed (they would inject
   * code).
   */
  forTypes(schema: JsonSchema, declarationPrefix: string): TypeSchemas {
    // Local references (`#/$defs/X`) are expanded in place, since the type is built without the author's
    // `$defs`. A reference back into a definition being expanded (recursion) becomes a reference to a
    // declaration of its own, `<prefix><Def>` (returned in `declarations`), so the type recurses instead
    // of degrading to `unknown`.
    const recursive = new Map<string, string>();
    const strip = (value: Json, depth: number, expanding: string[]): Json => {
      if (Array.isArray(value)) return value.map((v) => strip(v, depth + 1, expanding));
      if (value === null || typeof value !== 'object') return value;
      const obj = value as Record<string, Json>;
      const local = typeof obj['$ref'] === 'string' && LOCAL_REF.test(obj['$ref']) ? obj['$ref'] : undefined;
      if (local !== undefined) return this.expandLocal(schema, local, obj, expanding, recursive, declarationPrefix, (v) => strip(v, depth, expanding));
      const n = namedRef(obj['$ref']);
      if (n !== undefined && this.named.has(n)) {
        const rest = { ...obj };
        delete rest['$ref'];
        return { tsType: this.typeName(n), ...(typeof rest['description'] === 'string' ? { description: rest['description'] } : {}) };
      }
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'tsType' || k === 'tsEnumNames' || k === '$id' || k === '$schema' || k === '$defs' || k === 'definitions') continue;
        if (k === 'title' && depth > 0) continue;
        if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
          out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, strip(pv, depth + 2, expanding)]));
        } else out[k] = strip(v, depth + 1, expanding);
      }
      return out;
    };
    const root = strip(schema, 0, []) as JsonSchema;
    // Each recursive definition is declared once; its body may reach further recursive definitions.
    const declarations = new Map<string, JsonSchema>();
    for (let done = 0; done < recursive.size; done++) {
      const [ref, slot] = [...recursive][done]!;
      declarations.set(slot, strip(ref === '#' ? schema : (resolvePointer(schema, ref.slice(1)) ?? {}), 1, [ref]) as JsonSchema);
    }
    return { schema: root, declarations };
  }

  private expandLocal(root: JsonSchema, ref: string, obj: Record<string, Json>, expanding: string[], recursive: Map<string, string>, prefix: string, strip: (v: Json) => Json): Json {
    const description = typeof obj['description'] === 'string' ? { description: obj['description'] } : {};
    if (expanding.includes(ref)) return { tsType: `${prefix}${recursionSlot(ref, recursive)}`, ...description };
    const target = ref === '#' ? root : resolvePointer(root, ref.slice(1));
    if (target === undefined) return { tsType: 'unknown', ...description };
    expanding.push(ref);
    const { $ref: _ref, ...siblings } = obj;
    // Annotations beside a `$ref` (a description, as converters write) only document it: wrapping them in
    // `allOf` would intersect the type with an object type (`boolean & { [k: string]: unknown }`).
    const onlyAnnotations = Object.keys(siblings).every((k) => ANNOTATION_KEYWORDS.has(k));
    const merged = onlyAnnotations && target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, Json>), ...siblings } : { allOf: [target, siblings] };
    const expanded = strip(Object.keys(siblings).length > 0 ? merged : target);
    expanding.pop();
    return expanded;
  }
}

/** A schema prepared for the type compiler, and the recursive local definitions it refers to by name (`<prefix><slot>`). */
export interface TypeSchemas {
  readonly schema: JsonSchema;
  /** Slot → body of each recursive definition, to be declared as `<Type><slot>`. */
  readonly declarations: ReadonlyMap<string, JsonSchema>;
}

/** The declaration slot of a recursive local reference, the same for every use of it in one schema. */
function recursionSlot(ref: string, recursive: Map<string, string>): string {
  const known = recursive.get(ref);
  if (known !== undefined) return known;
  const slot = recursionSlotName(ref, new Set(recursive.values()));
  recursive.set(ref, slot);
  return slot;
}

/** Keywords that only annotate a schema: beside a `$ref` they never change the type. */
const ANNOTATION_KEYWORDS = new Set(['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** The value at a JSON pointer (`/$defs/Node`) inside `root`, or undefined. */
function resolvePointer(root: Json, pointer: string): Json {
  let cur: Json = root;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<string, Json>)[seg];
  }
  return cur;
}
