/**
 * The regular expression engine behind every `pattern` and `patternProperties`
 * the runtime checks: RE2 (the pure JavaScript port `re2js`), whose matching
 * time is linear in the input, so a pattern such as `^(\w+\s?)*$` cannot stall
 * the event loop however the argument is crafted.
 *
 * RE2 has no lookaround and no backreferences. A pattern that needs them is
 * matched with the JavaScript engine instead (backtracking); `mcp-gen lint`
 * reports such patterns (MG725) so the author can rewrite them.
 */
import { createRequire } from 'node:module';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

type Re2 = typeof import('re2js').RE2JS;

// Loaded with the first pattern that compiles, like Ajv itself (cold start).
const require = createRequire(import.meta.url);
let re2: Re2 | undefined;

/** Patterns whose RE2 form failed to compile, and so run on the backtracking engine. */
const backtracking = new Set<string>();

/** Compiles `pattern` for linear-time matching; falls back to `RegExp` where RE2 lacks the syntax. */
function compile(pattern: string, flags: string): RegExpLike {
  re2 ??= (require('re2js') as typeof import('re2js')).RE2JS;
  try {
    const compiled = re2.compile(re2.translateRegExp(pattern));
    // `test` searches anywhere, as `RegExp.prototype.test` does (JSON Schema patterns are not anchored),
    // and asks for no capture groups, so RE2 answers on its DFA where it can, with no `Matcher` made per
    // call (`matcher(text).find()` gives the same answer at about twice the cost).
    // Ajv keys its compiled patterns by `toString()`: it must name the pattern, as a RegExp's does.
    const source = `/${pattern}/${flags}`;
    return { test: (text: string) => compiled.test(text), toString: () => source } as RegExpLike;
  } catch {
    backtracking.add(pattern);
    return new RegExp(pattern, flags);
  }
}

/** The Ajv `code.regExp` option: every schema pattern goes through {@link compile}. */
export const linearRegExp: RegExpEngine = Object.assign(compile, { code: 'mcpgen.linearRegExp' });

/** True when `pattern` runs in linear time here (RE2 accepts it). */
export function isLinear(pattern: string): boolean {
  compile(pattern, 'u');
  return !backtracking.has(pattern);
}
