import type { IrPrimitive, JsonSchema } from '../../ir/types.js';
import { summariesOf } from '../by-primitive.js';
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

/**
 * What the rule reads of one primitive: a resource's scopes and its template variables, a prompt's scopes
 * and its arguments, each variable or argument with the canonical form of its schema as declared.
 */
interface Summary {
  readonly scopes: readonly string[];
  readonly declared: readonly (readonly [name: string, schema: string])[];
}

function summarise(one: LintContext, p: IrPrimitive): Summary | null {
  if (p.kind === 'resource') {
    const r = one.manifest.resources?.[p.name];
    return { scopes: r?.scopes ?? [], declared: Object.entries((r?.params ?? {}) as Record<string, JsonSchema>).map(([v, schema]) => [v, canonical(resolved(schema, one))]) };
  }
  if (p.kind === 'prompt') {
    const q = one.manifest.prompts?.[p.name];
    return { scopes: q?.scopes ?? [], declared: Object.entries(q?.arguments ?? {}).map(([arg, a]) => [arg, canonical(resolved(a.schema, one))]) };
  }
  return null;
}

interface ScopedVariable {
  readonly resource: string;
  readonly scopes: readonly string[];
}

/** The summaries of a section's primitives, in the manifest's key order. */
function inOrder<P extends IrPrimitive>(keys: readonly string[], primitives: readonly P[], summaries: ReadonlyMap<IrPrimitive, unknown>): [string, Summary][] {
  const byName = new Map(primitives.map((p) => [p.name, p]));
  return keys.flatMap((name) => {
    const p = byName.get(name);
    return p ? [[name, summaries.get(p) as Summary]] : [];
  });
}

/** Template variables of resources that require scopes, keyed by variable name and canonical schema. */
function scopedVariables(resources: readonly [string, Summary][]): Map<string, ScopedVariable> {
  const out = new Map<string, ScopedVariable>();
  for (const [name, r] of resources) {
    if (r.scopes.length === 0) continue;
    for (const [variable, schema] of r.declared) {
      const key = `${variable}\u0000${schema}`;
      if (!out.has(key)) out.set(key, { resource: name, scopes: r.scopes });
    }
  }
  return out;
}

function check(ctx: LintContext): LintFinding[] {
  const summaries = summariesOf(ctx, rule);
  const scoped = scopedVariables(inOrder(Object.keys(ctx.manifest.resources ?? {}), ctx.ir.resources, summaries));
  if (scoped.size === 0) return [];
  const out: LintFinding[] = [];
  for (const [name, p] of inOrder(Object.keys(ctx.manifest.prompts ?? {}), ctx.ir.prompts, summaries)) {
    const granted = new Set(p.scopes);
    for (const [arg, schema] of p.declared) {
      const hit = scoped.get(`${arg}\u0000${schema}`);
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
  // Compares prompt arguments with the template variables of every scoped resource, from their summaries.
  reads: 'manifest',
  summarise,
  description: "A prompt argument with the name and schema of a scoped resource's template variable, on a prompt that does not require the resource's scopes.",
  check,
};
