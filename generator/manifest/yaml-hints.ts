/**
 * YAML syntax errors explained in the manifest author's terms. The parser reports what it saw ("Nested
 * mappings are not allowed in compact mappings"); the author needs what to type. One mistake also yields
 * one error: a slipped indentation makes every later sibling "start at the wrong column" too, so only the
 * first such error is kept, and a second error on a line already reported is dropped.
 */

/** A parser error: its code, message and 1-based position. */
export interface YamlError {
  readonly code: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** An error ready to report: message, hint and where. */
export interface ExplainedError {
  readonly message: string;
  readonly hint: string;
  readonly line: number;
  readonly column: number;
}

const GENERIC_HINT = 'fix the YAML syntax at this position (check indentation, quotes and brackets)';

/** The yaml package's message without its trailing position excerpt. */
function parserMessage(message: string): string {
  return `YAML syntax error: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
}

const indentOf = (text: string): number => /^ */.exec(text)![0].length;

/** `key: value: more` read as a nested mapping: the value needs quotes. */
function unquotedColon(e: YamlError, text: string): ExplainedError | undefined {
  const m = /^(\s*(?:- )?)([^\s:#'"][^:#]*):\s+([^'"{[].*:\s.*?)\s*$/.exec(text);
  if (!m) return undefined;
  const [, lead, key, value] = m as unknown as [string, string, string, string];
  const quoted = `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return {
    message: `the value of \`${key.trim()}\` contains \`: \`, which YAML reads as the start of another key`,
    hint: `quote the whole value: ${lead.trimStart()}${key.trim()}: ${quoted}`,
    line: e.line,
    column: lead.length + key.length + 3,
  };
}

/** A key indented differently from the keys around it. */
function slippedIndent(e: YamlError, lines: readonly string[]): ExplainedError | undefined {
  const text = lines[e.line - 1] ?? '';
  // Only a key line can be a slipped key; elsewhere (an unclosed bracket at the end) the parser's word stands.
  if (!/^\s*(?:- )?[^\s#'"{[][^:]*:(\s|$)/.test(text)) return undefined;
  const own = indentOf(text);
  const content = (l: string | undefined): boolean => l !== undefined && l.trim() !== '' && !l.trim().startsWith('#');
  let sibling: number | undefined;
  for (let i = e.line - 2; i >= 0; i--) {
    if (content(lines[i]) && indentOf(lines[i]!) !== own) {
      sibling = indentOf(lines[i]!);
      break;
    }
  }
  const key = text.trim().split(':')[0];
  const where = sibling === undefined ? '' : ` and the line above it ${sibling}`;
  return {
    message: `\`${key}\` is indented ${own} space${own === 1 ? '' : 's'}${where}: keys of one mapping must start at the same column`,
    hint: sibling === undefined ? 'indent it like the other keys of its mapping' : `indent it ${sibling} spaces, like the key above it (YAML nests by indentation, so one space changes the structure)`,
    line: e.line,
    column: own + 1,
  };
}

/** Every parser error worth reporting, explained where a common mistake is recognised. */
export function explainYamlErrors(errors: readonly YamlError[], source: string): ExplainedError[] {
  const lines = source.split(/\r?\n/);
  const out: ExplainedError[] = [];
  const reportedLines = new Set<number>();
  let indentReported = false;
  for (const e of errors) {
    if (reportedLines.has(e.line)) continue;
    if (e.code === 'BAD_INDENT' && indentReported) continue;
    const text = lines[e.line - 1] ?? '';
    const explained =
      (e.code === 'BLOCK_AS_IMPLICIT_KEY' ? unquotedColon(e, text) : undefined) ??
      (e.code === 'BAD_INDENT' ? slippedIndent(e, lines) : undefined) ??
      { message: parserMessage(e.message), hint: GENERIC_HINT, line: e.line, column: e.column };
    if (e.code === 'BAD_INDENT') indentReported = true;
    reportedLines.add(e.line);
    out.push(explained);
  }
  return out;
}
