import { inputNodes, nodeLabel } from '../inputs.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** Keywords that strict-mode clients reject, or draft-07 validators silently ignore, in tool inputs. */
export const UNPORTABLE_KEYWORDS = [
  'patternProperties', 'propertyNames', 'dependentSchemas', 'dependentRequired', 'if', 'then', 'else', 'not',
  'unevaluatedProperties', 'unevaluatedItems', 'prefixItems', 'contains', 'minContains', 'maxContains',
  '$dynamicRef', '$dynamicAnchor',
] as const;

/** `format` values every strict-mode client knows. */
export const PORTABLE_FORMATS = ['date-time', 'date', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'uri'] as const;

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const n of inputNodes(ctx)) {
    for (const kw of UNPORTABLE_KEYWORDS.filter((k) => k in n.schema)) {
      out.push({ path: [...n.path, kw], at: 'key', owner: n.owner, message: `${nodeLabel(n)} uses \`${kw}\`, which strict-mode clients reject`, hint: 'express the rule with portable keywords (`properties`, `required`, `enum`, `pattern`, bounds) or split the variants into separate tools; check the rest on the server' });
    }
    const f = n.schema.format;
    if (typeof f === 'string' && !(PORTABLE_FORMATS as readonly string[]).includes(f)) {
      out.push({ path: [...n.path, 'format'], owner: n.owner, message: `${nodeLabel(n)} uses \`format: ${f}\`, which some clients do not know`, hint: `use one of ${PORTABLE_FORMATS.join(', ')}, or a \`pattern\`` });
    }
  }
  return out;
}

/** MG722: keywords and formats that strict-mode clients reject in tool inputs. */
export const rule: LintRule = {
  code: 'MG722',
  name: 'strict-client-keyword',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A tool input using a keyword strict-mode clients reject (patternProperties, if/then/else, not, unevaluatedProperties…) or an uncommon `format`.',
  check,
};
