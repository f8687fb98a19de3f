/**
 * MG728 and MG729: one rule shape for the two stewardship fields of a contract card. Each reports, as a
 * hint, every tool, resource and prompt that lacks its field — one finding per primitive, at the
 * primitive's key — in every manifest; `lint.rules` turns either off for a manifest, `lint.disable` waives
 * it for one primitive.
 */
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** One primitive as the stewardship rules see it. */
export interface Stewarded {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly section: 'tools' | 'resources' | 'prompts';
  readonly name: string;
  readonly outcome?: string;
  readonly owner?: string;
}

/** Every primitive of the manifest, tools then resources then prompts, in manifest order. */
export function declaredPrimitives(ctx: LintContext): Stewarded[] {
  const all = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts];
  return all.map((p) => ({ kind: p.kind, section: `${p.kind}s` as Stewarded['section'], name: p.name, ...(p.outcome !== undefined ? { outcome: p.outcome } : {}), ...(p.owner !== undefined ? { owner: p.owner } : {}) }));
}

/** What distinguishes the two rules. */
export interface StewardshipField {
  readonly code: string;
  readonly name: string;
  readonly field: 'outcome' | 'owner';
  /** The end of the message after "<kind> `<name>` ". */
  readonly lacks: string;
  readonly hint: string;
  /** What the field is, for the rule's description. */
  readonly meaning: string;
}

/** The lint rule that reports every primitive without `spec.field`. */
export function stewardshipRule(spec: StewardshipField): LintRule {
  const check = (ctx: LintContext): LintFinding[] =>
    declaredPrimitives(ctx)
      .filter((p) => p[spec.field] === undefined)
      .map((p) => ({ path: [p.section, p.name], at: 'key' as const, message: `${p.kind} \`${p.name}\` ${spec.lacks} (\`${spec.field}\`)`, hint: spec.hint }));
  return {
    code: spec.code,
    name: spec.name,
    defaultSeverity: 'hint',
    reads: 'primitive',
    description: `A tool, resource or prompt without \`${spec.field}:\` (${spec.meaning}).`,
    check,
  };
}
