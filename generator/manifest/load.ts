import { load } from 'js-yaml';
import type { Diagnostic } from '../diagnostics.js';
import { Reporter } from './report.js';
import { createSourceMap, lazySourceMap, type SourceMap } from './source-map.js';
import { yamlModule } from './yaml-module.js';
import { explainYamlErrors, type YamlError } from './yaml-hints.js';
import { cutManifest, readInPieces, type LazyEntries, type TopPiece, type YamlMemo } from './yaml-chunks.js';

/** A parsed YAML (or JSON) file: its plain value and a map back to source positions. */
export interface ParsedFile {
  /** The plain JS value; absent when the file has syntax errors. */
  readonly value?: unknown;
  readonly map: SourceMap;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Parses YAML text. The happy path reads the value with js-yaml (a YAML 1.2
 * core-schema parser several times faster than `yaml`'s position-keeping
 * one) and builds positions only when something asks for one, which on a
 * valid manifest is nothing; see `quickParse` for when it defers to the
 * full parse. With a `memo` (the incremental cache), the pieces of the text
 * read by an earlier run are not read again, and entries `lazy` chooses are
 * read only when got (see `readInPieces`).
 */
export function parseYaml(text: string, file: string, memo?: YamlMemo, lazy?: LazyEntries): ParsedFile {
  let pieces: readonly TopPiece[] | undefined | null = null;
  const cut = () => (pieces === null ? (pieces = cutManifest(text)) : pieces);
  const value = quickParse(text, memo, lazy, cut);
  if (value === undefined) return parseYamlWithPositions(text, file);
  return { value, map: lazySourceMap(text, value, () => parseYamlWithPositions(text, file).map, cut), diagnostics: [] };
}

/**
 * The value of a YAML file with no errors, or undefined when the full parse
 * must decide: any js-yaml error (syntax, duplicate keys, multiple documents,
 * unknown tags), a directive (`%YAML 1.1` changes the schema), a shared
 * node (an alias: the full parse enforces the alias limit) or a `null` key
 * (`~:` reads as `""` there). The scalar rules of both parsers are YAML 1.2 core.
 * A value read in pieces is plain already: each piece was read alone by `plainLoad`.
 */
function quickParse(text: string, memo: YamlMemo | undefined, lazy: LazyEntries | undefined, cut: () => readonly TopPiece[] | undefined): unknown {
  if (/^%/m.test(text)) return undefined;
  let value: unknown;
  try {
    const pieced = memo !== undefined ? readInPieces(text, plainLoad, memo, lazy, cut()) : undefined;
    if (pieced !== undefined) return pieced;
    value = load(text);
  } catch {
    return undefined;
  }
  if (value === undefined || value === null || typeof value !== 'object') return undefined;
  return plainTree(value, new Set()) ? value : undefined;
}

/** A piece read alone; one with a shared node fails (the whole text must then be read by the full parse). */
function plainLoad(text: string): unknown {
  const v = load(text);
  if (v !== null && typeof v === 'object' && !plainTree(v, new Set())) throw new Error('a shared node');
  return v;
}

/** True when no object or array is reachable twice and no mapping has a `null` key. */
function plainTree(value: object, seen: Set<object>): boolean {
  if (seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === 'object' && !plainTree(v as object, seen)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const k in value) {
    if (k === 'null') return false;
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object' && !plainTree(v, seen)) return false;
  }
  return true;
}

/**
 * Parses YAML text keeping positions. Syntax errors and duplicate keys become
 * located diagnostics (MG002, MG003); JSON files go through here too, since
 * JSON is YAML, so `$ref`'d files get positions for free.
 */
export function parseYamlWithPositions(text: string, file: string): ParsedFile {
  const { LineCounter, parseDocument } = yamlModule();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, keepSourceTokens: false });
  const map = createSourceMap(doc, lineCounter, text);
  const reporter = new Reporter(file, map);
  const syntax: YamlError[] = [];
  for (const err of doc.errors) {
    const p = lineCounter.linePos(err.pos[0]);
    if (err.code !== 'DUPLICATE_KEY') {
      syntax.push({ code: err.code, message: err.message, line: p.line, column: p.col });
      continue;
    }
    reporter.add(
      { code: 'MG003', message: 'duplicate key: a key may appear only once in a mapping', hint: 'remove or rename one of the two keys; YAML would otherwise keep only one silently' },
      { path: [], position: { line: p.line, column: p.col } },
    );
  }
  for (const e of explainYamlErrors(syntax, text)) {
    reporter.add({ code: 'MG002', message: e.message, hint: e.hint }, { path: [], position: { line: e.line, column: e.column } });
  }
  if (reporter.failed) return { map, diagnostics: reporter.diagnostics };
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, map, diagnostics: reporter.diagnostics };
}

