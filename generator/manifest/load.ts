import { LineCounter, parseDocument } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';
import { Reporter } from './report.js';
import { createSourceMap, type SourceMap } from './source-map.js';

/** A parsed YAML (or JSON) file: its plain value and a map back to source positions. */
export interface ParsedFile {
  /** The plain JS value; absent when the file has syntax errors. */
  readonly value?: unknown;
  readonly map: SourceMap;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Parses YAML text keeping positions. Syntax errors and duplicate keys become
 * located diagnostics (MG002, MG003); JSON files go through here too, since
 * JSON is YAML, so `$ref`'d files get positions for free.
 */
export function parseYaml(text: string, file: string): ParsedFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, keepSourceTokens: false });
  const map = createSourceMap(doc, lineCounter, text);
  const reporter = new Reporter(file, map);
  for (const err of doc.errors) {
    const p = lineCounter.linePos(err.pos[0]);
    const duplicate = err.code === 'DUPLICATE_KEY';
    reporter.add(
      {
        code: duplicate ? 'MG003' : 'MG002',
        message: duplicate ? 'duplicate key: a key may appear only once in a mapping' : yamlMessage(err.message),
        hint: duplicate
          ? 'remove or rename one of the two keys; YAML would otherwise keep only one silently'
          : 'fix the YAML syntax at this position (check indentation, quotes and brackets)',
      },
      { path: [], position: { line: p.line, column: p.col } },
    );
  }
  if (reporter.failed) return { map, diagnostics: reporter.diagnostics };
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, map, diagnostics: reporter.diagnostics };
}

/** The yaml package's message without its trailing position excerpt. */
function yamlMessage(message: string): string {
  return `YAML syntax error: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
}
