/**
 * Heuristics over descriptions and message text: which sentences ask for an
 * action, which are negated, what a description promises. They favour
 * missing a finding over inventing one: a rule that cries wolf gets waived.
 */

/** A match of a phrase in a text, with its character index. */
export interface TextMatch {
  readonly word: string;
  readonly index: number;
}

const NEGATION = /\b(?:not|never|no|don't|doesn't|do not|does not|cannot|can't|without|nor|instead of|rather than|avoid)\b/i;

/** The sentence (or line) around `index`, from its start up to `index`. */
function sentencePrefix(text: string, index: number): string {
  const before = text.slice(0, index);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n'), before.lastIndexOf('; '), before.lastIndexOf('! '), before.lastIndexOf('? '));
  return before.slice(start + 1);
}

/** True when the sentence holding `index` negates what follows (`Do not merge`, `never submit`). */
export function isNegated(text: string, index: number): boolean {
  return NEGATION.test(sentencePrefix(text, index));
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What follows an imperative verb at a sentence start: an object (`the`, `it`, a placeholder), not a noun compound (`Refund policy`). */
const OBJECT = String.raw`(?:the|a|an|all|every|each|any|this|that|these|those|it|them|everything|my|your|our|their|his|her|its|one|some)\b|\{\{|["'\`#]`;

/**
 * Imperative uses of `verbs` that are not negated: at the start of a sentence
 * or line when an object follows (`Send the invoices`, `Delete it`), or after
 * `then`, `and`, `please`, `also`, `now` (`…, then send invoices`).
 */
export function imperatives(text: string, verbs: readonly string[]): TextMatch[] {
  let res = imperativeRes.get(verbs);
  if (res === undefined) {
    const alt = verbs.map(escape).join('|');
    res = [
      new RegExp(String.raw`(?:^|[.;:!?\n]\s*)(${alt})\b(?=\s+(?:${OBJECT}))`, 'gi'),
      new RegExp(String.raw`\b(?:then|and|please|also|now)\s+(${alt})\b(?=\s+[\w"'\`{#])`, 'gi'),
    ];
    imperativeRes.set(verbs, res);
  }
  const all = [...matches(text, res[0]), ...matches(text, res[1])];
  return all.filter((m, i) => all.findIndex((x) => x.index === m.index) === i).sort((a, b) => a.index - b.index);
}

/** Third-person uses (`deletes`, `sends`) of `forms` anywhere, not negated. */
export function statements(text: string, forms: readonly string[]): TextMatch[] {
  let re = statementRes.get(forms);
  if (re === undefined) {
    re = new RegExp(`\\b(${forms.map(escape).join('|')})\\b`, 'gi');
    statementRes.set(forms, re);
  }
  return matches(text, re);
}

/** The expressions built for a word list, kept per list (callers pass the same constant lists every time). */
const imperativeRes = new WeakMap<readonly string[], readonly [RegExp, RegExp]>();
const statementRes = new WeakMap<readonly string[], RegExp>();

function matches(text: string, re: RegExp): TextMatch[] {
  const out: TextMatch[] = [];
  for (const m of text.matchAll(re)) {
    const word = m[1]!;
    // The verb is the last thing the match consumed (the look-ahead consumes nothing).
    const index = m.index + m[0].length - word.length;
    if (!isNegated(text, index)) out.push({ word: word.toLowerCase(), index });
  }
  return out;
}

/** Imperative verbs that ask for an effect in the world (not for writing an answer). */
export const EFFECT_IMPERATIVES = [
  'delete', 'remove', 'erase', 'purge', 'destroy', 'send', 'email', 'submit', 'pay', 'charge', 'refund', 'transfer',
  'wire', 'merge', 'deploy', 'publish', 'book', 'cancel', 'approve', 'revoke', 'execute', 'drop', 'overwrite',
];

/** Third-person forms that state an effect (nouns like `refunds` or `updates` are left out on purpose). */
export const EFFECT_STATEMENTS = [
  'deletes', 'removes', 'erases', 'purges', 'destroys', 'sends', 'emails', 'submits', 'pays', 'cancels', 'merges',
  'deploys', 'publishes', 'revokes', 'executes', 'overwrites', 'modifies', 'creates', 'notifies', 'writes to',
  'marks it', 'marks them', 'moves money', 'triggers',
];

/** Phrases that say a tool's effect cannot be taken back, in the languages of the seeds; the non-ASCII ones escaped, so the bundle stays one-byte text: 不可逆, 无法撤销, необратим, нельзя отменить. */
export const IRREVERSIBLE_WORDING = /irreversib|cannot be undone|can't be undone|can not be undone|not reversible|no undo|permanent|\u4e0d\u53ef\u9006|\u65e0\u6cd5\u64a4\u9500|\u043d\u0435\u043e\u0431\u0440\u0430\u0442\u0438\u043c|\u043d\u0435\u043b\u044c\u0437\u044f \u043e\u0442\u043c\u0435\u043d\u0438\u0442\u044c/i;

/** Phrases that say when not to use a tool; the non-ASCII ones escaped, so the bundle stays one-byte text: 不适用, 不要用, не для, не используйте, не подходит. */
export const WHEN_NOT_WORDING = /\bnot for\b|\bnot to be used\b|\bdo not use\b|\bdon't use\b|\bnever use\b|\binstead\b|\brather than\b|\bnot (?:meant|intended|suitable)\b|\bunsuitable\b|\bonly for\b|\bavoid\b|\u4e0d\u9002\u7528|\u4e0d\u8981\u7528|\u043d\u0435 \u0434\u043b\u044f|\u043d\u0435 \u0438\u0441\u043f\u043e\u043b\u044c\u0437\u0443\u0439\u0442\u0435|\u043d\u0435 \u043f\u043e\u0434\u0445\u043e\u0434\u0438\u0442/i;

/** Phrases that claim a tool changes nothing; the non-ASCII ones escaped, so the bundle stays one-byte text: 只读, только чтение. */
export const READ_ONLY_WORDING = /\bread[- ]only\b|\bno side[- ]effects?\b|\bdoes not change\b|\bchanges nothing\b|\bnever changes\b|\u53ea\u8bfb|\u0442\u043e\u043b\u044c\u043a\u043e \u0447\u0442\u0435\u043d\u0438\u0435/i;

/** Phrases that tell the model to get the user's go-ahead first; the non-ASCII ones escaped, so the bundle stays one-byte text: 确认, 审批, подтвержд. */
export const CONFIRM_WORDING = /\bconfirm|\bconfirmation\b|\bask (?:the user|for|first)|\bapproval\b|\bapproved by\b|\bexplicit(?:ly)? (?:consent|agree)|\bwith the user's (?:ok|permission|consent)|\u786e\u8ba4|\u5ba1\u6279|\u043f\u043e\u0434\u0442\u0432\u0435\u0440\u0436\u0434/i;

/** Blanks backticked spans and dotted or snake names (`refunds.submit`), so names are not read as verbs. */
export function blankNames(text: string): string {
  return text.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length)).replace(/\b[\w-]+[._][\w.-]+\b/g, (m) => ' '.repeat(m.length));
}

/** The first effect a text asks for or states (imperative or third person), ignoring negated sentences and names. */
export function firstEffect(text: string): TextMatch | undefined {
  const clean = blankNames(text);
  return [...imperatives(clean, EFFECT_IMPERATIVES), ...statements(clean, EFFECT_STATEMENTS)].sort((a, b) => a.index - b.index)[0];
}
