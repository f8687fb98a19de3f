/**
 * Reading a manifest piece by piece, so that a run after a one-primitive change parses only the entry
 * that changed: the text is cut before every top-level key and, inside `tools:`, `resources:`, `prompts:`
 * and `schemas:`, before every entry; each piece is read on its own by `read` (js-yaml), or taken from
 * `memo` when the same text was read before. The cut is made only where it cannot change the value:
 * before a line that is a key at the indentation of its mapping (plain, or quoted without escapes: see
 * `KEY`), in a text where every other line at that indentation is blank or a comment, between the
 * document's start and end markers when it has them (`documentBody`). Anything else (another directive,
 * a second document, a flow or sequence at the top, an escaped or odd key, a duplicate key, a piece that
 * does not read as the one key it starts with) answers `undefined`, and the caller reads the text whole
 * as before. A JSON text is cut at its members' offsets (`jsonCut`), whatever its layout.
 */

import { jsonExact } from '../cache.js';
import { ALIAS_BUDGET, sharingAfter, unshare } from './aliases.js';

/** Reads one piece of YAML; throws on a syntax error. */
export type ReadYaml = (text: string) => unknown;

/**
 * Pieces read before, by their exact text: `[value]`, or `[]` for a piece that could not be read alone.
 * A piece read with `keep: false` is answered from the memo when it is there, but not added to it.
 */
export interface YamlMemo {
  piece(text: string, read: () => readonly unknown[], keep?: boolean): readonly unknown[];
}

/** The sections whose entries are pieces of their own. */
const SPLIT = new Set(['tools', 'resources', 'prompts', 'schemas']);
/**
 * A key the cut may start a piece at: plain (letters and digits of any script, `_ . / -`: MCP names,
 * `2fa.verify` among them, and a prompt's `résumé`; after its first character also `( ) ' + , &` and
 * single spaces before a word, as a resource's or a prompt's name may hold: `Refund policy (2026)`), or
 * quoted on its line with no escape in it (a double-quoted key without `\` or `"`, a single-quoted one
 * without `'`), whose value is then exactly the text between the quotes. YAML writers quote keys that hold
 * a `.` or a `/`, or quote them all; a key quoted any other way sends the text to be read whole. A plain
 * key YAML reads as something else (`1e3` is the number 1000, `.5` is 0.5) does not read as its own text,
 * so its piece is refused and the text read whole (see `pieceValue`).
 */
