import type { Diagnostic } from '../diagnostics.js';

const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
};

/**
 * Renders one diagnostic the way the CLI prints it:
 *
 * ```
 * manifests/x/mcp.manifest.yaml:12:7 error MG102 tools.tickets.get.sideEffect: message
 *    12 |     sideEffect: sometimes
 *       |                 ^
 *   hint: how to fix
 * ```
 *
 * Without `color`, the text has no escape codes (for files, CI logs and tests).
 */
export function formatDiagnostic(d: Diagnostic, options: { color?: boolean } = {}): string {
  const c = (style: keyof typeof ANSI, s: string): string => (options.color ? `${ANSI[style]}${s}${ANSI.reset}` : s);
  const sev = c(d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'cyan', d.severity);
  const where = d.path ? ` ${d.path}` : '';
  const lines = [`${c('bold', `${d.file}:${d.line}:${d.column}`)} ${sev} ${c('bold', d.code)}${where}: ${d.message}`];
  if (d.sourceLine !== undefined) {
    const gutter = String(d.line).padStart(5);
    const { shown, before } = excerpt(d.sourceLine, d.column);
    // Keep tabs in the caret's indentation so it lines up under tab-indented source.
    const pad = [...before].map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
    lines.push(`${c('dim', `${gutter} |`)} ${shown}`);
    lines.push(`${c('dim', `${' '.repeat(gutter.length)} |`)} ${pad}${c(d.severity === 'error' ? 'red' : 'yellow', '^')}`);
  }
  if (d.hint) lines.push(`  ${c('cyan', 'hint')}: ${d.hint}`);
  return lines.join('\n');
}

/** Past this many characters a source line is shown as a window around the column (a minified JSON manifest is one line). */
const LONG_LINE = 160;
/** The window: this many characters before the column, and up to `WINDOW` in all. */
const LEAD = 40;
const WINDOW = 120;

/**
 * The part of a source line to show, and what of it stands before the 1-based `column`: the whole line,
 * or for a long one a window around the column, each end that cuts the line marked `…`. A window never
 * starts or ends inside a surrogate pair.
 */
function excerpt(line: string, column: number): { shown: string; before: string } {
  const at = Math.min(Math.max(0, column - 1), line.length);
  if (line.length <= LONG_LINE) return { shown: line, before: line.slice(0, at) };
  let start = Math.max(0, Math.min(at - LEAD, line.length - WINDOW));
  let end = Math.min(line.length, start + WINDOW);
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start++;
  if (end < line.length && isLowSurrogate(line.charCodeAt(end))) end--;
  const head = start > 0 ? '…' : '';
  return { shown: `${head}${line.slice(start, end)}${end < line.length ? '…' : ''}`, before: `${head}${line.slice(start, at)}` };
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
