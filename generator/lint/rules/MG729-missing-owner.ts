import type { LintRule } from '../types.js';
import { stewardshipRule } from './stewardship.js';

/** MG729: a primitive without `owner`. */
export const rule: LintRule = stewardshipRule({
  code: 'MG729',
  name: 'missing-owner',
  field: 'owner',
  lacks: 'does not name who owns its data or operation',
  hint: 'add `owner:` naming the team or system that answers for it (who to ask when it is wrong, who approves a change); its contract card shows it',
  meaning: 'the data or operation owner its contract card states',
});
