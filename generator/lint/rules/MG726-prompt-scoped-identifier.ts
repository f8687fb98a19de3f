import type { JsonSchema } from '../../ir/types.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** A schema with `#/schemas/Name` references followed, one level (enough to compare an identifier's schema). */
function resolved(schema: unknown, ctx: LintContext): unknown {
  const ref = typeof schema === 'object' && schema !== null ? (schema as { $ref?: unknown }).$ref : undefined;
  if (typeof ref === 'string' && ref.startsWith('#/schemas/')) return ctx.named.get(ref.slice('#/schemas/'.length)) ?? schema;
  return schema;
}

/** A key-order-independent form, so two spellings of one schema compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface ScopedVariable {
  readonly resource: string;
  readonly scopes: readonly string[];
}

/** Template variables of resources that require scopes, keyed by variable name and canonical schema. */
function scopedVariables(ctx: LintContext): Map<string, ScopedVariable> {
  const out = new Map<string, ScopedVariable>();
  for (const [name, r] of Object.entries(ctx.manifest.resources ?? {})) {
    const scopes = (r.scopes ?? []) as readonly string[];
    if (scopes.length === 0) continue;
    for (const [variable, schema] of Object.entries((r.params ?? {}) as Record<string, JsonSchema>)) {
      const key = `${variable}\u0000${canonical(resolved(schema, ctx))}`;
      if (!out.has(key)) out.set(key, { resource: name, scopes });
    }
  }
  return out;
}

function check(ctx: LintContext): LintFinding[] {
  const scoped = scopedVariables(ctx);
  if (scoped.size === 0) return [];
  const out: LintFinding[] = [];
  for (const [name, p] of Object.entries(ctx.manifest.prompts ?? {})) {
    const granted = new Set((p.scopes ?? []) as readonly string[]);
    for (const [arg, a] of Object.entries(p.arguments ?? {})) {
      const hit = scoped.get(`${arg}\u0000${canonical(resolved(a.schema, ctx))}`);
      if (!hit) continue;
      const missing = hit.scopes.filter((s) => !granted.has(s));
      if (missing.length === 0) continue;
      out.push({
        path: ['prompts', name, 'arguments', arg],
        at: 'key',
        message: `prompt \`${name}\` takes \`${arg}\`, the identifier of resource \`${hit.resource}\`, without its scope ${missing.join(' ')}: its messages and completions can return that data to callers who may not read it`,
        hint: `add \`scopes: [${[...granted, ...missing].join(', ')}]\` to the prompt, so it is gated like the resource it exposes; to stay open, embed the resource in \`messages\` (or read it with ctx.readResource) so the resource's own gates apply, and do not complete \`${arg}\``,
      });
    }
  }
  return out;
}

/** MG726: a prompt that takes the identifier of scoped data without requiring its scopes. */
export const rule: LintRule = {
  code: 'MG726',
  name: 'prompt-scoped-identifier',
  defaultSeverity: 'warning',
  // Compares prompt arguments with the template variables of every scoped resource.
  reads: 'manifest',
  description: "A prompt argument with the name and schema of a scoped resource's template variable, on a prompt that does not require the resource's scopes.",
  check,
};
