import type { LintContext, LintFinding, LintRule } from '../types.js';
import { uriShape } from '../uri.js';

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const r of ctx.ir.resources) {
    const u = uriShape(r);
    if (!u || u.segments.length > 0) continue;
    const scheme = u.text.slice(0, u.text.indexOf(':'));
    out.push({
      path: ['resources', r.name, u.key],
      message: `the address of resource \`${r.name}\` has no path: a flat URI cannot be allowed or denied by prefix`,
      hint: `give it a hierarchy from general to specific, for example \`${scheme}://<area>/<collection>/<id>\` (\`support://policies/refunds/2026-09\`), so clients can allow \`${scheme}://<area>/*\``,
    });
  }
  return out;
}

/** MG711: a resource URI without path segments after the authority. */
export const rule: LintRule = {
  code: 'MG711',
  name: 'uri-flat',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A resource URI or template with no path segments after its authority (or no authority at all).',
  check,
};
