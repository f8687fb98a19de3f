import { inputNodes, nodeLabel, type InputNode } from '../inputs.js';
import { isBoundedString, typesOf } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

function finding(n: InputNode): LintFinding | undefined {
  const types = typesOf(n.schema);
  if ((types.includes('array') || 'items' in n.schema) && !('maxItems' in n.schema)) {
    return { path: n.path, at: 'key', owner: n.owner, message: `${nodeLabel(n)} is an array without \`maxItems\``, hint: 'add `maxItems` (the most a single call should handle, for example 50): an unbounded list makes one call do unbounded work' };
  }
  if (types.includes('string') && !isBoundedString(n.schema)) {
    return { path: n.path, at: 'key', owner: n.owner, message: `${nodeLabel(n)} is a string without \`maxLength\`, \`enum\`, \`pattern\` or \`format\``, hint: 'bound it: `maxLength` for prose, `pattern` for identifiers (`^T-[0-9]{4,}$`), `enum` for a fixed set, `format` for dates' };
  }
  return undefined;
}

function check(ctx: LintContext): LintFinding[] {
  return inputNodes(ctx).flatMap((n) => finding(n) ?? []);
}

/** MG718: unbounded arrays and strings in tool inputs. */
export const rule: LintRule = {
  code: 'MG718',
  name: 'unbounded-input',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A tool input array without `maxItems`, or string without `maxLength`, `enum`, `pattern` or `format`.',
  check,
};
