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

  it('adds ANSI colours only when asked', () => {
    expect(formatDiagnostic(d)).not.toContain('\u001b[');
    const coloured = formatDiagnostic(d, { color: true });
    expect(coloured).toContain('\u001b[31merror\u001b[0m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(formatDiagnostic(d));
  });
});
