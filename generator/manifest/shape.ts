import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { getAt, pointerToPath } from './pointer.js';
import type { Reporter } from './report.js';
import { dotted, type ManifestPath } from './source-map.js';
import { closest, didYouMean } from './suggest.js';
import { validInPieces, type ShapeMemo } from './shape-pieces.js';

let validator: ValidateFunction | undefined;
let sourceAjv: import('ajv/dist/2020.js').Ajv2020 | undefined;
const pieceValidators = new Map<string, ValidateFunction>();

/** The shipped manifest schema; `schema/` sits two folders up from both the source and the built module. */
export function manifestSchema(): Record<string, unknown> {
  const url = new URL('../../schema/manifest.schema.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

/**
 * The validators precompiled by scripts/build-shape-validator.mjs next to the built module. Each entry's
 * is required by a literal path, so the bundle (scripts/build-bundle.mjs) holds it and V8's code cache
 * its compiled code: a run after a one-entry change validates that entry with one of them. The whole
 * manifest's (300 kB, for a manifest read without the cache or with an invalid entry) stays a file of
 * its own, loaded when needed.
 */
const PIECES: Readonly<Record<string, () => unknown>> = {
  tool: () => createRequire(import.meta.url)('./shape-validator/tool.js'),
  resource: () => createRequire(import.meta.url)('./shape-validator/resource.js'),
  prompt: () => createRequire(import.meta.url)('./shape-validator/prompt.js'),
};

/** A validator precompiled by scripts/build-shape-validator.mjs next to the built module, if any (none when running from source). */
function precompiled(name: string): ValidateFunction | undefined {
  const url = new URL(`./shape-validator/${name}.js`, import.meta.url);
  if (!existsSync(url)) return undefined;
  const piece = Object.hasOwn(PIECES, name) ? PIECES[name] : undefined;
  return (piece !== undefined ? piece() : createRequire(import.meta.url)(fileURLToPath(url))) as ValidateFunction;
}

/** Running from source: the schema compiled now, with the options scripts/build-shape-validator.mjs uses. */
function fromSource(): import('ajv/dist/2020.js').Ajv2020 {
  if (sourceAjv === undefined) {
    const require = createRequire(import.meta.url);
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = require('ajv-formats') as typeof import('ajv-formats');
    sourceAjv = new Ajv2020({ allErrors: true, verbose: true, strict: false, logger: false });
    addFormats.default(sourceAjv);
    sourceAjv.addSchema(manifestSchema());
  }
  return sourceAjv;
}

const MANIFEST_ID = 'https://mcp-gen.dev/schema/manifest.schema.json';

/** The validator of the whole manifest. */
export function manifestValidator(): ValidateFunction {
  validator ??= precompiled('index') ?? fromSource().getSchema(MANIFEST_ID)!;
  return validator;
}

/** The validator of one definition of the manifest schema (`tool`, `resource`, `prompt`). */
export function definitionValidator(def: string): ValidateFunction {
  let v = pieceValidators.get(def);
  if (v === undefined) {
    v = precompiled(def) ?? fromSource().getSchema(`${MANIFEST_ID}#/$defs/${def}`)!;
    pieceValidators.set(def, v);
  }
  return v;
}

/**
 * Validates the manifest's shape against schema/manifest.schema.json and turns
 * every Ajv error into a located, readable diagnostic. Returns true when the
 * shape is valid, which the semantic checks rely on. With a `memo` (the cache), a
 * manifest whose pieces an earlier run found valid is not validated whole again.
 */
export function validateShape(value: unknown, r: Reporter, memo?: ShapeMemo): boolean {
  if (memo !== undefined && validInPieces(value, memo, { whole: manifestValidator, definition: definitionValidator })) return true;
  const validate = manifestValidator();
  if (validate(value)) return true;
  const errors = validate.errors ?? [];
  const typos = misspelledRequired(errors);
  const strayed = strayedSections(errors);
  const seen = new Set<string>();
  for (const e of errors) {
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // `sideEfect: read` is one mistake: the unknown key says it all, "missing sideEffect" would be noise.
    if (e.keyword === 'required' && typos.has(`${e.instancePath}|${String(e.params.missingProperty)}`)) continue;
    // `  tools:` indented under `server:` is one mistake: the tools that follow it are not unknown keys of server too.
    if (e.keyword === 'additionalProperties' && strayed.has(e.instancePath) && !TOP_LEVEL.has(String(e.params.additionalProperty))) continue;
    translate(e, pointerToPath(e.instancePath, value), value, r);
  }
  return false;
}

/** The manifest's top-level sections. */
const TOP_LEVEL = new Set(['tools', 'resources', 'prompts', 'schemas']);

/** Mappings (by instance path) that hold a top-level section as an unknown key: indented one level too deep. */
function strayedSections(errors: readonly ErrorObject[]): Set<string> {
  return new Set(errors.filter((e) => e.keyword === 'additionalProperties' && e.instancePath !== '' && TOP_LEVEL.has(String(e.params.additionalProperty))).map((e) => e.instancePath));
}

/** Mappings keyed by name, where a newcomer writes a `- name:` list instead. */
const NAMED_MAPS: Record<string, string> = {
  tools: 'tool', resources: 'resource', prompts: 'prompt', schemas: 'schema', arguments: 'argument',
};

/** `parent|key` for every required key that an unknown sibling key is probably a typo of. */
function misspelledRequired(errors: readonly ErrorObject[]): Set<string> {
  const out = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'additionalProperties') continue;
    const required = ((e.parentSchema as { required?: string[] } | undefined)?.required ?? []);
    const match = closest(String(e.params.additionalProperty), required);
    if (match) out.add(`${e.instancePath}|${match}`);
  }
  return out;
}

