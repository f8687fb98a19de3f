import { derefRoot } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** True when the input schema admits no arguments at all. */
function takesNothing(input: unknown, named: LintContext['named']): boolean {
  const root = derefRoot(input as never, named).schema;
  if (typeof root !== 'object' || root === null) return root === false;
  const r = root as Record<string, unknown>;
  const props = r.properties && typeof r.properties === 'object' ? Object.keys(r.properties) : [];
  return props.length === 0 && !('anyOf' in r) && !('oneOf' in r) && !('patternProperties' in r) && (r.additionalProperties === false || r.additionalProperties === undefined);
}

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.sideEffect === 'read' && t.output === undefined && takesNothing(t.input, ctx.named))
    .map((t) => ({
      path: ['tools', t.name],
      at: 'key',
      message: `\`${t.name}\` takes no input and returns untyped content: a resource in disguise`,
      hint: `move this fixed text into a resource (for example \`uri: ${ctx.ir.server.name}://docs/${t.id}\` with \`source:\` a file) so the application decides when it enters the context; keep a tool only for a live, computed answer, and then declare its \`output\``,
    }));
}

/** MG707: a read tool with no inputs and no output schema (fixed text). */
export const rule: LintRule = {
  code: 'MG707',
  name: 'fixed-text-tool',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A read tool without input properties and without an output schema: it can only return fixed text, which belongs in a resource.',
  check,
};
