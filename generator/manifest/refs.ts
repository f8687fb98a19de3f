import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { ParsedFile } from './load.js';
import { DIALECT_HINT, dialectOf } from './dialect.js';
import { DEFINITIONS_REF, isObject, LOCAL_REF, pointerToPath } from './pointer.js';
import { Reporter } from './report.js';
import type { ManifestPath } from './source-map.js';
import { didYouMean } from './suggest.js';

/** What ref resolution needs from the outside world. */
export interface RefEnv {
  /** Absolute path of the manifest. */
  readonly manifestFile: string;
  /** The manifest's reporter; findings in `$ref`'d files get their own. */
  readonly reporter: Reporter;
  readonly namedSchemas: ReadonlySet<string>;
  /** Parses a file (absolute path); undefined when it cannot be read. */
  readonly parse: (abs: string) => ParsedFile | undefined;
  /** Display form of an absolute path (relative to the working directory). */
  readonly display: (abs: string) => string;
  /** Whether a path exists (the project's root is the nearest folder with `package.json` or `.git`). */
  readonly exists: (abs: string) => boolean;
}

interface Frame {
  readonly file: string;
  readonly reporter: Reporter;
  readonly root: unknown;
  /** Ref targets being inlined, `file#pointer`: a repeat is a cycle. */
  readonly stack: readonly string[];
  /**
   * The schema that local references (`#/$defs/X`, `#`) resolve against when they are kept as written:
   * the site's own schema in the manifest, or a file inlined at a site's root (its root is then the
   * published schema's root). Undefined inside a file inlined deeper, whose local references are inlined.
   */
  readonly localRoot: unknown;
  /**
   * `localRoot` is the published schema's root itself (the site, or a whole file at a root), so any
   * pointer into it stays valid when kept. A fragment at a root carries only its file's `$defs`, so
   * there only references into those definitions are kept.
   */
  readonly anyPointer: boolean;
}

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'examples', 'default']);
/** Keywords that only annotate, so a `$ref` sibling may override the target's. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

const CYCLE_HINT = 'refer to the recursive file from a schema\'s root (`input: { $ref: ./tree.json }` or a named schema), where its own `$defs` and local references are kept, or put it under `schemas:` and refer to it as `#/schemas/Name`';

/**
 * Resolves `$ref`s in manifest schemas. `#/schemas/Name` refs are checked and
 * kept; relative file refs (with optional JSON pointer) are inlined as deep
 * copies, recursively and relative to the file that holds them. Network and
 * absolute refs are errors, never fetched. Returns the resolved copy and the
 * diagnostics found in `$ref`'d files.
 */
export class RefResolver {
  private readonly reporters = new Map<string, Reporter>();
  /** The project folder files may be inlined from, found on the first file reference. */
  private root: string | undefined;

  constructor(private readonly env: RefEnv) {}

  /** Diagnostics located in `$ref`'d files (the manifest's go to its own reporter). */
  get externalDiagnostics(): Diagnostic[] {
    return [...this.reporters.values()].flatMap((r) => r.diagnostics);
  }

  /** A resolved deep copy of the schema at `path` in the manifest. */
  resolveSite(schema: unknown, path: ManifestPath): unknown {
    const frame: Frame = { file: this.env.manifestFile, reporter: this.env.reporter, root: undefined, stack: [], localRoot: schema, anyPointer: true };
    return this.walk(schema, path, frame, true);
  }