function where(path: ManifestPath): string {
  return path.length === 0 ? 'the top level' : `\`${dotted(path)}\``;
}

function translate(e: ErrorObject, path: (string | number)[], root: unknown, r: Reporter): void {
  const parent = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
  const allowed = Object.keys(parent?.properties ?? {});
  switch (e.keyword) {
    case 'additionalProperties':
      return unknownKey(String(e.params.additionalProperty), path, allowed, r);
    case 'required':
      return missingKey(String(e.params.missingProperty), path, r);
    case 'enum':
      return badEnum(e, path, r);
    case 'type':
      return wrongType(e, path, getAt(root, path), r);
    default:
      r.error('MG104', path, `${where(path)} ${e.message ?? 'is invalid'}`, 'see schema/manifest.schema.json for the allowed values');
  }
}

function unknownKey(key: string, parent: (string | number)[], allowed: string[], r: Reporter): void {
  const kind = parent[0] === 'resources' ? 'resource' : parent[0] === 'prompts' ? 'prompt' : undefined;
  if (kind && parent.length === 2 && (key === 'idempotency' || key === 'approval')) {
    r.error(
      'MG303',
      [...parent, key],
      `\`${key}\` applies only to tools; a ${kind} has no side effects to protect`,
      `remove \`${key}\`; if ${parent[1]} changes something, make it a tool under tools:`,
      'key',
    );
    return;
  }
  if (parent.length > 0 && TOP_LEVEL.has(key)) {
    r.error(
      'MG100',
      [...parent, key],
      `\`${key}\` is a top-level section, but it is indented under \`${dotted(parent)}\``,
      `start \`${key}:\` at column 1, with no spaces before it, and indent its entries under it`,
      'key',
    );
    return;
  }
  const suggestion = closest(key, allowed);
  r.error(
    'MG100',
    [...parent, key],
    `unknown key \`${key}\` under ${parent.length ? dotted(parent) : 'the top level'}${didYouMean(key, allowed)}`,
    suggestion ? `rename it to \`${suggestion}\`` : allowed.length ? `remove it; allowed keys here: ${allowed.join(', ')}` : 'remove this key',
    'key',
  );
}

function missingKey(key: string, parent: (string | number)[], r: Reporter): void {
  if (parent[0] === 'tools' && parent.length === 2 && key === 'sideEffect') {
    r.error(
      'MG301',
      parent,
      `tool \`${parent[1]}\` does not declare \`sideEffect\``,
      'add `sideEffect: read` (nothing changes), `write` (reversible change) or `irreversible`',
      'key',
    );
    return;
  }
  r.error('MG101', parent, `missing required key \`${key}\` under ${where(parent)}`, `add \`${key}:\``, 'key');
}

