/** Every lint rule, in code order. Adding a rule: one file in this folder, one line here, one page in docs/rules/. */
import { rule as MG701 } from './MG701-generic-mega-tool.js';
import { rule as MG702 } from './MG702-read-write-switch.js';
import { rule as MG703 } from './MG703-write-without-idempotency.js';
import { rule as MG704 } from './MG704-irreversible-without-approval.js';
import { rule as MG705 } from './MG705-irreversible-unsaid.js';
import { rule as MG706 } from './MG706-description-contradicts-side-effect.js';
import { rule as MG707 } from './MG707-fixed-text-tool.js';
import { rule as MG708 } from './MG708-read-tool-when-not.js';
import { rule as MG709 } from './MG709-uri-query.js';
import { rule as MG710 } from './MG710-uri-secret.js';
import { rule as MG711 } from './MG711-uri-flat.js';
import { rule as MG712 } from './MG712-template-filter-variable.js';
import { rule as MG713 } from './MG713-hidden-side-effect.js';
import { rule as MG714 } from './MG714-prompt-calls-irreversible.js';
import { rule as MG715 } from './MG715-duplicated-text.js';
import { rule as MG716 } from './MG716-non-strict-input.js';
import { rule as MG717 } from './MG717-enum-candidate.js';
import { rule as MG718 } from './MG718-unbounded-input.js';
import { rule as MG719 } from './MG719-long-tool-name.js';
import { rule as MG720 } from './MG720-top-level-combinator.js';
import { rule as MG721 } from './MG721-published-ref.js';
import { rule as MG722 } from './MG722-strict-client-keyword.js';
import { rule as MG723 } from './MG723-context-budget.js';
import { rule as MG724 } from './MG724-prompt-argument-required.js';
import { rule as MG725 } from './MG725-backtracking-pattern.js';
import { rule as MG726 } from './MG726-prompt-scoped-identifier.js';
import { rule as MG727 } from './MG727-tool-name-format.js';
import { rule as MG728 } from './MG728-missing-outcome.js';
import { rule as MG729 } from './MG729-missing-owner.js';
import type { LintRule } from '../types.js';

/** The rules `mcp-gen lint` runs, in code order. */
export const RULES: readonly LintRule[] = [
  MG701,
  MG702,
  MG703,
  MG704,
  MG705,
  MG706,
  MG707,
  MG708,
  MG709,
  MG710,
  MG711,
  MG712,
  MG713,
  MG714,
  MG715,
  MG716,
  MG717,
  MG718,
  MG719,
  MG720,
  MG721,
  MG722,
  MG723,
  MG724,
  MG725,
  MG726,
  MG727,
  MG728,
  MG729,
];
