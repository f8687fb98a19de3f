/**
 * `promptArgsSchema<T>()`: the `argsSchema` of a prompt. Prompt arguments are
 * strings on the wire, so the advertised schema says `type: string` for every
 * argument (the SDK derives `arguments: [{name, description, required}]` from
 * it), while validation converts each string to the declared type first.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { coerceString } from './coerce.js';
import { lazyValidator, type JsonSchemaObject } from './jsonSchema.js';

/** One prompt argument as declared in the manifest. */
export interface PromptArgDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  /** The declared schema (string, integer, number, boolean, enum…). */
  readonly schema?: JsonSchemaObject;
}

/** The Standard Schema returned by {@link promptArgsSchema}. */
export interface PromptArgsSchema<T> extends StandardSchemaWithJSON<T, T> {
  /** The declarations, in order; templates use the names to render placeholders. */
  readonly args: readonly PromptArgDeclaration[];
  /** Validates synchronously; the same function `~standard.validate` uses. */
  check(value: unknown): StandardSchemaV1.Result<T>;
}

function advertisedSchema(args: readonly PromptArgDeclaration[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const arg of args) properties[arg.name] = arg.description === undefined ? { type: 'string' } : { type: 'string', description: arg.description };
  return { type: 'object', properties, required: args.filter((a) => a.required).map((a) => a.name) };
}

/**
 * Builds the argument schema of one prompt. An optional argument sent as an
 * empty string counts as absent: form-based clients send blank fields.
 */
export function promptArgsSchema<T = Record<string, unknown>>(args: readonly PromptArgDeclaration[]): PromptArgsSchema<T> {
  const advertised = advertisedSchema(args);
  const byName = new Map(args.map((a) => [a.name, a]));
  const checks = new Map(args.map((a) => [a.name, lazyValidator(a.schema ?? { type: 'string' }, `/${a.name}`)]));
  const check = (value: unknown): StandardSchemaV1.Result<T> => {
    const input = value ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) return { issues: [{ message: '(root) must be an object of string arguments' }] };
    const out: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(input as Record<string, unknown>)) {
      const arg = byName.get(name);
      if (!arg) return { issues: [{ message: `/${name} is not allowed (unknown argument)` }] };
      if (raw === undefined || (raw === '' && !arg.required)) continue;
      if (typeof raw !== 'string') return { issues: [{ message: `/${name} must be a string` }] };
      const converted = coerceString(raw, arg.schema);
      const result = checks.get(name)!(converted);
      if (result.issues) return { issues: result.issues };
      out[name] = converted;
    }
    for (const arg of args) {
      if (arg.required && !(arg.name in out)) return { issues: [{ message: `(root) must have required property '${arg.name}'` }] };
    }
    return { value: out as T };
  };
  return {
    args,
    check,
    '~standard': {
      version: 1,
      vendor: 'mcp-gen',
      validate: check,
      jsonSchema: { input: () => advertised, output: () => advertised },
    },
  };
}