  private walk(node: unknown, path: ManifestPath, frame: Frame, atRoot: boolean): unknown {
    if (Array.isArray(node)) return node.map((v, i) => this.walk(v, [...path, i], frame, false));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    const external = frame.file !== this.env.manifestFile;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') continue;
      // Inside a file inlined below a root every pointer into its `$defs` has been inlined too, so they would only be dead weight.
      if (external && frame.localRoot === undefined && (k === '$defs' || k === 'definitions')) continue;
      out[k] = DATA_KEYWORDS.has(k) ? structuredClone(v) : this.walk(v, [...path, k], frame, false);
    }
    const ref = node.$ref;
    if (typeof ref !== 'string') return out;
    const target = this.follow(ref, [...path, '$ref'], frame, atRoot);
    if (target === KEEP || target === FAILED) return { $ref: ref, ...out };
    // A `$schema` is only meaningful at a schema's root; an inlined file's one would be misplaced deeper.
    const placed = !atRoot && isObject(target) && '$schema' in target ? withoutSchema(target) : target;
    return merge(placed, out);
  }

  private follow(ref: string, at: ManifestPath, frame: Frame, atRoot: boolean): unknown {
    const inManifest = frame.file === this.env.manifestFile;
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref) || ref.startsWith('/') || ref.startsWith('\\')) {
      frame.reporter.error('MG606', at, `\`${ref}\`: network/absolute refs are never fetched`,
        'copy the schema into a file next to the manifest and refer to it by a relative path, or put it under `schemas:`');
      return FAILED;
    }
    if (ref.startsWith('#') && frame.localRoot !== undefined && (frame.anyPointer ? LOCAL_REF : DEFINITIONS_REF).test(ref)) return this.checkLocal(ref, at, frame);
    if (ref.startsWith('#')) return inManifest ? this.checkNamed(ref, at, frame) : this.inline(frame.file, ref.slice(1), at, frame, atRoot);
    const hash = ref.indexOf('#');
    const rel = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    const abs = resolve(dirname(frame.file), decodeURI(rel));
    const root = (this.root ??= projectRoot(dirname(this.env.manifestFile), this.env.exists));
    const inside = relative(root, abs);
    if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
      // Inlined schemas are published to every client: a manifest must not pull in files from elsewhere on the machine.
      frame.reporter.error('MG606', at, `\`${ref}\` leaves the project (${this.env.display(root) || '.'}); schema files must live inside it`,
        'copy the schema into the project, next to the manifest, and refer to it by a relative path');
      return FAILED;
    }
    return this.inline(abs, pointer, at, frame, atRoot);
  }

  /** A local reference is published as written; it must point at something in its schema. */
  private checkLocal(ref: string, at: ManifestPath, frame: Frame): unknown {
    const pointer = ref.slice(1);
    if (pointer === '' || lookup(frame.localRoot, pointerToPath(pointer, frame.localRoot)) !== undefined) return KEEP;
    frame.reporter.error('MG608', at, `\`${ref}\`: nothing at this pointer in the schema that holds it`,
      'a local `#/$defs/Name` reference resolves against the root of its own schema (the tool input, output, argument or named schema, or the file it was read from); declare the definition there');
    return FAILED;
  }

  private checkNamed(ref: string, at: ManifestPath, frame: Frame): unknown {
    const m = /^#\/schemas\/([^/]+)(\/.*)?$/.exec(ref);
    if (!m || m[2]) {
      frame.reporter.error('MG605', at, `\`${ref}\`: only whole named schemas (\`#/schemas/<Name>\`) can be referenced inside the manifest`,
        'move the part you need under `schemas:` as its own named schema and refer to it as `#/schemas/Name`');
      return FAILED;
    }
    const name = m[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!this.env.namedSchemas.has(name)) {
      frame.reporter.error('MG604', at, `\`${ref}\`: there is no schema \`${name}\` under schemas:${didYouMean(name, this.env.namedSchemas)}`,
        this.env.namedSchemas.size ? `declared schemas: ${[...this.env.namedSchemas].join(', ')}` : 'declare it under `schemas:`');
      return FAILED;
    }
    return KEEP;
  }

  private inline(abs: string, pointer: string, at: ManifestPath, frame: Frame, atRoot: boolean): unknown {
    const key = `${abs}#${pointer}`;
    if (frame.stack.includes(key)) {
      frame.reporter.error('MG609', at, `\`$ref\` cycle: ${[...frame.stack, key].map((k) => this.show(k)).join(' → ')}`, CYCLE_HINT);
      return FAILED;
    }
    const parsed = abs === frame.file && frame.root !== undefined ? { value: frame.root } : this.env.parse(abs);
    if (!parsed || parsed.value === undefined) {
      const why = parsed ? `cannot be parsed (${(parsed as ParsedFile).diagnostics[0]?.message ?? 'syntax error'})` : 'cannot be read';
      frame.reporter.error('MG607', at, `\`$ref\` file ${this.env.display(abs)} ${why}`, 'check the path; it is resolved against the folder of the file that contains the `$ref`');
      return FAILED;
    }
    const path = pointerToPath(pointer, parsed.value);
    const target = lookup(parsed.value, path);
    if (target === undefined) {
      frame.reporter.error('MG608', at, `JSON pointer \`#${pointer}\` not found in ${this.env.display(abs)}`,
        'check the pointer; inside a `$ref`\'d file, `#/...` points into that same file');
      return FAILED;
    }
    if (isObject(target) && dialectOf(target.$schema) === undefined) {
      frame.reporter.error('MG601', at, `${this.show(key)} declares an unsupported JSON Schema dialect \`${String(target.$schema)}\``, DIALECT_HINT);
      return FAILED;
    }
    // A file inlined at a schema's root becomes that schema: its local references and `$defs` are kept as written.
    const next: Frame = { file: abs, reporter: this.reporterFor(abs, parsed as ParsedFile), root: parsed.value, stack: [...frame.stack, key], localRoot: atRoot ? parsed.value : undefined, anyPointer: atRoot && path.length === 0 };
    const walked = this.walk(target, path, next, atRoot);
    return atRoot && path.length > 0 ? this.withFileDefinitions(walked, parsed.value, next) : walked;
  }

  /**
   * A fragment of a file (`./tree.json#/$defs/Node`) placed at a schema's root carries the file's
   * `$defs` / `definitions` along, so the local references it keeps (recursion included) still resolve.
   */
  private withFileDefinitions(walked: unknown, fileRoot: unknown, frame: Frame): unknown {
    if (!isObject(walked) || !isObject(fileRoot)) return walked;
    const out: Record<string, unknown> = { ...walked };
    for (const k of ['$defs', 'definitions']) {
      if (k in fileRoot && !(k in out)) out[k] = this.walk(fileRoot[k], [k], frame, false);
    }
    return out;
  }

  private reporterFor(abs: string, parsed: ParsedFile): Reporter {
    if (abs === this.env.manifestFile) return this.env.reporter;
    let r = this.reporters.get(abs);
    if (!r) {
      r = new Reporter(this.env.display(abs), parsed.map);
      this.reporters.set(abs, r);
    }
    return r;
  }

  private show(key: string): string {
    const [file, pointer] = [key.slice(0, key.lastIndexOf('#')), key.slice(key.lastIndexOf('#') + 1)];
    return `${this.env.display(file)}${pointer ? `#${pointer}` : ''}`;
  }
}

