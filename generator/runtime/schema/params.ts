/**
 * `paramsValidator<T>()`: checks URI template variables before a handler sees
 * them. The SDK hands variables over exactly as they appear in the URI (not
 * percent-decoded), so this is where decoding happens, and where values that
 * could smuggle a path or a second URI are refused.
 *
 * The rule (docs/security.md, "Template variables"): each value is decoded
 * exactly once and NFKC-normalized; it is refused when it contains control or
 * invisible format characters, and, unless its schema says
 * `x-mcp-gen-allow-paths: true`, when it still contains percent-encoding
 * (double encoding), lookalikes of `.` `/` `\` `:`, starts with `/` or `\`
 * (absolute path, `//host` authority), has a `.` or `..` segment (blanks
 * around the dots included), or starts like a scheme or drive letter (`x:`).
 * Simple `{x}` variables may not contain `/` or `\` at all; `{+x}`, `{#x}`
 * and `{/x}` may, with the same screening of every segment.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { coerceString } from './coerce.js';
import { lazyValidator, type JsonSchemaObject } from './jsonSchema.js';

/** The raw variables the SDK passes to a template read callback. */
export type RawVariables = Readonly<Record<string, string | readonly string[]>>;

/** Result of {@link ParamsValidator.parse}. */
export type ParamsResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** Options for {@link ParamsValidator.parse}. */
export interface ParseParamsOptions {
  /** Variables that may contain `/` (declared with `{+x}`, `{#x}` or `{/x}` in the template). */
  readonly multiSegment?: ReadonlySet<string>;
}

/** Validates and converts the variables of one resource template. */
export interface ParamsValidator<T> {
  /** The declared variables with their schemas, in declaration order. */
  readonly params: Readonly<Record<string, JsonSchemaObject>>;
  /** Decodes, screens, converts and validates; the message names the variable. */
  parse(variables: RawVariables, options?: ParseParamsOptions): ParamsResult<T>;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Invisible format characters (zero-width, bidi controls): they make two different values look alike. */
const FORMAT = /\p{Cf}/u;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Characters that still look like a dot or a slash after NFKC normalization. */
const LOOKALIKE_DOT = /[\u3002\uff61\u2024\u2025\u2026\ufe52]/g;
const LOOKALIKE_SLASH = /[\u2215\u2044\u29f8\u29f9\u2216\ufe68]/g;

/**
 * The schema annotation that opts a variable out of the path screening (absolute paths, authority
 * prefixes, `.`/`..` segments, leftover percent-encoding, lookalike dots and slashes). Control and
 * invisible format characters are refused regardless.
 */
export const ALLOW_PATHS_KEYWORD = 'x-mcp-gen-allow-paths';

const PATH_CHARS = /[^./\\:]/g;

/**
 * Why a decoded value is refused, or undefined when it is acceptable. `raw` is the value as decoded;
 * the checks read its NFKC form with the remaining lookalikes folded, so fullwidth `．．／` is seen as
 * the `../` it would become in a handler that normalizes.
 */
function canary(raw: string, multiSegment: boolean, allowPaths: boolean): string | undefined {
  if (CONTROL.test(raw)) return 'must not contain control characters';
  if (FORMAT.test(raw)) return 'must not contain invisible format characters';
  if (allowPaths) return undefined;
  // One decode only: a value that still carries percent-encoding was encoded twice to slip past this check.
  if (/%[0-9a-f]{2}/i.test(raw)) return 'must not contain percent-encoding after decoding (double encoding)';
  const skeleton = raw.normalize('NFKC').replace(LOOKALIKE_DOT, '.').replace(LOOKALIKE_SLASH, '/');
  if (raw.replace(PATH_CHARS, '') !== skeleton.replace(PATH_CHARS, '')) return 'must not contain characters that look like ".", "/", "\\" or ":"';
  if (/^[/\\]{2}/.test(skeleton)) return 'must not start with an authority ("//host")';
  if (/^[/\\]/.test(skeleton)) return 'must not be an absolute path';
  if (!multiSegment && /[/\\]/.test(skeleton)) return 'must not contain "/" or "\\"';
  // `..%20` decodes to ".. ": blanks around dots do not make a segment safe.
  if (skeleton.split(/[/\\]/).some((segment) => /^\.{1,2}$/.test(segment.trim()))) return 'must not contain a "." or ".." path segment';
  if (SCHEME.test(skeleton)) return 'must not look like a URI scheme or a drive letter';
  return undefined;
}

/** True when the variable's schema opts out of the path screening with {@link ALLOW_PATHS_KEYWORD}. */
function allowsPaths(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)[ALLOW_PATHS_KEYWORD] === true;
}

/** Percent-decodes once; undefined for malformed encoding. */
function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Builds the validator for a template's variables. Each schema compiles
 * lazily, once, on the first read that uses it.
 */
export function paramsValidator<T = Record<string, unknown>>(params: Readonly<Record<string, JsonSchemaObject>>): ParamsValidator<T> {
  const checks = new Map<string, (value: unknown) => StandardSchemaV1.Result<unknown>>();
  const checkFor = (name: string): ((value: unknown) => StandardSchemaV1.Result<unknown>) => {
    let check = checks.get(name);
    if (!check) {
      check = lazyValidator(params[name] ?? {}, `/${name}`);
      checks.set(name, check);
    }
    return check;
  };
  return {
    params,
    parse(variables, options = {}) {
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(params)) {
        const raw = variables[name];
        if (raw === undefined) return { ok: false, message: `Missing template variable '${name}'` };
        const schema = params[name];
        const isArraySchema = typeof schema === 'object' && schema !== null && schema.type === 'array';
        const parts = typeof raw === 'string' ? [raw] : [...raw];
        const values: unknown[] = [];
        for (const part of parts) {
          const decoded = decode(part);
          if (decoded === undefined) return { ok: false, message: `Template variable '${name}' has malformed percent-encoding` };
          const refusal = canary(decoded, options.multiSegment?.has(name) ?? false, allowsPaths(schema));
          if (refusal) return { ok: false, message: `Template variable '${name}' ${refusal}` };
          // The handler gets the normalized form the screening read, never a second reading of the raw one.
          values.push(coerceString(decoded.normalize('NFKC'), isArraySchema ? (schema.items as unknown) : schema));
        }
        if (!isArraySchema && values.length !== 1) return { ok: false, message: `Template variable '${name}' must be a single value` };
        const value = isArraySchema ? values : values[0];
        const result = checkFor(name)(value);
        if (result.issues) return { ok: false, message: `Invalid template variable '${name}': ${result.issues.map((i) => i.message).join('; ')}` };
        out[name] = value;
      }
      return { ok: true, value: out as T };
    },
  };
}
