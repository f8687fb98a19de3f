/**
 * Findings become diagnostics here. Positions cost a position-keeping parse, and most findings of a
 * regeneration are hints that are only counted, so a finding inside one entry of the manifest (a
 * `SourcePiece`) gets its line, column and source line on first read: sorting orders it by its piece's
 * lines where those decide (`PendingPlace`), and only what is shown is located. A located position is
 * kept in the run's cache under the piece's text, so an unchanged entry is never parsed again.
 */
import type { GenerationCache } from '../cache.js';
import type { Diagnostic, PendingPlace, Severity } from '../diagnostics.js';
import { dotted, type Position, type SourceMap, type SourcePiece } from '../manifest/source-map.js';
import type { LintFinding } from './types.js';

/** Where findings are located: the manifest as shown, its source map and the run's cache. */
export interface Locator {
  readonly file: string;
  readonly map: SourceMap;
  readonly cache?: GenerationCache;
}

type Where = Pick<LintFinding, 'path' | 'at' | 'offset'>;

function inWhole(map: SourceMap, f: Where): Position {
  return f.offset !== undefined ? map.locateInString(f.path, f.offset) : map.locate(f.path, f.at ?? 'value');
}

function inPiece(piece: SourcePiece, f: Where): Position | undefined {
  return f.offset !== undefined ? piece.locateInString(f.path, f.offset) : piece.locate(f.path, f.at ?? 'value');
}

/**
 * A finding with the strings its diagnostic is made of, when they were kept with it (the per-primitive
 * findings carry them through the cache, so a reused finding does not build them again).
 */
export interface KeptFinding extends LintFinding {
  /** `dotted(path)`. */
  readonly dotted?: string;
  /** `spotOf(finding)`. */
  readonly spot?: string;
}

/** What a finding's position depends on besides its piece's text. */
export function spotOf(f: Where): string {
  return JSON.stringify([f.path, f.at ?? 'value', f.offset ?? null]);
}

/** A position inside a piece, from the cache when this piece text was located at this spot before. */
function pieceLocated(loc: Locator, piece: SourcePiece, f: Where, spot: string): Position {
  if (!loc.cache) return inPiece(piece, f) ?? inWhole(loc.map, f);
  // Relative to the piece's first line, and on that line to its first column, so an entry that only moved keeps its entry.
  const relative = loc.cache.fragment(`lint-position\u0000${piece.text}\u0000${spot}`, (): [number, number] | null => {
    const p = inPiece(piece, f);
    return p ? [p.line - piece.from, p.line === piece.from ? p.column - piece.column + 1 : p.column] : null;
  });
  return relative ? { line: piece.from + relative[0], column: relative[0] === 0 ? relative[1] + piece.column - 1 : relative[1] } : inWhole(loc.map, f);
}

/**
 * The position of a finding on a piece's own key (an entry's `[section, name]` or a top-level
 * `[section]`, at its key), without parsing: a piece starts at its key's line, and its key is plain (see
 * yaml-chunks.ts `cut`), so the key starts after the line's indentation. Undefined for any other finding.
 * Entry-key findings (a primitive that lacks a field, a name) are common and mostly hints, so they cost
 * no accessors and no pending place. A section-key finding (the tool catalog over its context budget)
 * would otherwise parse the whole section, and that text changes with every edit of any entry in it.
 */
export function entryKeyAt(piece: SourcePiece, f: Where): (Position & { readonly sourceLine: string }) | undefined {
  if (f.offset !== undefined || f.at !== 'key' || f.path.length !== piece.path.length || f.path.length > 2) return undefined;
  if (f.path.some((seg, i) => seg !== piece.path[i])) return undefined;
  return entryStart(piece);
}

/** Where an entry piece's key starts (the first token of the piece, so no position in it is before), with its line. */
function entryStart(piece: SourcePiece): Position & { readonly sourceLine: string } {
  // A JSON member may be indented with tabs; a byte-order mark before the first key is a character of its
  // line, as the whole parse counts it. A member cut at offsets starts at its key.
  return { line: piece.from, column: piece.column + piece.text.search(/[^ \t\uFEFF]/), get sourceLine() {
    return piece.firstLine();
  } };
}

