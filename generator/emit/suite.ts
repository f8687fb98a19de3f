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

/** The suite file around its pieces, importing what their tests use. */
export function suite(ctx: EmitContext, label: string, pieces: readonly Piece[]): string {
  const used = new Set<string>(['connect', 'eras', 'type Connection']);
  for (const p of pieces) for (const n of p.used) used.add(n);
  const names = [...used].filter((n) => n !== 'S');
  const helpers = [...names.filter((n) => !n.startsWith('type ')).sort(), ...names.filter((n) => n.startsWith('type ')).sort()];
  return render('contract.test.ts', {
    header: tsHeader(ctx.ir.manifestName),
    label: lit(`${label} contract ($name)`),
    // Each piece's blocks start with their blank line; the template closes the last one's line.
    blocks: pieces.map((p) => (p.text === '' ? '' : `\n${ctx.text.chop(p.text)}`)).join(''),
    schemas: used.has('S'),
    harnessImport: importStatement(helpers, './harness.gen.js'),
  });
}

