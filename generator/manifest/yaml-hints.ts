/**
 * YAML syntax errors explained in the manifest author's terms. The parser reports what it saw ("Nested
 * mappings are not allowed in compact mappings"); the author needs what to type. One mistake also yields
 * one error: a slipped indentation or a tab throws the parser's idea of the structure off for the rest of
 * the file, so every later "wrong column", "nested mapping" or "implicit key" error follows from it; only
 * the first error of that kind is kept, and a second error on a line already reported is dropped.
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

/** A tab in the indentation, which YAML forbids. */
function tabIndent(e: YamlError): ExplainedError {
  return {
    message: 'this line is indented with a tab, and YAML indents with spaces only',
    hint: 'replace the tab with spaces (as many as the keys of its mapping use); set your editor to insert spaces in .yaml files',
    line: e.line,
    column: e.column,
  };
}

/** A key indented differently from the keys around it. */
function slippedIndent(e: YamlError, lines: readonly string[]): ExplainedError | undefined {
  const text = lines[e.line - 1] ?? '';
  // Only a key line can be a slipped key; elsewhere (an unclosed bracket at the end) the parser's word stands.
  if (!KEY_LINE.test(text)) return undefined;
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

/** Parser errors that come from the nesting being off: after the first, the rest follow from it. */
const STRUCTURE = new Set(['BAD_INDENT', 'TAB_AS_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);

const KEY_LINE = /^\s*(?:- )?[^\s#'"{[][^:]*:(\s|$)/;

/** `key: value` followed by a key indented deeper, which YAML reads as more of the value. */
function deeperKey(e: YamlError, lines: readonly string[]): ExplainedError | undefined {
  const text = lines[e.line - 1] ?? '';
  if (!KEY_LINE.test(text)) return undefined;
  let next = e.line;
  while (next < lines.length && (lines[next]!.trim() === '' || lines[next]!.trim().startsWith('#'))) next++;
  const below = lines[next];
  if (below === undefined || !KEY_LINE.test(below) || indentOf(below) <= indentOf(text)) return undefined;
  const key = text.trim().replace(/^- /, '').split(':')[0];
  const deeper = below.trim().replace(/^- /, '').split(':')[0];
  let prev = e.line - 2;
  while (prev >= 0 && (lines[prev]!.trim() === '' || lines[prev]!.trim().startsWith('#'))) prev--;
  const above = prev >= 0 ? lines[prev]! : '';
  if (/^\s*[^\s#'"{[][^:]*:\s*$/.test(above) && indentOf(above) === indentOf(text)) {
    // `output:` then `type: object` at its column: `output` is left empty, and `type` was meant to go inside it.
    const parent = above.trim().slice(0, -1);
    return {
      message: `\`${key}\` is at the same column as \`${parent}:\` above it, so \`${parent}\` is left empty and YAML reads \`${deeper}\` (line ${next + 1}) as more of \`${key}\`'s value`,
      hint: `indent \`${key}\` ${indentOf(below)} spaces, like \`${deeper}\`, so both go inside \`${parent}\``,
      line: e.line,
      column: indentOf(text) + 1,
    };
  }
  return {
    message: `\`${deeper}\` (line ${next + 1}) is indented ${indentOf(below)} spaces, deeper than \`${key}\` above it (${indentOf(text)}), which already has a value: YAML reads it as more of that value`,
    hint: `indent \`${deeper}\` ${indentOf(text)} spaces, like \`${key}\`; or, if \`${key}\` was meant to hold it, put nothing after \`${key}:\``,
    line: next + 1,
    column: indentOf(below) + 1,
  };
}

/** Every parser error worth reporting, explained where a common mistake is recognised. */
export function explainYamlErrors(errors: readonly YamlError[], source: string): ExplainedError[] {
  const lines = source.split(/\r?\n/);
  const out: ExplainedError[] = [];
  const reportedLines = new Set<number>();
  let structureReported = false;
  for (const e of errors) {
    if (reportedLines.has(e.line)) continue;
    if (STRUCTURE.has(e.code) && structureReported) continue;
    const text = lines[e.line - 1] ?? '';
    const explained =
      (e.code === 'BLOCK_AS_IMPLICIT_KEY' ? unquotedColon(e, text) ?? deeperKey(e, lines) : undefined) ??
      (e.code === 'BAD_INDENT' ? slippedIndent(e, lines) : undefined) ??
      (e.code === 'TAB_AS_INDENT' ? tabIndent(e) : undefined) ??
      { message: parserMessage(e.message), hint: GENERIC_HINT, line: e.line, column: e.column };
    if (STRUCTURE.has(e.code)) structureReported = true;
    reportedLines.add(e.line);
    out.push(explained);
  }
  return out;
}
