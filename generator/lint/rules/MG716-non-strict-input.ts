import { inputNodes, nodeLabel } from '../inputs.js';
import { typesOf } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** True when an object schema closes its key set (or declares a typed map). */
function isStrict(s: Readonly<Record<string, unknown>>): boolean {
  const ap = s.additionalProperties;
  if (ap === false || s.unevaluatedProperties === false) return true;
  return ap !== null && typeof ap === 'object' && Object.keys(ap).length > 0;
}

function check(ctx: LintContext): LintFinding[] {
  return inputNodes(ctx)
    .filter((n) => (typesOf(n.schema).includes('object') || 'properties' in n.schema) && !isStrict(n.schema))
    .map((n) => ({
      path: n.path,
      at: 'key' as const,
      owner: n.owner,
      message: `${nodeLabel(n)} accepts unknown keys (\`additionalProperties\` is not false)`,
      hint: 'add `additionalProperties: false` to this object: a misspelled or invented argument is then rejected instead of silently ignored',
    }));
}

/** MG716: an object in a tool input that does not set `additionalProperties: false`. */
export const rule: LintRule = {
  code: 'MG716',
  name: 'non-strict-input',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'An object at any level of a tool input schema without `additionalProperties: false`.',
  check,
};