function badEnum(e: ErrorObject, path: (string | number)[], r: Reporter): void {
  const allowed = (e.params.allowedValues as unknown[]).map((v) => String(v));
  if (path.length === 1 && path[0] === 'mcpgen') {
    r.error('MG200', path, `unsupported manifest format version \`${String(e.data)}\`; supported versions: ${allowed.join(', ')}`, 'set `mcpgen: 1`');
    return;
  }
  const suggestion = typeof e.data === 'string' ? didYouMean(e.data, allowed) : '';
  r.error(
    'MG102',
    path,
    `\`${String(e.data)}\` is not allowed for ${where(path)}; allowed: ${allowed.join(', ')}${suggestion}`,
    `use one of: ${allowed.join(', ')}`,
  );
}

function wrongType(e: ErrorObject, path: (string | number)[], value: unknown, r: Reporter): void {
  const expected = String(e.params.type).split(',').join(' or ');
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (path.length === 1 && path[0] === 'mcpgen') {
    r.error('MG200', path, `unsupported manifest format version \`${String(value)}\`; supported versions: 1`, 'set `mcpgen: 1`');
    return;
  }
  if (value === null) {
    const empty = path.length === 0 ? 'the manifest is empty' : `${where(path)} is empty`;
    r.error('MG103', path, `${empty}; expected ${article(expected)}`,
      path.length === 0 ? 'start from `mcp-gen init`, or write at least `mcpgen: 1` and `server:`' : `add entries under it, or remove the empty key`);
    return;
  }
  const last = String(path[path.length - 1] ?? '');
  const named = NAMED_MAPS[last];
  if (named !== undefined && actual === 'array' && expected === 'object' && (path.length === 1 || last === 'arguments')) {
    r.error('MG103', path, `${where(path)} must be an object that maps each ${named}'s name to its fields, not a list`,
      `write the name as a key (\`${firstName(value) ?? 'the-name'}:\`) with its fields indented under it, instead of \`- name: …\` items`);
    return;
  }
  if ((last === 'input' || last === 'output') && path[0] === 'tools' && actual === 'string') {
    r.error('MG103', path, `${where(path)} must be a JSON Schema object, not the string \`${String(value)}\``,
      `write an object schema, for example ${last}: { type: object, properties: { isbn: { type: string } } }`);
    return;
  }
  const quote = expected.includes('string') && (actual === 'number' || actual === 'boolean');
  // The value as written (`1.0`), not as YAML read it (`1`): quoting the read value would lose digits.
  const written = quote ? writtenScalar(r, path) ?? String(value) : String(value);
  if (quote && path.join('.') === 'server.version') {
    r.error('MG103', path, `\`server.version\` must be a string, not a number: YAML read \`${written}\` as the number ${String(value)}`,
      `quote it as a semantic version (MAJOR.MINOR.PATCH): version: "${semverOf(written)}"`);
    return;
  }
  r.error(
    'MG103',
    path,
    `${where(path)} must be ${article(expected)}, not ${article(actual)}`,
    quote ? `quote the value so YAML reads it as a string: "${written}"` : `write ${article(expected)} here`,
  );
}

/** The `name` of a list's first item, which becomes its key. */
function firstName(value: unknown): string | undefined {
  const item = Array.isArray(value) ? (value[0] as { name?: unknown } | undefined) : undefined;
  if (typeof item === 'string') return item;
  return item !== null && typeof item === 'object' && typeof item.name === 'string' ? item.name : undefined;
}

/** The scalar at `path` exactly as the source spells it, when it sits on one line. */
function writtenScalar(r: Reporter, path: (string | number)[]): string | undefined {
  const p = r.map.locate(path, 'value');
  const token = /^[^\s,}\]#]+/.exec(r.map.lineText(p.line)?.slice(p.column - 1) ?? '');
  return token?.[0];
}

/** `1.0` → `1.0.0`, `2` → `2.0.0`: a number padded to three parts. */
function semverOf(written: string): string {
  const parts = written.split('.').filter((x) => /^\d+$/.test(x)).slice(0, 3);
  while (parts.length < 3) parts.push('0');
  return parts.join('.');
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}
