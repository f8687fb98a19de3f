import type { Code } from './codes.js';

/** A problem in a URI template, at a character index of the template. */
export interface TemplateProblem {
  readonly code: Code;
  readonly index: number;
  readonly message: string;
  readonly hint: string;
}

/** A parsed URI template: variables in order of first appearance. */
export interface ParsedTemplate {
  readonly variables: readonly string[];
  /** Variable name → index of its first occurrence in the template. */
  readonly positions: ReadonlyMap<string, number>;
  /** The template with every expression replaced by a sample value, to check it is an absolute URI. */
  readonly sample: string;
  readonly problems: readonly TemplateProblem[];
}

const OPERATORS = '+#./;?&';
const VARNAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/**
 * Parses an RFC 6570 template, keeping to what the SDK's matcher supports:
 * levels 1-3, one variable per expression except the `?`/`&` query forms, no
 * explode or prefix modifiers.
 */
export function parseUriTemplate(t: string): ParsedTemplate {
  const variables: string[] = [];
  const positions = new Map<string, number>();
  const problems: TemplateProblem[] = [];
  let sample = '';
  let i = 0;
  while (i < t.length) {
    const open = t.indexOf('{', i);
    const strayClose = t.indexOf('}', i);
    if (strayClose >= 0 && (open < 0 || strayClose < open)) {
      problems.push(syntax(strayClose, 'unmatched `}`'));
      sample += t.slice(i, strayClose);
      i = strayClose + 1;
      continue;
    }
    if (open < 0) break;
    sample += t.slice(i, open);
    const close = t.indexOf('}', open);
    if (close < 0) {
      problems.push(syntax(open, 'unclosed `{`'));
      return { variables, positions, sample, problems };
    }
    sample += expression(t.slice(open + 1, close), open, variables, positions, problems);
    i = close + 1;
  }
  sample += t.slice(i);
  return { variables, positions, sample, problems };
}

function syntax(index: number, what: string): TemplateProblem {
  return { code: 'MG403', index, message: `URI template syntax error: ${what}`, hint: 'write expressions as `{name}`, `{+name}`, `{/name}`, `{?a,b}`…' };
}

function expression(body: string, open: number, variables: string[], positions: Map<string, number>, problems: TemplateProblem[]): string {
  const op = OPERATORS.includes(body[0] ?? '') ? body[0]! : '';
  if ('=,!@|'.includes(body[0] ?? 'x') && body.length > 0) {
    problems.push(syntax(open, `reserved operator \`${body[0]}\``));
    return 'x';
  }
  const names = body.slice(op.length).split(',');
  if (names.length > 1 && op !== '?' && op !== '&') {
    problems.push({
      code: 'MG404',
      index: open,
      message: `\`{${body}}\` has ${names.length} variables; the SDK cannot match such an expression`,
      hint: `write one variable per expression, e.g. \`{${names[0]}}/{${names[1]}}\``,
    });
  }
  let offset = open + 1 + op.length;
  for (const raw of names) {
    const modifier = /(\*|:\d*)$/.exec(raw);
    const name = modifier ? raw.slice(0, modifier.index) : raw;
    if (modifier) {
      problems.push({
        code: 'MG405',
        index: offset,
        message: `\`${raw}\` uses the ${modifier[1] === '*' ? 'explode `*`' : 'prefix `:n`'} modifier, which is not supported`,
        hint: `write \`${name}\` without the modifier`,
      });
    }
    if (!VARNAME.test(name)) problems.push(syntax(offset, `\`${name}\` is not a valid variable name`));
    else if (!positions.has(name)) {
      positions.set(name, offset);
      variables.push(name);
    }
    offset += raw.length + 1;
  }
  return op === '?' || op === '&' ? '' : op === '#' ? '#x' : op && op !== '+' ? `${op}x` : 'x';
}