const KEY = /^(?:([\p{L}\p{N}_./-](?:[\p{L}\p{N}_./()'+,&-]| (?=[^ \t#:]))*)|"([^"\\\x00-\x1f\x7f]*)"|'([^'\x00-\x1f\x7f]*)'):(?:[ \t]|\r?$)/u;
/** A section's head alone on its line (`tools:`), or with a comment after it (`tools:  # what agents call`). */
const SECTION_HEAD = /^(?:[A-Za-z_][A-Za-z0-9_.-]*|"[A-Za-z_][A-Za-z0-9_.-]*"|'[A-Za-z_][A-Za-z0-9_.-]*'):(?:[ \t]+(?:#.*)?)?\r?$/;

/** The key a line of the cut starts with (see `KEY`), as its value. */
function keyAt(line: string): string | undefined {
  const m = KEY.exec(line);
  return m === null ? undefined : (m[1] ?? m[2] ?? m[3]);
}

const QUIET = /^[ \t]*(?:#.*)?\r?$/;

/** One piece of a manifest's text: a top-level key, or one entry of a section, with its lines. */
export interface Piece {
  readonly key: string;
  /**
   * The piece's exact text, from the start of its first line to the end of its last (the line break
   * included): the pieces of a text, joined, are the text less the blank and comment lines before the
   * first, and less its document markers with what precedes the start one and follows the end one. A
   * member of a JSON text (`columns`) is its text from its key's quote to its value's end.
   */
  readonly text: string;
  /** Its first and last line in the whole text, counted from 0. */
  readonly from: number;
  readonly to: number;
  /**
   * For a member of a JSON text (`jsonCut`): how many characters of line `from` are before it, and of
   * line `to` up to its end. Such a piece starts at its key's quote and ends with its value; it reads, and
   * is parsed for positions, as `{` + its text + `}`. Absent for a piece of whole lines (YAML).
   */
  readonly columns?: { readonly from: number; readonly to: number };
}

/** A top-level piece, and its entries when it is a section cut into entries (`tools:`, `resources:`, `prompts:`, `schemas:`). */
export interface TopPiece extends Piece {
  readonly entries?: readonly Piece[];
}

/** Cuts lines [first, last] before each key at column `indent`; undefined when another line sits at or left of it. */
function cut(lines: readonly string[], first: number, last: number, indent: number): { key: string; from: number; to: number }[] | undefined {
  const cuts: { key: string; from: number; to: number }[] = [];
  const prefix = ' '.repeat(indent);
  for (let i = first; i <= last; i++) {
    const line = lines[i]!;
    const current = cuts[cuts.length - 1];
    // Most lines are indented further (the cheap test first); a blank or comment line goes with its entry.
    const inner = line[indent] === ' ' && line.startsWith(prefix);
    if (inner || QUIET.test(line)) {
      if (current) current.to = i;
      else if (inner && !QUIET.test(line)) return undefined;
      continue;
    }
    const key = line.startsWith(prefix) ? keyAt(line.slice(indent)) : undefined;
    if (key === undefined || key === '__proto__') return undefined;
    cuts.push({ key, from: i, to: i });
  }
  return new Set(cuts.map((c) => c.key)).size === cuts.length ? cuts : undefined;
}

const DOCUMENT_START = /^---(?:[ \t]+(?:#.*)?)?\r?$/;
const DOCUMENT_END = /^\.\.\.(?:[ \t]+(?:#.*)?)?\r?$/;
const YAML_1_2 = /^%YAML[ \t]+1\.2(?:[ \t]+(?:#.*)?)?\r?$/;

/**
 * The lines of a text's one document, less its markers: a document start marker (`---`, alone on its
 * line but for a comment) after blank lines, comments and at most a `%YAML 1.2` directive, and a
 * document end marker (`...`) followed only by blank lines and comments. Each piece then reads alone as
 * it reads in the document. Undefined for a directive without a start marker; any other directive, a
 * marker with content, or a second document is a line the cut refuses, so the text is read whole.
 */
function documentBody(lines: readonly string[]): { first: number; last: number } | undefined {
  let i = 0;
  while (i < lines.length && QUIET.test(lines[i]!)) i++;
  const directive = i < lines.length && YAML_1_2.test(lines[i]!);
  if (directive) for (i++; i < lines.length && QUIET.test(lines[i]!); ) i++;
  const marked = i < lines.length && DOCUMENT_START.test(lines[i]!);
  if (directive && !marked) return undefined;
  const first = marked ? i + 1 : 0;
  let j = lines.length - 1;
  while (j >= first && QUIET.test(lines[j]!)) j--;
  return { first, last: j >= first && DOCUMENT_END.test(lines[j]!) ? j - 1 : lines.length - 1 };
}

/** A text whose first character that is not a space or a line break opens a JSON object. */
const JSON_OPEN = /^[ \t\r\n]*\{/;
/**
 * A JSON string from where the scan stands (sticky), closed on its line (JSON escapes a line break in a
 * string). Written so that no match backtracks, so a scan of a whole text is linear however its quotes and
 * backslashes fall; a string left open fails the cut at once.
 */
const JSON_STRING_AT = /"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"/y;

/** Spaces and tabs from where the scan stands (sticky; matches always). */
const INDENT_AT = /[ \t]*/y;

/** A member being cut by `jsonCut`: its key, where it starts, and its entries when it is a section. */
interface OpenMember {
  readonly key: string;
  readonly start: number;
  readonly line: number;
  readonly lineStart: number;
  end: number;
  endLine: number;
  endLineStart: number;
  /** Where its value's first token is, once seen. */
  value: number;
  entries?: OpenMember[];
}

/**
 * A JSON text cut at its members' offsets, whatever its layout: minified on one line (`JSON.stringify`
 * without indentation), indented with spaces or tabs, or with members sharing lines; undefined when it
 * must be read whole. One pass over the text, strings skipped by a regular expression: each member of the
 * top object is a piece from its key's opening quote to its value's last character, and each member of a
 * section cut into entries (`tools`, `resources`, `prompts`, `schemas` whose value is an object) is an
 * entry. Outside strings only JSON's own characters may appear (brackets, separators, numbers, `true`,
 * `false`, `null`, spaces: a YAML comment, anchor, alias, tag or single-quoted string sends the text to the
 * whole read); a member must start with a string key; a comma is followed by a member or, as YAML allows,
 * by the object's closing brace; nothing but spaces and line breaks may follow the top object; no two
 * members of one object cut share a key. Between two members there is then a comma and spaces only, so
 * each reads as `{` + it + `}` as the whole read reads it: a flow mapping's members read the same at any
 * depth and indentation.
 */
function jsonCut(text: string): readonly TopPiece[] | undefined {
  const objects: boolean[] = []; // per open bracket: true for an object, false for an array
  const top: OpenMember[] = [];
  let section: OpenMember[] | undefined; // the entries being cut, while inside a section's object
  let expectKey = false;
  let closed = false;
  let line = 0;
  let lineStart = 0;
  let lastEnd = -1;
  let lastLine = 0;
  let lastLineStart = 0;
  // The member open at each depth cut (1: a top member, 2: an entry), ended at the last token before its comma or brace.
  const end = (m: OpenMember | undefined): void => {
    if (m === undefined) return;
    m.end = lastEnd;
    m.endLine = lastLine;
    m.endLineStart = lastLineStart;
  };
  const members = (depth: number): OpenMember[] | undefined => (depth === 1 ? top : depth === 2 ? section : undefined);
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0d) {
      i++;
      continue;
    }
    if (c === 0x0a) {
      line++;
      lineStart = ++i;
      // A line's indentation in one step: a loop over it took most of the cut of an indented text.
      INDENT_AT.lastIndex = i;
      INDENT_AT.test(text);
      i = INDENT_AT.lastIndex;
      continue;
    }
    if (closed) return undefined;
    const depth = objects.length;
    if (expectKey && depth <= 2 && c !== 0x22 && c !== 0x7d) return undefined;
    if (c === 0x22) {
      JSON_STRING_AT.lastIndex = i;
      if (!JSON_STRING_AT.test(text)) return undefined;
      const after = JSON_STRING_AT.lastIndex;
      const list = expectKey ? members(depth) : undefined;
      if (list !== undefined) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, after)) as string;
        } catch {
          return undefined; // an escape JSON lacks (YAML's `\x41`): the whole read decides
        }
        if (key === '__proto__') return undefined;
        list.push({ key, start: i, line, lineStart, end: -1, endLine: 0, endLineStart: 0, value: -1 });
      } else if (depth === 1 || depth === 2) {
        const open = members(depth)?.at(-1);
        if (open !== undefined && open.value < 0 && !expectKey) open.value = i;
      }
      expectKey = false;
      i = after;
      lastEnd = after;
      lastLine = line;
      lastLineStart = lineStart;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth === 0 && (c !== 0x7b || top.length > 0)) return undefined;
      const open = depth === 1 || depth === 2 ? members(depth)?.at(-1) : undefined;
      if (open !== undefined && open.value < 0) {
        open.value = i;
        if (depth === 1 && c === 0x7b && SPLIT.has(open.key)) section = open.entries = [];
      }
      objects.push(c === 0x7b);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0 || objects[depth - 1] !== (c === 0x7d)) return undefined;
      // Right after a comma (a trailing one) or the opening brace, the last member, if any, ended at the comma.
      if (!expectKey) end(members(depth)?.at(-1));
      objects.pop();
      if (depth === 2) section = undefined;
      if (depth === 1) closed = true;
      expectKey = false;
    } else if (c === 0x2c) {
      if (depth === 0) return undefined;
      end(members(depth)?.at(-1));
      expectKey = objects[depth - 1]!;
    } else if (depth === 0 || c >= 0x80 || JSON_SCALAR[c] !== 1) {
      return undefined;
    } else if (c !== 0x3a && (depth === 1 || depth === 2)) {
      const open = members(depth)?.at(-1);
      if (open !== undefined && open.value < 0) open.value = i;
    }
    i++;
    lastEnd = i;
    lastLine = line;
    lastLineStart = lineStart;
  }
  if (!closed || top.length === 0 || new Set(top.map((m) => m.key)).size !== top.length) return undefined;
  const piece = (m: OpenMember): Piece => {
    const t = text.slice(m.start, m.end);
    return {
      key: m.key,
      text: t,
      from: m.line,
      to: m.endLine,
      columns: { from: m.start - m.lineStart, to: m.end - m.endLineStart },
    };
  };
  const out: TopPiece[] = [];
  for (const m of top) {
    const entries = m.entries;
    if (entries !== undefined && entries.length > 0 && new Set(entries.map((e) => e.key)).size !== entries.length) return undefined;
    out.push(entries !== undefined && entries.length > 0 ? { ...piece(m), entries: entries.map(piece) } : piece(m));
  }
  return out;
}

/** The characters a JSON text may hold outside its strings besides brackets, commas and spaces (1 by code): in numbers, `true`, `false`, `null`, and the colon. */
const JSON_SCALAR = Uint8Array.from({ length: 0x80 }, (_, c) => (/[0-9a-zE.+\-:]/.test(String.fromCharCode(c)) ? 1 : 0));

/**
 * A manifest's text cut into top-level pieces, and the sections among them into entries, or undefined
 * when the text must be read whole (see the module comment). Reading in pieces and finding positions in
 * one piece (source-map.ts) cut a text the same way, here.
 */
export function cutManifest(text: string): readonly TopPiece[] | undefined {
  // A byte-order mark (as some editors save UTF-8) opens the first line, and both readers skip it: the text
  // after it is cut, and the mark goes back at the head of the piece that starts on the first line, if one
  // does, so that every piece is still the exact text of its lines.
  // A piece cut at offsets does not start with its line: the mark stays out of its text and counts in its columns.
  if (text.startsWith(BOM)) {
    const pieces = cutText(text.slice(1));
    return pieces?.map((p) => (p.columns !== undefined ? afterMark(p) : p.from === 0 ? { ...p, text: BOM + p.text } : p));
  }
  return cutText(text);
}

/** The byte-order mark. */
const BOM = '\uFEFF';

/**
 * A carriage return not followed by a line feed: YAML breaks a line there (old Mac line ends), while the
 * cut counts lines at line feeds, so a text holding one is read whole and its positions parsed whole.
 */
const LONE_CR = /\r(?!\n)/;

/** A piece cut at offsets, and its entries, with the columns of those on the first line one further on: past a byte-order mark. */
function afterMark<P extends TopPiece>(p: P): P {
  const { from, to } = p.columns!;
  const moved = { ...p, columns: { from: p.from === 0 ? from + 1 : from, to: p.to === 0 ? to + 1 : to } };
  return p.entries === undefined ? moved : { ...moved, entries: p.entries.map(afterMark) };
}

/**
 * `cutManifest` on a text without a byte-order mark. A tab needs no check of its own: a key is found only
 * after spaces (`KEY`), a line counts as inside an entry only when a space follows the entry's
 * indentation, and a line of tabs and spaces, with or without a comment, goes with the entry before it,
 * as any blank or comment line does; so a line indented with a tab where a key or an inner line would be
 * stops the cut, and tabs anywhere else (in a string, a block scalar, a comment, after a key's colon) are
 * read in the piece as in the whole text.
 */
function cutText(text: string): readonly TopPiece[] | undefined {
  if (text.startsWith(BOM) || LONE_CR.test(text)) return undefined;
  // A JSON text is cut at its members' offsets, wherever its lines break; at their lines when that declines.
  if (JSON_OPEN.test(text)) return jsonCut(text);
  const lines = text.split('\n');
  const body = documentBody(lines);
  if (body === undefined) return undefined;
  const top = cut(lines, body.first, body.last, 0);
  if (top === undefined || top.length === 0) return undefined;
  const starts: number[] = [0];
  for (let i = 0; i < lines.length - 1; i++) starts.push(starts[i]! + lines[i]!.length + 1);
  const piece = (c: { key: string; from: number; to: number }): Piece => ({ ...c, text: text.slice(starts[c.from], c.to + 1 < starts.length ? starts[c.to + 1] : text.length) });
  return top.map((c) => {
    if (!SPLIT.has(c.key) || !SECTION_HEAD.test(lines[c.from]!)) return piece(c);
    let body = c.from + 1;
    while (body <= c.to && QUIET.test(lines[body]!)) body++;
    const indent = body <= c.to ? lines[body]!.length - lines[body]!.trimStart().length : 0;
    const entries = indent > 0 ? cut(lines, body, c.to, indent) : undefined;
    return entries === undefined || entries.length === 0 ? piece(c) : { ...piece(c), entries: entries.map(piece) };
  });
}

/** One piece's value: it must read as a mapping of exactly its own key. */
function pieceValue(p: Piece, read: ReadYaml, memo: YamlMemo, keep = true): { value: unknown } | undefined {
  const got = memo.piece(p.text, () => {
    try {
      const v = read(p.columns !== undefined ? `{${p.text}}` : p.text);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
      const keys = Object.keys(v);
      return keys.length === 1 && keys[0] === p.key ? [(v as Record<string, unknown>)[p.key]] : [];
    } catch {
      return [];
    }
  }, keep);
  return got.length === 1 ? { value: got[0] } : undefined;
}

/**
 * How the pieces of one text are read: alone, or, for a piece with an alias, after the pieces whose
 * anchors it may name (`AliasContexts`); `key` is what the memo and `LazyEntries` know the piece by.
 */
class PieceReader {
  constructor(
    private readonly read: ReadYaml,
    readonly memo: YamlMemo,
    private readonly aliases: AliasContexts | undefined,
  ) {}

  key(p: Piece): string {
    return this.aliases?.of(p)?.key ?? p.text;
  }

  value(p: Piece, keep = true): { value: unknown } | undefined {
    const c = this.aliases?.of(p);
    if (c === undefined) return pieceValue(p, this.read, this.memo, keep);
    const got = this.memo.piece(c.key, () => {
      const r = c.read();
      return r === undefined ? [] : [r.value];
    }, keep);
    return got.length === 1 ? { value: got[0] } : undefined;
  }
}

/**
 * A section's value, entry by entry when it is cut into entries, else as one piece. With `lazy` (entries
 * whose results the caller may keep), an entry it chooses is left unread, and the others are read without
 * adding them to the memo: the caller keeps what it computed of them instead, or reads them again.
 */
function sectionValue(p: Piece, entries: readonly Piece[] | undefined, reader: PieceReader, lazy?: (e: Piece) => boolean): { value: unknown } | undefined {
  if (entries === undefined) return reader.value(p);
  const out: Record<string, unknown> = {};
  for (const e of entries) {
    if (lazy?.(e)) {
      deferred(out, e, reader);
      continue;
    }
    const v = reader.value(e, lazy === undefined);
    if (v === undefined) return undefined;
    out[e.key] = v.value;
  }
  return { value: out };
}

/**
 * An entry read on first use: a property that reads its piece when first got, then holds the value. Only
 * an entry whose text (with its aliases' context, `PieceReader.key`) read before is deferred
 * (`LazyEntries`), so it reads again.
 */
function deferred(out: Record<string, unknown>, e: Piece, reader: PieceReader): void {
  Object.defineProperty(out, e.key, {
    enumerable: true,
    configurable: true,
    get() {
      const v = reader.value(e);
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
 * unread, as properties that read them when got. With `readShared` (a read that keeps aliases as shared
 * objects), a piece with an alias is read after the pieces that may define its anchors (`AliasContexts`),
 * and the text is read in pieces only while what all aliases add is within the whole read's budget.
 */
export function readInPieces(text: string, read: ReadYaml, memo: YamlMemo, lazy?: LazyEntries, pieces: readonly TopPiece[] | undefined = cutManifest(text), readShared?: ReadYaml): Record<string, unknown> | undefined {
  if (pieces === undefined) return undefined;
  // A JSON text has no anchors or aliases (jsonCut refuses any `*` or `&` outside a string).
  const aliases = readShared !== undefined && text.includes('*') && pieces[0]?.columns === undefined ? AliasContexts.of(pieces, readShared) : undefined;
  if (aliases === null) return undefined;
  const reader = new PieceReader(read, memo, aliases);
  const values = new Map<string, unknown>();
  for (const p of pieces) {
    if (PRIMITIVES.has(p.key)) continue;
    const v = sectionValue(p, p.entries, reader);
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
    const v = sectionValue(p, p.entries, reader, choose && ((e) => choose(p.key, e.key, reader.key(e))));
    if (v === undefined) return undefined;
    out[p.key] = v.value;
  }
  // A document whose aliases add too much, or hold a cycle, is read whole: that read reports it, with its place.
  if (aliases !== undefined && !aliases.withinBudget(memo)) return undefined;
  return out;
}

/** Anchors (`&name`) and aliases (`*name`) a text may hold: every one it holds, and maybe more (in a string or a comment). */
const ANCHOR = /(?:^|[\s[{,:])&([^\s[\]{},]+)/gm;
const ALIAS = /(?:^|[\s[{,:])\*([^\s[\]{},]+)/gm;
const namesIn = (text: string, mark: string, re: RegExp): Set<string> => (text.includes(mark) ? new Set([...text.matchAll(re)].map((m) => m[1]!)) : new Set());

/** At most this many pieces, or characters of them, before one piece: past either, the text is read whole. */
const CONTEXT_PIECES = 32;
const CONTEXT_CHARS = 64 * 1024;

/** A piece as a unit of the document: a top-level key, or an entry of `section`. */
interface Unit {
  readonly piece: Piece;
  readonly section?: string;
  readonly at: number;
}

/** A piece with an alias, read after its context: `key` names both for the memo. */
interface AliasContext {
  readonly key: string;
  read(): { readonly value: unknown; readonly added: number } | undefined;
}

/**
 * The pieces with an alias, each with the pieces before it that may define an anchor it names (or that
 * one of those names, and so on). Every anchor the text defines is found (an anchor follows a line start,
 * a space or a flow indicator), so a piece read after all the earlier pieces that may define a name reads
 * every alias to the node the whole read gives it: the last one defined before it. A name found that is
 * no anchor (in a string, a comment) only adds a piece to the context; an alias with no anchor before it
 * fails the piece's read, and the text is read whole.
 */
class AliasContexts {
  private constructor(private readonly byPiece: ReadonlyMap<Piece, AliasContext>) {}

  /** The contexts of `pieces`, or null when one is past `CONTEXT_PIECES` or `CONTEXT_CHARS`. */
  static of(pieces: readonly TopPiece[], readShared: ReadYaml): AliasContexts | null {
    const units: Unit[] = [];
    for (const p of pieces) {
      if (p.entries === undefined) units.push({ piece: p, at: units.length });
      else for (const e of p.entries) units.push({ piece: e, section: p.key, at: units.length });
    }
    const aliases = units.map((u) => namesIn(u.piece.text, '*', ALIAS));
    const definers = new Map<string, number[]>();
    units.forEach((u, i) => {
      for (const n of namesIn(u.piece.text, '&', ANCHOR)) (definers.get(n) ?? definers.set(n, []).get(n)!).push(i);
    });
    const byPiece = new Map<Piece, AliasContext>();
    for (const u of units) {
      if (aliases[u.at]!.size === 0) continue;
      const context = new Set<number>();
      const names = [...aliases[u.at]!];
      for (let k = 0; k < names.length; k++) {
        for (const j of definers.get(names[k]!) ?? []) {
          if (j >= u.at || context.has(j)) continue;
          context.add(j);
          for (const n of aliases[j]!) names.push(n);
        }
      }
      const before = [...context].sort((a, b) => a - b).map((j) => units[j]!);
      if (before.length > CONTEXT_PIECES || before.reduce((n, b) => n + b.piece.text.length, 0) > CONTEXT_CHARS) return null;
      const key = `\0\0${[...before, u].map((b) => `${b.section ?? ''}\0${b.piece.text}`).join('\0')}`;
      let done: { value: unknown; added: number } | undefined | null = null;
      byPiece.set(u.piece, { key, read: () => (done === null ? (done = readInContext([...before, u], readShared)) : done) });
    }
    return new AliasContexts(byPiece);
  }

  of(p: Piece): AliasContext | undefined {
    return this.byPiece.get(p);
  }

  /** True when every piece with an alias reads in its context and what they add is within `ALIAS_BUDGET`. */
  withinBudget(memo: YamlMemo): boolean {
    let added = 0;
    for (const c of this.byPiece.values()) {
      const got = memo.piece(`\0added${c.key}`, () => {
        const r = c.read();
        return r === undefined ? [] : [r.added];
      });
      if (got.length !== 1 || typeof got[0] !== 'number') return false;
      added += got[0];
      if (added > ALIAS_BUDGET) return false;
    }
    return true;
  }
}

/** A text ends with its line break before another is put after it. */
const ended = (t: string): string => (t.endsWith('\n') ? t : `${t}\n`);

/**
 * The last of `units` read after the others, as one document of them in their order (each entry under its
 * section's key), with what its aliases add after them (`sharingAfter`); undefined when that document does
 * not read, does not hold exactly those keys, or holds a cycle.
 */
function readInContext(units: readonly Unit[], readShared: ReadYaml): { value: unknown; added: number } | undefined {
  let text = '';
  const top: string[] = [];
  const inSection = new Map<string, string[]>();
  for (const u of units) {
    if (u.section === undefined) {
      top.push(u.piece.key);
      text += ended(u.piece.text);
      continue;
    }
    if (top.at(-1) !== u.section) {
      top.push(u.section);
      inSection.set(u.section, []);
      text += `${u.section}:\n`;
    }
    inSection.get(u.section)!.push(u.piece.key);
    text += ended(u.piece.text);
  }
  let doc: unknown;
  try {
    doc = readShared(text);
  } catch {
    return undefined;
  }
  const sameKeys = (v: unknown, keys: readonly string[]): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
  if (!sameKeys(doc, top)) return undefined;
  for (const [section, keys] of inSection) if (!sameKeys(doc[section], keys)) return undefined;
  const values = units.map((u) => (u.section === undefined ? doc[u.piece.key] : (doc[u.section] as Record<string, unknown>)[u.piece.key]));
  const last = values.pop();
  const sharing = sharingAfter(values, last);
  if (sharing.kind === 'cycle') return undefined;
  return sharing.kind === 'tree' ? { value: last, added: 0 } : { value: unshare(last), added: sharing.added };
}

/**
 * For a text read whole because a piece did not read alone (an alias naming an anchor in another piece),
 * offers its entries to `lazy` as `readInPieces` does, each under a key that an anchor's change reaches:
 * the JSON of the entry's value, then its text (a text holds no NUL; the leading NUL sets these keys apart
 * from texts). An entry whose value JSON does not write exactly is not offered. Every value is read
 * already; the answers only say which entries' results the caller keeps.
 */
export function chooseWhole(value: Readonly<Record<string, unknown>>, pieces: readonly TopPiece[], lazy: LazyEntries): void {
  const rest = Object.fromEntries(Object.entries(value).filter(([k]) => !PRIMITIVES.has(k)));
  const choose = lazy.choose(rest);
  if (choose === undefined) return;
  for (const p of pieces) {
    const section = value[p.key];
    if (!PRIMITIVES.has(p.key) || p.entries === undefined || section === null || typeof section !== 'object') continue;
    const entries = section as Record<string, unknown>;
    if (Object.keys(entries).length !== p.entries.length) continue;
    for (const e of p.entries) {
      if (!Object.hasOwn(entries, e.key) || !jsonExact(entries[e.key])) continue;
      choose(p.key, e.key, `\0${JSON.stringify(entries[e.key])}\0${e.text}`);
    }
  }
}
