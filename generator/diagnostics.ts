/** Where a diagnostic points: a file and a 1-based line and column. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** How serious a finding is: errors block generation, warnings and hints do not. */
export type Severity = 'error' | 'warning' | 'hint';

/**
 * One finding about a manifest. `path` is the manifest path in dotted form
 * (`tools.tickets.get.sideEffect`); `hint` says how to fix it.
 */
export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly path: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly hint?: string;
  /** The text of the offending source line, without its line break. */
  readonly sourceLine?: string;
}

/**
 * The longest source line the JSON and SARIF reports copy (`sourceLine`, a result's snippet). A minified
 * JSON manifest is one line: copied into each of a few thousand findings it made reports of gigabytes
 * (past what a string can hold). The text report shows a window of a long line instead (manifest/format.ts).
 */
const REPORTED_LINE_LENGTH = 1000;

/** `d` as the JSON and SARIF reports give it: without its source line when that is longer than `REPORTED_LINE_LENGTH`. */
export function reported(d: Diagnostic): Diagnostic {
  const copy = { ...d };
  if (copy.sourceLine !== undefined && copy.sourceLine.length > REPORTED_LINE_LENGTH) delete (copy as { sourceLine?: string }).sourceLine;
  return copy;
}

/**
 * Thrown for problems the user can fix (bad manifest, bad arguments).
 * The CLI prints these without a stack trace.
 */
export class UserError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.name = 'UserError';
    this.diagnostics = diagnostics;
  }
}

/** True when any diagnostic in the list is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * Where a diagnostic whose line and column are computed on first read lies before they are: in the
 * lines `from`–`to` of its file (one piece of the manifest), at `spot` (two diagnostics of one piece
 * with the same spot have the same position). Sorting reads it so that it does not compute positions
 * it can order without.
 */
export interface PendingPlace {
  readonly piece: object;
  readonly from: number;
  readonly to: number;
  /** The columns of the piece's first character on line `from` and its last on line `to`, when it does not span whole lines. */
  readonly columns?: { readonly from: number; readonly to: number };
  readonly spot: string;
  /** Where the piece's first token starts, when known: no position in the piece is before it. */
  readonly start?: { readonly line: number; readonly column: number };
  /** True once the position was computed (reading it then costs nothing). */
  known(): boolean;
}

/** The pending places of some diagnostics (those not listed are located). */
export type PendingPlaces = ReadonlyMap<Diagnostic, PendingPlace>;

/** A diagnostic with its pending place, looked up once for the sort rather than at every comparison. */
interface Placed {
  readonly d: Diagnostic;
  readonly p: PendingPlace | undefined;
}

/** Orders two diagnostics of one file by line and column, from their pieces' lines when those decide. */
function byPosition({ d: a, p: pa }: Placed, { d: b, p: pb }: Placed): number {
  // A located diagnostic at or before the start of a pending one's piece, with a code sorting first, is first.
  if (!pa && pb?.start && !pb.known() && firstAt(a, pb.start, b)) return -1;
  if (!pb && pa?.start && !pa.known() && firstAt(b, pa.start, a)) return 1;
  if ((pa && !pa.known()) || (pb && !pb.known())) {
    if (endsBefore(a, pa, b, pb)) return -1;
    if (endsBefore(b, pb, a, pa)) return 1;
    if (pa && pb && pa.piece === pb.piece && pa.spot === pb.spot) return 0;
  }
  return a.line - b.line || a.column - b.column;
}

/**
 * True when every position `a` may have is before every one `b` may have: the last of a pending place
 * is its piece's last line (at its last column, when it ends inside the line), the first its first line
 * (at its first column); a located diagnostic is at its line and column.
 */
function endsBefore(a: Diagnostic, pa: PendingPlace | undefined, b: Diagnostic, pb: PendingPlace | undefined): boolean {
  const aLine = pa ? pa.to : a.line;
  const bLine = pb ? pb.from : b.line;
  if (aLine !== bLine) return aLine < bLine;
  const aColumn = pa ? (pa.columns?.to ?? Infinity) : a.column;
  const bColumn = pb ? (pb.columns?.from ?? 0) : b.column;
  return aColumn < bColumn;
}

/** True when located `d` sorts before `other`, which lies at or after `start`, whatever `other`'s position. */
function firstAt(d: Diagnostic, start: { readonly line: number; readonly column: number }, other: Diagnostic): boolean {
  const c = d.line - start.line || d.column - start.column;
  return d.file === other.file && (c < 0 || (c === 0 && byCode(d.code, other.code) < 0));
}

/** Codes are compared as text; `MG` codes of one length compare alike in code-unit order, which is cheaper. */
function byCode(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === b.length && CODE.test(a) && CODE.test(b)) return a < b ? -1 : 1;
  return a.localeCompare(b);
}
const CODE = /^[A-Z]+[0-9]+$/;

/**
 * Sorts diagnostics by file, line, column, then code, for stable output. With `places`, positions
 * still to be computed are computed only where the pieces they lie in do not decide the order.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[], places?: PendingPlaces): Diagnostic[] {
  const placed: Placed[] = diagnostics.map((d) => ({ d, p: places?.get(d) }));
  placed.sort((a, b) => (a.d.file === b.d.file ? 0 : a.d.file.localeCompare(b.d.file)) || byPosition(a, b) || byCode(a.d.code, b.d.code));
  return placed.map((x) => x.d);
}

const isWarning = (d: Diagnostic): boolean => d.severity === 'warning';

/**
 * A run's diagnostics, sorted on first read. A regeneration shows its warnings and only counts its
 * hints, so it never orders the hints of a large manifest, nor locates one to order it (a new entry's
 * hints would load the position-keeping parser just to be counted).
 */
export class Findings {
  #sorted: readonly Diagnostic[] | undefined;
  readonly #list: readonly Diagnostic[];
  readonly #places: PendingPlaces | undefined;

  constructor(list: readonly Diagnostic[], places?: PendingPlaces) {
    this.#list = list;
    this.#places = places;
  }

  /** Every diagnostic, sorted by file, line, column and code (`sortDiagnostics`). */
  get sorted(): readonly Diagnostic[] {
    return (this.#sorted ??= sortDiagnostics(this.#list, this.#places));
  }

  /** The warnings in the order of `sorted`, without ordering anything else. */
  get warnings(): readonly Diagnostic[] {
    return this.#sorted ? this.#sorted.filter(isWarning) : sortDiagnostics(this.#list.filter(isWarning), this.#places);
  }

  /** How many diagnostics are hints. */
  get hints(): number {
    let n = 0;
    for (const d of this.#list) if (d.severity === 'hint') n++;
    return n;
  }
}
