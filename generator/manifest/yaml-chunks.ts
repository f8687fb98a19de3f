/**
 * Reading a manifest piece by piece, so that a run after a one-primitive change parses only the entry
 * that changed: the text is cut before every top-level key and, inside `tools:`, `resources:`, `prompts:`
 * and `schemas:`, before every entry; each piece is read on its own by `read` (js-yaml), or taken from
 * `memo` when the same text was read before. The cut is made only where it cannot change the value:
 * before a line that is a plain key at the indentation of its mapping, in a text where every other line
 * at that indentation is blank or a comment. Anything else (a directive, a document marker, a flow or
 * sequence at the top, a quoted or odd key, a duplicate key, a piece that does not read as the one key it
 * starts with) answers `undefined`, and the caller reads the text whole as before.
 */

/** Reads one piece of YAML; throws on a syntax error. */
export type ReadYaml = (text: string) => unknown;

/** Pieces read before, by their exact text: `[value]`, or `[]` for a piece that could not be read alone. */
export interface YamlMemo {
  piece(text: string, read: () => readonly unknown[]): readonly unknown[];
}

/** The sections whose entries are pieces of their own. */
const SPLIT = new Set(['tools', 'resources', 'prompts', 'schemas']);
const KEY = /^([A-Za-z_][A-Za-z0-9_./-]*):(?:[ \t]|\r?$)/;
const quiet = (line: string) => /^[ \t]*(?:#.*)?\r?$/.test(line);

interface Piece {
  readonly key: string;
  /** The piece's exact text: the pieces of a text, joined, are the text (less comments before the first). */
  readonly text: string;
}

/** `text` cut into lines, each with the newline that ends it. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Cuts `lines` before each key at column `indent`; undefined when another line sits at or left of it. */
function cut(lines: readonly string[], indent: number): Piece[] | undefined {
  const pieces: { key: string; text: string }[] = [];
  const prefix = ' '.repeat(indent);
  for (const line of lines) {
    const last = pieces[pieces.length - 1];
    if (quiet(line.replace(/\n$/, ''))) {
      if (last) last.text += line;
      continue;
    }
    if (line.startsWith(prefix) && line[indent] === ' ') {
      if (!last) return undefined;
      last.text += line;
      continue;
    }
    const key = line.startsWith(prefix) ? KEY.exec(line.slice(indent).replace(/\n$/, ''))?.[1] : undefined;
    if (key === undefined || key === '__proto__') return undefined;
    pieces.push({ key, text: line });
  }
  return new Set(pieces.map((p) => p.key)).size === pieces.length ? pieces : undefined;
}

/** One piece's value: it must read as a mapping of exactly its own key. */
function pieceValue(p: Piece, read: ReadYaml, memo: YamlMemo): { value: unknown } | undefined {
  const got = memo.piece(p.text, () => {
    try {
      const v = read(p.text);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
      const keys = Object.keys(v);
      return keys.length === 1 && keys[0] === p.key ? [(v as Record<string, unknown>)[p.key]] : [];
    } catch {
      return [];
    }
  });
  return got.length === 1 ? { value: got[0] } : undefined;
}

/** A section's value, entry by entry when its body is a block mapping of plain keys, else as one piece. */
function sectionValue(p: Piece, read: ReadYaml, memo: YamlMemo): { value: unknown } | undefined {
  const [head, ...body] = linesOf(p.text);
  const first = body.find((l) => !quiet(l.replace(/\n$/, '')));
  const indent = first === undefined ? 0 : first.length - first.trimStart().length;
  const split = SPLIT.has(p.key) && /^[A-Za-z_][A-Za-z0-9_.-]*:[ \t]*\r?\n$/.test(head ?? '') && indent > 0;
  const entries = split ? cut(body, indent) : undefined;
  if (entries === undefined || entries.length === 0) return pieceValue(p, read, memo);
  const out: Record<string, unknown> = {};
  for (const e of entries) {
    const v = pieceValue(e, read, memo);
    if (v === undefined) return undefined;
    out[e.key] = v.value;
  }
  return { value: out };
}

/**
 * The value of a manifest's text read piece by piece, or undefined when the text is not cut at plain
 * keys only (then it must be read whole) or a piece does not read alone.
 */
export function readInPieces(text: string, read: ReadYaml, memo: YamlMemo): Record<string, unknown> | undefined {
  if (text.startsWith('\uFEFF') || text.includes('\t')) return undefined;
  const pieces = cut(linesOf(text), 0);
  if (pieces === undefined || pieces.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const p of pieces) {
    const v = sectionValue(p, read, memo);
    if (v === undefined) return undefined;
    out[p.key] = v.value;
  }
  return out;
}
