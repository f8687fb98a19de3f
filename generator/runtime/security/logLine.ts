/**
 * Diagnostic lines written by `ctx.log`. Log text is often data from a request,
 * so it is never written raw: control characters (line breaks included) are
 * escaped and every line starts with `[kind name]`. A log call therefore
 * writes exactly one line, and no line it writes can begin like an audit line
 * (`{"audit":…`), whatever the message holds.
 */

// Line and paragraph separators end lines for some readers too.
const UNSAFE = /[\u0000-\u001f\u007f\u2028\u2029]/g;

/** `text` with every control character written as a `\n`, `\t` or `\uXXXX` escape, and backslashes doubled. */
export function escapeControls(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(UNSAFE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** The one line (newline included) a log call of `primitive` writes. */
export function logLine(primitive: { readonly kind: string; readonly name: string }, level: string, message: string, data: string | undefined): string {
  const suffix = data === undefined ? '' : ` ${escapeControls(data)}`;
  return `[${escapeControls(primitive.kind)} ${escapeControls(primitive.name)}] ${escapeControls(level)}: ${escapeControls(String(message))}${suffix}\n`;
}
