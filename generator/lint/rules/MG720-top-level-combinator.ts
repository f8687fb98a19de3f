import { derefRoot } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const t of ctx.ir.tools) {
    const root = derefRoot(t.input, ctx.named);
    if (typeof root.schema !== 'object') continue;
    const kw = COMBINATORS.find((k) => k in (root.schema as object));
    if (!kw) continue;
    out.push({
      path: [...(root.path ?? ['tools', t.name, 'input']), kw],
      at: 'key',
      owner: { kind: 'tools', name: t.name },
      message: `the input of \`${t.name}\` has \`${kw}\` at its top level, which several clients reject outright`,
      hint: 'keep the root a plain `type: object` with `properties`; if the alternatives are different operations, make them separate tools; otherwise move the choice into one property (for example `target: { oneOf: [...] }`)',
    });
  }
  return out;
}

/** MG720: `anyOf` / `oneOf` / `allOf` at the root of a tool input schema. */
export const rule: LintRule = {
  code: 'MG720',
  name: 'top-level-combinator',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A tool input schema with `anyOf`, `oneOf` or `allOf` at its top level.',
  check,
};