/** A diagnostic, and where it lies while its position is not computed yet. */
export interface Located {
  readonly diagnostic: Diagnostic;
  readonly place?: PendingPlace;
}

/**
 * The diagnostic of one finding. Inside an entry piece its position is computed on first read;
 * elsewhere (a top-level key, a text that is not cut into pieces) at once.
 */
export function diagnosticOf(loc: Locator, code: string, severity: Severity, f: KeptFinding): Located {
  const piece = loc.map.pieceOf?.(f.path);
  const spot = f.spot ?? spotOf(f);
  const path = f.dotted ?? dotted(f.path);
  const key = piece && entryKeyAt(piece, f);
  if (key) return { diagnostic: { code, severity, message: f.message, path, file: loc.file, line: key.line, column: key.column, hint: f.hint, sourceLine: key.sourceLine } };
  if (!piece || piece.path.length < 2) {
    const p = piece ? pieceLocated(loc, piece, f, spot) : inWhole(loc.map, f);
    const sourceLine = loc.map.lineText(p.line);
    const diagnostic = { code, severity, message: f.message, path, file: loc.file, line: p.line, column: p.column, hint: f.hint, ...(sourceLine !== undefined ? { sourceLine } : {}) };
    return { diagnostic };
  }
  let p: Position | undefined;
  const at = (): Position => (p ??= pieceLocated(loc, piece, f, spot));
  // The fields in the order of a located diagnostic, so its JSON is byte for byte the same.
  const diagnostic: Diagnostic = {
    code, severity, message: f.message, path, file: loc.file,
    get line() {
      return at().line;
    },
    get column() {
      return at().column;
    },
    hint: f.hint,
    get sourceLine() {
      return loc.map.lineText(at().line);
    },
  };
  const place: PendingPlace = { piece, from: piece.from, to: piece.to, spot, start: entryStart(piece), known: () => p !== undefined };
  return { diagnostic, place: piece.lastColumn === Infinity ? place : { ...place, columns: { from: piece.column, to: piece.lastColumn } } };
}

const samePlace = (a: Diagnostic, b: Diagnostic): boolean => a.line === b.line && a.column === b.column;

/** True when located `d` is inside the piece of `place`. */
const inside = (d: Diagnostic, place: PendingPlace): boolean =>
  (d.line > place.from || (d.line === place.from && d.column >= (place.columns?.from ?? 1))) && (d.line < place.to || (d.line === place.to && d.column <= (place.columns?.to ?? Infinity)));

/**
 * Keeps the first of diagnostics of one code that share a position, computing positions only where
 * two of them could share one: in the same piece at different spots, or a located one inside a piece.
 */
export function firstAtEachPlace(found: readonly Located[]): Located[] {
  const kept: Located[] = [];
  const byPiece = new Map<object, { readonly place: PendingPlace; readonly spots: Set<string>; readonly all: Diagnostic[] }>();
  const located: Diagnostic[] = [];
  const at = new Set<string>();
  const clash = ({ diagnostic: d, place }: Located): boolean => {
    if (place) {
      const same = byPiece.get(place.piece);
      if (same?.spots.has(place.spot)) return true;
      return (same?.all.some((k) => samePlace(k, d)) ?? false) || located.some((k) => inside(k, place) && samePlace(k, d));
    }
    if (at.has(`${d.line}|${d.column}`)) return true;
    for (const same of byPiece.values()) {
      if (inside(d, same.place) && same.all.some((k) => samePlace(k, d))) return true;
    }
    return false;
  };
  for (const l of found) {
    if (clash(l)) continue;
    kept.push(l);
    if (l.place) {
      const same = byPiece.get(l.place.piece) ?? { place: l.place, spots: new Set<string>(), all: [] };
      same.spots.add(l.place.spot);
      same.all.push(l.diagnostic);
      byPiece.set(l.place.piece, same);
    } else {
      located.push(l.diagnostic);
      at.add(`${l.diagnostic.line}|${l.diagnostic.column}`);
    }
  }
  return kept;
}
