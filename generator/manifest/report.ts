import type { Diagnostic, Severity } from '../diagnostics.js';
import type { Code } from './codes.js';
import { dotted, type ManifestPath, type Position, type SourceMap } from './source-map.js';

/** Where a finding points: a path (key or value) or an exact position. */
export type Anchor =
  | { readonly path: ManifestPath; readonly at?: 'key' | 'value' }
  | { readonly path: ManifestPath; readonly position: Position };

/** One finding before it is located. */
export interface Finding {
  readonly code: Code;
  readonly message: string;
  readonly hint?: string;
  readonly severity?: Severity;
}

/**
 * Collects located diagnostics for one source file. Checks call `error`/`warn`
 * and never stop early, so a run reports every finding at once.
 */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly file: string,
    readonly map: SourceMap,
  ) {}

  /** Records an error located at `path` (the value by default). */
  error(code: Code, path: ManifestPath, message: string, hint?: string, at: 'key' | 'value' = 'value'): void {
    this.add({ code, message, hint }, { path, at });
  }

  /** Records a warning located at `path`. */
  warn(code: Code, path: ManifestPath, message: string, hint?: string, at: 'key' | 'value' = 'value'): void {
    this.add({ code, message, hint, severity: 'warning' }, { path, at });
  }

  /** Records a finding at an anchor. */
  add(f: Finding, anchor: Anchor): void {
    const p = 'position' in anchor ? anchor.position : this.map.locate(anchor.path, anchor.at);
    const sourceLine = this.map.lineText(p.line);
    this.diagnostics.push({
      code: f.code,
      severity: f.severity ?? 'error',
      message: f.message,
      path: dotted(anchor.path),
      file: this.file,
      line: p.line,
      column: p.column,
      ...(f.hint ? { hint: f.hint } : {}),
      ...(sourceLine !== undefined ? { sourceLine } : {}),
    });
  }

  /** True once any error was recorded. */
  get failed(): boolean {
    return this.diagnostics.some((d) => d.severity === 'error');
  }
}
