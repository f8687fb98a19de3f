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
    // Keep tabs in the caret's indentation so it lines up under tab-indented source.
    const pad = [...d.sourceLine.slice(0, Math.max(0, d.column - 1))].map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
    lines.push(`${c('dim', `${gutter} |`)} ${d.sourceLine}`);
    lines.push(`${c('dim', `${' '.repeat(gutter.length)} |`)} ${pad}${c(d.severity === 'error' ? 'red' : 'yellow', '^')}`);
  }
  if (d.hint) lines.push(`  ${c('cyan', 'hint')}: ${d.hint}`);
  return lines.join('\n');
}
