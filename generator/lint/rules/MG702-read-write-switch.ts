import { topProperties } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';
import { leadingVerb, READ_VERBS, WRITE_VERBS } from '../words.js';

/** The tool name's namespace (`orders` of `orders.manage`), used to name the split tools. */
function prefixOf(name: string): string {
  const i = Math.max(name.lastIndexOf('.'), name.lastIndexOf('_'));
  return i > 0 ? name.slice(0, i) : name;
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const t of ctx.ir.tools) {
    for (const p of topProperties(t.input, ['tools', t.name, 'input'], ctx.named)) {
      const values = (Array.isArray(p.schema.enum) ? p.schema.enum : []).filter((v): v is string => typeof v === 'string');
      const reads = values.filter((v) => leadingVerb(v, READ_VERBS));
      const writes = values.filter((v) => leadingVerb(v, WRITE_VERBS));
      if (reads.length === 0 || writes.length === 0) continue;
      const sep = t.name.includes('.') ? '.' : '_';
      const base = prefixOf(t.name);
      out.push({
        path: p.path,
        at: 'key',
        message: `input \`${p.name}\` of \`${t.name}\` switches between reading (${reads.join(', ')}) and writing (${writes.join(', ')})`,
        hint: `split into \`${base}${sep}${reads[0]!.toLowerCase()}\` (read) and \`${base}${sep}${writes[0]!.toLowerCase()}\` (write), so the write can carry its own scope, idempotency and approval`,
      });
    }
  }
  return out;
}

/** MG702: one tool whose input enum selects between read and write operations. */
export const rule: LintRule = {
  code: 'MG702',
  name: 'read-write-switch',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A tool input enum (`operation`, `action`, `mode`…) whose values mix read verbs and write verbs.',
  check,
};
