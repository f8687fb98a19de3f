/**
 * `paramsValidator<T>()`: checks URI template variables before a handler sees
 * them. The SDK hands variables over exactly as they appear in the URI (not
 * percent-decoded), so this is where decoding happens, and where values that
 * could smuggle a path or a second URI are refused.
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

const CONTROL = /[\u0000-\u001f\u007f]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Why a decoded value is refused, or undefined when it is acceptable. */
function canary(value: string, multiSegment: boolean): string | undefined {
  if (CONTROL.test(value)) return 'must not contain control characters';
  if (!multiSegment && /[/\\]/.test(value)) return 'must not contain "/" or "\\"';
  if (value.split(/[/\\]/).some((segment) => segment === '..' || segment === '.')) return 'must not contain a "." or ".." path segment';
  if (SCHEME.test(value)) return 'must not look like a URI scheme';
  return undefined;
}

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
          const refusal = canary(decoded, options.multiSegment?.has(name) ?? false);
          if (refusal) return { ok: false, message: `Template variable '${name}' ${refusal}` };
          values.push(coerceString(decoded, isArraySchema ? (schema.items as unknown) : schema));
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
