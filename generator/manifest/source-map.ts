import type { Document, LineCounter, Node } from 'yaml';
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
 * parsed value itself unless a key is integer-like.
 */
export function lazySourceMap(source: string, value: unknown, full: () => SourceMap): SourceMap {
  let map: SourceMap | undefined;
  let lines: string[] | undefined;
  const positions = (): SourceMap => (map ??= full());
  return {
    locate: (path, at) => positions().locate(path, at),
    locateInString: (path, index) => positions().locateInString(path, index),
    keyOrder: (path) => {
      let node: unknown = value;
      for (const seg of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return [];
      const keys = Object.keys(node);
      return keys.some((k) => INDEX_KEY.test(k)) ? positions().keyOrder(path) : keys;
    },
    lineText: (line) => (lines ??= source.split(/\r?\n/))[line - 1],
  };
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
