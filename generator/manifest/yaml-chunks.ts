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

/** The entries of a section piece, when its body is a block mapping of plain keys cut at each of them. */
function entriesOf(p: Piece): Piece[] | undefined {
  if (!SPLIT.has(p.key)) return undefined;
  const [head, ...body] = linesOf(p.text);
  const first = body.find((l) => !quiet(l.replace(/\n$/, '')));
  const indent = first === undefined ? 0 : first.length - first.trimStart().length;
  const split = /^[A-Za-z_][A-Za-z0-9_.-]*:[ \t]*\r?\n$/.test(head ?? '') && indent > 0;
  const entries = split ? cut(body, indent) : undefined;
  return entries === undefined || entries.length === 0 ? undefined : entries;
}

/** A section's value, entry by entry when it is cut into entries, else as one piece. */
function sectionValue(p: Piece, entries: readonly Piece[] | undefined, read: ReadYaml, memo: YamlMemo, lazy?: (e: Piece) => boolean): { value: unknown } | undefined {
  if (entries === undefined) return pieceValue(p, read, memo);
  const out: Record<string, unknown> = {};
  for (const e of entries) {
    if (lazy?.(e)) {
      deferred(out, e, read, memo);
      continue;
    }
    const v = pieceValue(e, read, memo);
    if (v === undefined) return undefined;
    out[e.key] = v.value;
  }
  return { value: out };
}

/**
 * An entry read on first use: a property that reads its piece when first got, then holds the value. Only
 * an entry whose text read alone before is deferred (`LazyEntries`), so it reads alone again.
 */
function deferred(out: Record<string, unknown>, e: Piece, read: ReadYaml, memo: YamlMemo): void {
  Object.defineProperty(out, e.key, {
    enumerable: true,
    configurable: true,
    get() {
      const v = pieceValue(e, read, memo);
      if (v === undefined) throw new Error(`internal error: the manifest entry \`${e.key}\` no longer reads on its own`);
      Object.defineProperty(out, e.key, { value: v.value, enumerable: true, configurable: true, writable: true });
      return v.value;
    },
  });
}

/** The sections whose entries may be left unread (see `LazyEntries`). */
const PRIMITIVES = new Set(['tools', 'resources', 'prompts']);

/**
 * Which entries of `tools:`, `resources:` and `prompts:` to leave unread until something gets them: asked
 * once every other top-level key is read, with their values (see `EntryMemo`, which knows the entries an
 * earlier run kept the results of).
 */
export interface LazyEntries {
  choose(rest: Readonly<Record<string, unknown>>): ((section: string, name: string, text: string) => boolean) | undefined;
}

/**
 * The value of a manifest's text read piece by piece, or undefined when the text is not cut at plain
 * keys only (then it must be read whole) or a piece does not read alone. Every key but `tools:`,
 * `resources:` and `prompts:` is read first; with `lazy`, those sections' entries it chooses are left
 * unread, as properties that read them when got.
 */
export function readInPieces(text: string, read: ReadYaml, memo: YamlMemo, lazy?: LazyEntries): Record<string, unknown> | undefined {
  if (text.startsWith('\uFEFF') || text.includes('\t')) return undefined;
  const pieces = cut(linesOf(text), 0);
  if (pieces === undefined || pieces.length === 0) return undefined;
  const cuts = new Map(pieces.map((p) => [p.key, entriesOf(p)]));
  const values = new Map<string, unknown>();
  for (const p of pieces) {
    if (PRIMITIVES.has(p.key)) continue;
    const v = sectionValue(p, cuts.get(p.key), read, memo);
    if (v === undefined) return undefined;
    values.set(p.key, v.value);
  }
  const choose = lazy?.choose(Object.fromEntries(values));
  const out: Record<string, unknown> = {};
  for (const p of pieces) {
    if (!PRIMITIVES.has(p.key)) {
      out[p.key] = values.get(p.key);
      continue;
    }
    const v = sectionValue(p, cuts.get(p.key), read, memo, choose && ((e) => choose(p.key, e.key, e.text)));
    if (v === undefined) return undefined;
    out[p.key] = v.value;
  }
  return out;
}
