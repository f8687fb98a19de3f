import type { LintContext, LintFinding, LintRule } from '../types.js';
import { segmentNames, uriShape, type UriShape } from '../uri.js';
import { isSecretName, isSecretValue } from '../words.js';

/** Every name in an address (authority, segments, query) with its index. */
function names(u: UriShape): { name: string; literal: boolean; index: number }[] {
  const parts = [...(u.authority ? [u.authority] : []), ...u.segments];
  return [...parts.flatMap(segmentNames), ...u.queryNames.map((q) => ({ name: q.text, literal: false, index: q.index }))];
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const r of ctx.ir.resources) {
    const u = uriShape(r);
    if (!u) continue;
    const credentials = u.authority?.text.includes('@') ? [{ name: u.authority.text.split('@')[0]!, literal: true, index: u.authority.index }] : [];
    const hit = credentials[0] ?? names(u).find((n) => isSecretName(n.name) || (n.literal && isSecretValue(n.name)));
    if (!hit) continue;
    out.push({
      path: ['resources', r.name, u.key],
      offset: hit.index,
      message: `the address of resource \`${r.name}\` carries a secret-looking ${hit.literal ? 'part' : 'variable'} \`${hit.name}\`: URIs end up in logs, listings and caches`,
      hint: 'authenticate the caller on the server (scopes) and keep credentials out of the address; if this is an opaque identifier, rename it (for example `grantId`) or waive the rule with a reason',
    });
  }
  return out;
}

/** MG710: a token, key, password or secret in a resource URI or template. */
export const rule: LintRule = {
  code: 'MG710',
  name: 'uri-secret',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A resource URI or template with a secret-looking segment, variable or query name (token, key, password, secret, apikey) or credentials in it.',
  check,
};