const KEEP = Symbol('keep');
const FAILED = Symbol('failed');

function withoutSchema(o: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = o;
  return rest;
}

function lookup(root: unknown, path: ManifestPath): unknown {
  let cur = root;
  for (const seg of path) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObject(cur) && Object.hasOwn(cur, String(seg))) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

/**
 * Inlines a ref target next to its sibling keywords: plain replacement when
 * there are none, a merge when siblings only annotate or do not overlap,
 * otherwise `allOf` so no constraint from either side is lost.
 */
function merge(target: unknown, siblings: Record<string, unknown>): unknown {
  const keys = Object.keys(siblings);
  if (keys.length === 0) return target;
  if (isObject(target) && keys.every((k) => ANNOTATIONS.has(k) || !(k in target))) return { ...target, ...siblings };
  const allOf = Array.isArray(siblings.allOf) ? siblings.allOf : [];
  return { ...siblings, allOf: [...allOf, target] };
}

/** The nearest folder at or above `dir` holding `package.json` or `.git` (the project), else `dir` itself. */
export function projectRoot(dir: string, exists: (abs: string) => boolean): string {
  for (let d = dir; ; d = dirname(d)) {
    if (exists(join(d, 'package.json')) || exists(join(d, '.git'))) return d;
    if (dirname(d) === d) return dir;
  }
}
