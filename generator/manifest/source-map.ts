import type { Document, LineCounter, Node } from 'yaml';
import { cutManifest, type Piece, type TopPiece } from './yaml-chunks.js';
import { yamlModule } from './yaml-module.js';

/** A path into a parsed document: mapping keys and sequence indexes. */
export type ManifestPath = readonly (string | number)[];

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Maps manifest paths back to source positions. Every later phase reports
 * through it, so a finding always points at the key or value it is about.
 */
export interface SourceMap {
  /** Where the key (`at: 'key'`) or value at `path` starts; the deepest existing ancestor's key when absent. */
  locate(path: ManifestPath, at?: 'key' | 'value'): Position;
  /** Where the `index`-th character of the string value at `path` is, when the scalar's source can be mapped exactly. */
  locateInString(path: ManifestPath, index: number): Position;
  /** Mapping keys at `path` in source order (JS objects reorder integer-like keys). */
  keyOrder(path: ManifestPath): string[];
  /** The text of a 1-based source line. */
  lineText(line: number): string | undefined;
  /**
   * The piece of the text `path` lies in, when the text is cut into pieces (see `SourcePiece`): the
   * entry of `tools:`, `resources:`, `prompts:` or `schemas:` it names, else its top-level key's piece.
   */
  pieceOf?(path: ManifestPath): SourcePiece | undefined;
}

/**
 * A part of the manifest text that can be parsed for positions on its own: one top-level key with its
 * value, or one entry of `tools:`, `resources:`, `prompts:` or `schemas:`. It is cut only where the
 * text is cut the same way for reading (see yaml-chunks.ts): before a plain key at the indentation of
 * its mapping, in a text without tabs where every other line at that indentation is blank or a comment.
 * A position inside it is then a function of its text alone, so it can be found, and kept, by parsing
 * the piece rather than the whole manifest.
 */
export interface SourcePiece {
  /** `[key]` for a top-level piece, `[section, entry]` for an entry. */
  readonly path: ManifestPath;
  /** Its exact text, from the start of its first line to the end of its last. */
  readonly text: string;
  /** Its first and last 1-based line in the whole text. */
  readonly from: number;
  readonly to: number;
  /**
   * The 1-based columns of its first character on line `from` and of its last on line `to`: 1 and
   * `Infinity` for a piece of whole lines; a JSON member cut at offsets (yaml-chunks.ts) may start and
   * end inside a line.
   */
  readonly column: number;
  readonly lastColumn: number;
  /** The text of line `from`, as `SourceMap.lineText` gives it. */
  firstLine(): string;
  /** `SourceMap.locate` inside the piece, or undefined when the piece does not parse alone as its one key. */
  locate(path: ManifestPath, at?: 'key' | 'value'): Position | undefined;
  /** `SourceMap.locateInString` inside the piece, or undefined as for `locate`. */
  locateInString(path: ManifestPath, index: number): Position | undefined;
}

interface Found {
  readonly key?: Node;
  readonly value?: Node | null;
  readonly exact: boolean;
}

function walk(doc: Document, path: ManifestPath): Found {
  const { isMap, isSeq, isScalar } = yamlModule();
  let value = doc.contents as Node | null;
  let key: Node | undefined;
  for (const seg of path) {
    if (isMap(value)) {
      const pair = value.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return { key, value, exact: false };
      key = pair.key as Node;
      value = pair.value as Node | null;
    } else if (isSeq(value) && typeof seg === 'number' && seg < value.items.length) {
      value = value.items[seg] as Node | null;
      key = value ?? key;
    } else {
      return { key, value, exact: false };
    }
  }
  return { key, value, exact: true };
}

/** Builds the source map of one parsed YAML document. */
export function createSourceMap(doc: Document, lineCounter: LineCounter, source: string): SourceMap {
  const { isMap, isScalar } = yamlModule();
  const lines = source.split(/\r?\n/);
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const start = (n: Node | null | undefined): number | undefined => n?.range?.[0];

  const locate = (path: ManifestPath, at: 'key' | 'value' = 'value'): Position => {
    const f = walk(doc, path);
    const preferValue = f.exact && at === 'value';
    const offset = (preferValue ? start(f.value) : undefined) ?? start(f.key) ?? start(f.value) ?? 0;
    return pos(offset);
  };

  const locateInString = (path: ManifestPath, index: number): Position => {
    const f = walk(doc, path);
    const node = f.value;
    if (!f.exact || !isScalar(node) || typeof node.value !== 'string' || !node.range) return locate(path);
    const value = node.value;
    const s = node.range[0];
    if (node.type === 'PLAIN' || node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE') {
      const body = node.type === 'PLAIN' ? s : s + 1;
      // Exact only when the source up to the index is the value verbatim (no escapes, no folding).
      if (source.slice(body, body + index) === value.slice(0, index)) return pos(body + index);
      return pos(s);
    }
    if (node.type === 'BLOCK_LITERAL') {
      const before = value.slice(0, index).split('\n');
      const lineInValue = before.length - 1;
      const valueLine = value.split('\n')[lineInValue] ?? '';
      const header = pos(s).line;
      const srcLine = lines[header + lineInValue] ?? '';
      if (valueLine && srcLine.endsWith(valueLine)) {
        const col = srcLine.length - valueLine.length + (before[lineInValue]?.length ?? 0) + 1;
        return { line: header + lineInValue + 1, column: col };
      }
    }
    return pos(s);
  };

  const keyOrder = (path: ManifestPath): string[] => {
    const f = walk(doc, path);
    if (!f.exact || !isMap(f.value)) return [];
    return f.value.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key));
  };

  return { locate, locateInString, keyOrder, lineText: (line) => lines[line - 1] };
}

