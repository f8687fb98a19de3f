import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../generator/diagnostics.js';
import { formatDiagnostic } from '../../generator/manifest/index.js';

const d: Diagnostic = {
  code: 'MG102',
  severity: 'error',
  message: '`sometimes` is not allowed; allowed: read, write, irreversible',
  path: 'tools.tickets.get.sideEffect',
  file: 'manifests/x/mcp.manifest.yaml',
  line: 12,
  column: 17,
  hint: 'use one of: read, write, irreversible',
  sourceLine: '    sideEffect: sometimes',
};

describe('formatDiagnostic', () => {
  it('prints location, severity, code, path, message, source line, caret and hint', () => {
    expect(formatDiagnostic(d)).toBe(
      [
        'manifests/x/mcp.manifest.yaml:12:17 error MG102 tools.tickets.get.sideEffect: `sometimes` is not allowed; allowed: read, write, irreversible',
        '   12 |     sideEffect: sometimes',
        '      |                 ^',
        '  hint: use one of: read, write, irreversible',
      ].join('\n'),
    );
  });

  it('omits the path, the excerpt and the hint when there are none', () => {
    const bare: Diagnostic = { code: 'MG001', severity: 'error', message: 'manifest x does not exist', path: '', file: 'x', line: 1, column: 1 };
    expect(formatDiagnostic(bare)).toBe('x:1:1 error MG001: manifest x does not exist');
  });

  it('labels warnings and keeps tabs in the caret indentation', () => {
    const w: Diagnostic = { ...d, severity: 'warning', code: 'MG306', line: 3, column: 3, sourceLine: '\t\tx: y', hint: undefined };
    expect(formatDiagnostic(w).split('\n').slice(1)).toEqual(['    3 | \t\tx: y', '      | \t\t^']);
    expect(formatDiagnostic(w)).toContain(' warning MG306 ');
  });

  it('shows a window of a long source line around the column, the caret under it', () => {
    // A minified JSON manifest is one line: the excerpt shows 120 characters of it, 40 before the column.
    const line = `{"mcpgen":1,"tools":{${Array.from({ length: 400 }, (_, i) => `"t${i}":{"sideEffect":"read"}`).join(',')}}}`;
    const column = line.indexOf('"t200"') + 1;
    const [, shown, caret] = formatDiagnostic({ ...d, line: 1, column, sourceLine: line, hint: undefined }).split('\n');
    expect(shown).toBe(`    1 | …${line.slice(column - 41, column + 79)}…`);
    expect(caret!.indexOf('^') - '      | '.length).toBe(41);
    expect(shown!.slice(shown!.indexOf('| ') + 2)[caret!.indexOf('^') - '      | '.length]).toBe('"');
    // At either end of the line only the other end is cut.
    expect(formatDiagnostic({ ...d, line: 1, column: 2, sourceLine: line }).split('\n')[1]).toBe(`    1 | ${line.slice(0, 120)}…`);
    const end = formatDiagnostic({ ...d, line: 1, column: line.length, sourceLine: line }).split('\n');
    expect(end[1]).toBe(`    1 | …${line.slice(-120)}`);
    expect(end[2]!.indexOf('^') - '      | '.length).toBe(120);
    // A line of 160 characters or fewer is shown whole; a window does not split a surrogate pair.
    expect(formatDiagnostic({ ...d, column: 150, sourceLine: 'x'.repeat(160) }).split('\n')[1]).toBe(`   12 | ${'x'.repeat(160)}`);
    const emoji = '😀'.repeat(200);
    const cut = formatDiagnostic({ ...d, column: 202, sourceLine: emoji }).split('\n')[1]!;
    expect(cut.slice('   12 | …'.length, -1)).toMatch(/^(?:😀)+$/);
  });

  it('adds ANSI colours only when asked', () => {
    expect(formatDiagnostic(d)).not.toContain('\u001b[');
    const coloured = formatDiagnostic(d, { color: true });
    expect(coloured).toContain('\u001b[31merror\u001b[0m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(formatDiagnostic(d));
  });
});
