import type { LintRule } from '../types.js';
import { stewardshipRule } from './stewardship.js';

/** MG728: a primitive without `outcome`. */
export const rule: LintRule = stewardshipRule({
  code: 'MG728',
  name: 'missing-outcome',
  field: 'outcome',
  lacks: 'does not say what the user gets from it',
  hint: 'add `outcome:` with one line a reviewer can check the primitive against, e.g. "The agent sees one ticket\'s status before acting on it"; its contract card shows it',
  meaning: 'the user outcome its contract card states',
});