/** A canonical array index: JavaScript objects list such keys first, in numeric order. */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;

/**
 * A source map that parses positions only when first asked for one (`full`),
 * so loading a valid manifest never pays for them. Key order comes from the
 * parsed value itself unless a key is integer-like. A position inside a piece
 * of the text (`SourcePiece`) parses that piece only. `cut` is the text cut
 * into pieces, when the caller has it already.
 */
export function lazySourceMap(source: string, value: unknown, full: () => SourceMap, cut?: () => readonly TopPiece[] | undefined): SourceMap {
  let map: SourceMap | undefined;
  let lines: string[] | undefined;
  let pieces: PieceIndex | undefined;
  const positions = (): SourceMap => (map ??= full());
  const lineText = (line: number): string | undefined => (lines ??= source.split(/\r?\n/))[line - 1];
  const pieceOf = (path: ManifestPath): SourcePiece | undefined => (pieces ??= indexPieces(cut ? cut() : cutManifest(source), lineText)).find(path);
  return {
    locate: (path, at) => pieceOf(path)?.locate(path, at) ?? positions().locate(path, at),
    locateInString: (path, index) => pieceOf(path)?.locateInString(path, index) ?? positions().locateInString(path, index),
    keyOrder: (path) => {
      let node: unknown = value;
      for (const seg of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return [];
      const keys = Object.keys(node);
      return keys.some((k) => INDEX_KEY.test(k)) ? positions().keyOrder(path) : keys;
    },
    lineText,
    pieceOf,
  };
}

/** The pieces of one text, found by path. */
interface PieceIndex {
  find(path: ManifestPath): SourcePiece | undefined;
}

/** Indexes the pieces of a text cut by `cutManifest` (none when it is not cut). */
function indexPieces(top: readonly TopPiece[] | undefined, lineText: (line: number) => string | undefined): PieceIndex {
  const byKey = new Map<string, SourcePiece>();
  const piece = (path: ManifestPath, p: Piece): SourcePiece => sourcePiece(path, p, lineText);
  for (const c of top ?? []) {
    byKey.set(c.key, piece([c.key], c));
    for (const e of c.entries ?? []) byKey.set(`${c.key}\u0000${e.key}`, piece([c.key, e.key], e));
  }
  return {
    find: (path) => {
      if (path.length >= 2 && SPLIT.has(String(path[0]))) {
        const entry = byKey.get(`${String(path[0])}\u0000${String(path[1])}`);
        if (entry) return entry;
      }
      return path.length >= 1 ? byKey.get(String(path[0])) : undefined;
    },
  };
}

/** The sections whose entries are pieces of their own (as yaml-chunks.ts cuts them). */
const SPLIT = new Set(['tools', 'resources', 'prompts', 'schemas']);

/**
 * One piece; parsed for positions on first use, once: its text, or for a member of a JSON text `{` + its
 * text + `}`, whose first line is then shifted to the member's column.
 */
function sourcePiece(path: ManifestPath, p: Piece, lineText: (line: number) => string | undefined): SourcePiece {
  const from = p.from + 1;
  const columns = p.columns;
  const positioned = columns !== undefined ? `{${p.text}}` : p.text;
  let parsed: SourceMap | null | undefined;
  const local = (): SourceMap | null => (parsed ??= parsePiece(positioned, String(path[path.length - 1])));
  const inside = (q: ManifestPath): ManifestPath => q.slice(path.length - 1);
  // `{` is one character before the member's first, which is at column `columns.from + 1` of its line.
  const shift = (q: Position): Position => ({ line: q.line + from - 1, column: q.line === 1 && columns !== undefined ? q.column + columns.from - 1 : q.column });
  return {
    path,
    text: p.text,
    from,
    to: p.to + 1,
    column: columns === undefined ? 1 : columns.from + 1,
    lastColumn: columns === undefined ? Infinity : columns.to,
    firstLine: () => {
      if (columns !== undefined) return lineText(from) ?? '';
      const end = p.text.indexOf('\n');
      const first = end < 0 ? p.text : p.text.slice(0, end);
      // The line as `SourceMap.lineText` gives it: lines are split at `\n` and `\r\n`.
      return first.endsWith('\r') ? first.slice(0, -1) : first;
    },
    locate: (q, at) => {
      const m = local();
      return m ? shift(m.locate(inside(q), at)) : undefined;
    },
    locateInString: (q, index) => {
      const m = local();
      return m ? shift(m.locateInString(inside(q), index)) : undefined;
    },
  };
}

/** The source map of a piece parsed alone, or null unless it reads, without an error, as a mapping of exactly `key`. */
function parsePiece(text: string, key: string): SourceMap | null {
  const { LineCounter, parseDocument, isMap, isScalar } = yamlModule();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, keepSourceTokens: false });
  const root = doc.contents;
  if (doc.errors.length > 0 || !isMap(root) || root.items.length !== 1) return null;
  const k = root.items[0]!.key;
  return isScalar(k) && String(k.value) === key ? createSourceMap(doc, lineCounter, text) : null;
}

/** Dotted form of a path for messages: `tools.tickets.get.examples[0].input`. */
export function dotted(path: ManifestPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}
