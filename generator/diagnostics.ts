/** Where a diagnostic points: a file and a 1-based line and column. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** How serious a finding is: errors block generation, warnings and hints do not. */
export type Severity = 'error' | 'warning' | 'hint';

/**
 * One finding about a manifest. `path` is the manifest path in dotted form
 * (`tools.tickets.get.sideEffect`); `hint` says how to fix it.
 */
export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly path: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly hint?: string;
  /** The text of the offending source line, without its line break. */
  readonly sourceLine?: string;
}

/**
 * Thrown for problems the user can fix (bad manifest, bad arguments).
 * The CLI prints these without a stack trace.
 */
export class UserError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.name = 'UserError';
    this.diagnostics = diagnostics;
  }
}

/** True when any diagnostic in the list is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Sorts diagnostics by file, line, column, then code, for stable output. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code),
  );
}
