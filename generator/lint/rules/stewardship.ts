/** What MG728 and MG729 read: every primitive with its manifest section and its `outcome` / `owner`. */
import type { LintContext } from '../types.js';

/** One primitive as the stewardship rules see it. */
export interface Stewarded {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly section: 'tools' | 'resources' | 'prompts';
  readonly name: string;
  readonly outcome?: string;
  readonly owner?: string;
}

/**
 * Every primitive of the manifest, tools then resources then prompts, in manifest order — once the manifest
 * fills contract cards (some primitive declares `outcome` or `owner`) or names `code` under `lint.rules`;
 * otherwise none, so a manifest that never heard of the fields gets one hint per primitive from neither rule.
 */
export function declaredPrimitives(ctx: LintContext, code: string): Stewarded[] {
  const all = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts];
  const adopted = all.some((p) => p.outcome !== undefined || p.owner !== undefined) || ctx.manifest.lint?.rules?.[code] !== undefined;
  if (!adopted) return [];
  return all.map((p) => ({ kind: p.kind, section: `${p.kind}s` as Stewarded['section'], name: p.name, ...(p.outcome !== undefined ? { outcome: p.outcome } : {}), ...(p.owner !== undefined ? { owner: p.owner } : {}) }));
}
