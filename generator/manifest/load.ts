import { load } from 'js-yaml';
import type { Diagnostic } from '../diagnostics.js';
import { Reporter } from './report.js';
import { createSourceMap, lazySourceMap, type SourceMap } from './source-map.js';
import { yamlModule } from './yaml-module.js';
import { explainYamlErrors, type YamlError } from './yaml-hints.js';
import { aliasError, expandable, sharingOf, unshare, type Sharing } from './aliases.js';
import { chooseWhole, cutManifest, readInPieces, type LazyEntries, type TopPiece, type YamlMemo } from './yaml-chunks.js';

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
 * unknown tags), a directive but `%YAML 1.2` (`%YAML 1.1` changes the schema), a value other
 * than plain objects, arrays and scalars (a timestamp), aliases that cannot
 * be expanded (see aliases.ts) or a `null` key (`~:` reads as `""` there).
 * The scalar rules of both parsers are YAML 1.2 core, and both answer an
 * alias with its anchor's object; the value returned is a tree (aliases
 * expanded). With a `memo`, a piece with an alias is read after the pieces
 * that may define its anchors (yaml-chunks.ts `AliasContexts`); a text that
 * cannot be read so is read whole, and its entries are then offered to
 * `lazy` keyed by their values.
 */
function quickParse(text: string, memo: YamlMemo | undefined, lazy: LazyEntries | undefined, cut: () => readonly TopPiece[] | undefined): unknown {
  // `%YAML 1.2` names the version both parsers read; any other directive is the full parse's to judge.
  if (/^%(?!YAML[ \t]+1\.2(?:[ \t]|\r?$))/m.test(text)) return undefined;
  let value: unknown;
  try {
    const pieced = memo !== undefined ? readInPieces(text, plainLoad, memo, lazy, cut(), sharedLoad) : undefined;
    if (pieced !== undefined) return pieced;
    value = load(text);
  } catch {
    return undefined;
  }
  const shared = { found: false };
  if (value === undefined || value === null || typeof value !== 'object' || !plainValue(value, new Set(), shared)) return undefined;
  const tree = shared.found ? expanded(value, sharingOf(value)) : value;
  const pieces = memo !== undefined && lazy !== undefined && tree !== undefined ? cut() : undefined;
  if (pieces !== undefined) chooseWhole(tree as Record<string, unknown>, pieces, lazy!);
  return tree;
}

/** `value` as a tree, or undefined when its aliases cannot be expanded. */
const expanded = (value: unknown, sharing: Sharing): unknown => (!expandable(sharing) ? undefined : sharing.kind === 'tree' ? value : unshare(value));

/** A piece read alone; one with a shared node fails (the whole text is then read, and its aliases expanded). */
function plainLoad(text: string): unknown {
  const v = load(text);
  const shared = { found: false };
  if (v !== null && typeof v === 'object' && (!plainValue(v, new Set(), shared) || shared.found)) throw new Error('a shared node');
  return v;
}

/** A piece read with the pieces its aliases name (yaml-chunks.ts `AliasContexts`): shared nodes stay shared, for the caller to measure. */
function sharedLoad(text: string): unknown {
  const v = load(text);
  if (v !== null && typeof v === 'object' && !plainValue(v, new Set(), { found: false })) throw new Error('not plain data');
  return v;
}

/**
 * True when every object reachable is a plain object or an array and no mapping has a `null` key; notes in
 * `shared` an object reached twice (an alias).
 */
function plainValue(value: object, seen: Set<object>, shared: { found: boolean }): boolean {
  if (seen.has(value)) return (shared.found = true);
  seen.add(value);
  if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === 'object' && !plainValue(v as object, seen, shared)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const k in value) {
    if (k === 'null') return false;
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object' && !plainValue(v, seen, shared)) return false;
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
  // No alias limit here: aliases.ts measures what they add, in time linear in the text.
  const shared = doc.toJS({ maxAliasCount: -1 }) as unknown;
  const sharing = sharingOf(shared);
  const value = expanded(shared, sharing);
  if (value === undefined) {
    const at = lineCounter.linePos(aliasOffset(doc, sharing));
    reporter.add(aliasError(sharing), { path: [], position: { line: at.line, column: at.col } });
    return { map, diagnostics: reporter.diagnostics };
  }
  return { value, map, diagnostics: reporter.diagnostics };
}

/**
 * Where to report aliases that cannot be expanded: the first alias inside the node it names (a cycle), or
 * else the first of the aliases naming the largest node.
 */
function aliasOffset(doc: import('yaml').Document, sharing: Sharing): number {
  const { isAlias, isMap, isPair, isSeq, visit } = yamlModule();
  type Node = import('yaml').Node;
  const latest = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  const size = (n: unknown): number => {
    if (isAlias(n)) {
      const source = latest.get(n.source);
      return source === undefined ? 1 : size(source);
    }
    if (!isMap(n) && !isSeq(n)) return 1;
    const known = sizes.get(n);
    if (known !== undefined) return known;
    sizes.set(n, 1);
    let total = 1;
    for (const item of n.items) total += size(isPair(item) ? item.value : item);
    sizes.set(n, total);
    return total;
  };
  let best: { offset: number; size: number } | undefined;
  visit(doc, {
    Node: (_key, node, path) => {
      if (!isAlias(node)) {
        if (node.anchor) latest.set(node.anchor, node);
        return undefined;
      }
      const source = latest.get(node.source);
      const offset = node.range?.[0] ?? 0;
      if (sharing.kind === 'cycle') {
        if (source !== undefined && path.includes(source)) {
          best = { offset, size: Infinity };
          return visit.BREAK;
        }
        return undefined;
      }
      const n = size(node);
      if (best === undefined || n > best.size) best = { offset, size: n };
      return undefined;
    },
  });
  return best?.offset ?? 0;
}

