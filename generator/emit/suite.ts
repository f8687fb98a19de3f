/**
 * The contract suites' files put together: each `describe` rendered on its own with the harness names its
 * tests use (so a primitive's `describe` can be kept in the incremental cache), then the suite around
 * them importing exactly the names used.
 */
import { type EmitContext, render } from './context.js';
import type { SetupView, TestView } from './attacks.js';
import { importStatement, lit, tsHeader } from './text.js';

/** One primitive's `describe` as the suite template lays it out. */
export interface BlockView {
  readonly title: string;
  /** The line binding its gate checks, when it has any. */
  readonly setup: SetupView | undefined;
  /** Its tests, each a view or already rendered. */
  readonly tests: readonly (TestView | string)[];
}

/** The emit context of one suite file, which records the harness names (and `S`) its tests use. */
export interface SuiteContext extends EmitContext {
  /** Returns `name`, recording that the suite uses it (its imports are exactly the names used). */
  use(name: string): string;
}

/** A rendered `describe` of a suite and the harness names its tests use. */
export interface Piece {
  readonly text: string;
  readonly used: readonly string[];
}

/** A `describe` as contract-block.ts.hbs lays it out, its tests one blank line apart (one rendered already as it is). */
export function renderBlock(b: BlockView | string): string {
  if (typeof b === 'string') return b;
  const tests = b.tests.map((t) => (typeof t === 'string' ? t : render('contract-test.ts', t))).join('\n');
  return render('contract-block.ts', { title: b.title, setup: b.setup, tests });
}

/** Builds and renders blocks with a record of their own of the names they use. */
export function pieceOf(ctx: EmitContext, build: (s: SuiteContext) => readonly (BlockView | string)[]): Piece {
  const used = new Set<string>();
  const s: SuiteContext = { ...ctx, use: (name) => (used.add(name), name) };
  const text = build(s).map(renderBlock).join('');
  return { text, used: [...used] };
}

/**
 * A rendered `describe` as the suite places it: after a blank line, its own last line end left to what follows
 * (nothing for an empty one); `chop` takes that line end off (`TextOps.chop` for a text that may end in a marker).
 */
export const placed = (text: string, chop = (t: string) => t.slice(0, -1)): string => (text === '' ? '' : `\n${chop(text)}`);

/** The suite file around its blocks (their texts joined as `placed` gives them), importing what their tests use. */
export function suite(ctx: EmitContext, label: string, blocks: string, usedNames: Iterable<string>): string {
  const used = new Set<string>(['connect', 'eras', 'type Connection']);
  for (const n of usedNames) used.add(n);
  const names = [...used].filter((n) => n !== 'S');
  const helpers = [...names.filter((n) => !n.startsWith('type ')).sort(), ...names.filter((n) => n.startsWith('type ')).sort()];
  return render('contract.test.ts', {
    header: tsHeader(ctx.ir.manifestName),
    label: lit(`${label} contract ($name)`),
    // Each block starts with its blank line; the template closes the last one's line.
    blocks,
    schemas: used.has('S'),
    harnessImport: importStatement(helpers, './harness.gen.js'),
  });
}

/** The suite of one `Piece` (the server's, the gates'). */
export const suiteOf = (ctx: EmitContext, label: string, piece: Piece): string => suite(ctx, label, placed(piece.text, ctx.text.chop), piece.used);
