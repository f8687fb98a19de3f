/**
 * The regeneration property, shared by test/regen/property.test.ts (a few
 * hundred cases) and scripts/regen-property.ts (a thousand or more):
 *
 *   random manifest → generate → random author edits → random manifest
 *   changes → regenerate (1–3 rounds), and after every run:
 *   - every line the author wrote in a handler file is still there (in the
 *     moved file for a renamed primitive), and the file's previous lines are
 *     a subsequence of its new lines (the generator only inserts, or renames
 *     the declaration and its type import);
 *   - a removed primitive's handler, an unparseable handler and every file the
 *     author added under handlers/ are byte-identical;
 *   - every generator-owned file equals a fresh generation from the manifest,
 *     and nothing else (no staging folder, no journal) is left;
 *   - a rerun of an unchanged manifest writes nothing (sampled);
 *   - where every change was compatible with what the handler code assumes,
 *     the project type-checks (sampled: `typecheckEvery`).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import type { HandlerSpec } from '../../generator/emit/handlers.js';
import { generate, type GenerateResult } from '../../generator/pipeline.js';
import { UserError } from '../../generator/diagnostics.js';
import { repoRoot } from '../helpers/paths.js';
import { snapshotTree } from '../helpers/tree.js';
import { Rng, editHandler, emptyUses } from './author.js';
import { type CaseState, changeManifest, compatible, keyOf, successor } from './changes.js';
import { type Model, type Primitive, handlerPathOf, handlerTypeOf, idOf, modelArb, render } from './model.js';
import { typecheck } from './typecheck.js';

/** Counters of one property run. */
export interface Stats {
  cases: number;
  rounds: number;
  compatibleCases: number;
  typechecked: number;
  noOpChecks: number;
  renames: number;
  removedKept: number;
  unparseable: number;
  authorLinesChecked: number;
  generateMs: number;
  typecheckMs: number;
  /** Type errors inside generator-owned files other than handlers.gen.ts (not caused by handler code). */
  generatorTypeErrors: string[];
}

export const newStats = (): Stats => ({ cases: 0, rounds: 0, compatibleCases: 0, typechecked: 0, noOpChecks: 0, renames: 0, removedKept: 0, unparseable: 0, authorLinesChecked: 0, generateMs: 0, typecheckMs: 0, generatorTypeErrors: [] });

interface Tracked {
  /** Author lines (normalized) that must all still be in the file. */
  lines: string[];
  /** Unparseable or left behind: must stay byte-identical. */
  frozen: boolean;
  /** Frozen because it does not parse (a left-behind handler thaws when its primitive needs it again). */
  unparseable?: boolean;
}

const STALL_MS = Number(process.env.REGEN_STALL_MS ?? 60_000);

/** A failed expectation, with the case log attached. */
class CaseFailure extends Error {}

const norm = (l: string): string => l.replace(/\s+$/, '').replace(/,$/, '');

function isSubsequence(needles: readonly string[], hay: readonly string[]): number {
  let j = 0;
  for (let i = 0; i < needles.length; i++) {
    while (j < hay.length && hay[j] !== needles[i]) j++;
    if (j === hay.length) return i;
    j++;
  }
  return -1;
}

function missingLines(expected: readonly string[], content: string): string[] {
  const have = new Map<string, number>();
  for (const l of content.split('\n').map(norm)) have.set(l, (have.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const l of expected) {
    const n = have.get(l) ?? 0;
    if (n === 0) out.push(l);
    else have.set(l, n - 1);
  }
  return out;
}

async function readTree(dir: string): Promise<Map<string, string>> {
  const tree = await snapshotTree(dir);
  return new Map([...tree].map(([p, f]) => [p, Buffer.from(f.content, 'latin1').toString('utf8')]));
}

/** The handler spec of every handler file of a run, with the stub content a new file gets. */
const specsOf = (r: GenerateResult): Map<string, HandlerSpec & { readonly content: string }> =>
  new Map(r.files.flatMap((f) => (f.handler ? [[f.path, { ...f.handler, content: f.content }] as const] : [])));

function primitiveOf(m: Model, kind: Primitive['kind'], name: string): Primitive | undefined {
  return [...m.tools, ...m.resources, ...m.prompts].find((p) => p.kind === kind && p.name === name);
}

/** Options of one case. */
export interface CaseOptions {
  readonly root: string;
  readonly index: number;
  readonly typecheck: boolean;
  readonly stats: Stats;
}

/** Runs one case; throws (with the whole log) when an expectation fails. */
export async function runCase(model0: Model, scriptSeed: number, opts: CaseOptions): Promise<void> {
  const dir = join(opts.root, `case-${opts.index}`);
  const out = join(dir, 'out');
  const manifest = join(dir, 'mcp.manifest.yaml');
  const rng = new Rng(scriptSeed);
  const log: string[] = [`script seed ${scriptSeed}`];
  const stats = opts.stats;
  const fail = (msg: string): never => {
    throw new CaseFailure(`${msg}\n--- case log ---\n${log.join('\n')}`);
  };
  const run = async (): Promise<GenerateResult> => {
    const t = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      // A stalled run becomes a failure with the case log instead of a test timeout.
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`generate did not finish within ${STALL_MS / 1000} s`)), STALL_MS);
      });
      return await Promise.race([generate(manifest, { outDir: out, cwd: dir }), stalled]);
    } catch (e) {
      const detail = e instanceof UserError ? `${e.message}\n${e.diagnostics?.map((d) => `  ${d.code} ${d.message}`).join('\n') ?? ''}` : String((e as Error).stack ?? e);
      return fail(`generate failed: ${detail}`);
    } finally {
      clearTimeout(timer);
      stats.generateMs += performance.now() - t;
    }
  };

  const state: CaseState = { model: model0, uses: new Map(), usedIds: new Set([...model0.tools, ...model0.resources, ...model0.prompts].map((p) => `${p.kind}:${idOf(p.name)}`)) };
  const tracked = new Map<string, Tracked>();
  const extra = new Map<string, string>(); // author-added files under handlers/, by path relative to out
  let compat: string | undefined; // the first reason the handler code may no longer compile
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(manifest, render(state.model));
    log.push(`manifest v0:\n${render(state.model)}`);
    let result = await run();
    await expectGeneratorFiles(result, out, fail);
    for (const [path, spec] of specsOf(result)) {
      tracked.set(path, { lines: [], frozen: false });
      if ((await readFile(join(out, path), 'utf8')) !== spec.content) fail(`${path}: a new handler is not its stub`);
    }

    const rounds = rng.int(1, 3);
    const safe = rng.bool(0.55);
    log.push(`${rounds} round(s), ${safe ? 'compatible' : 'any'} changes`);
    for (let round = 1; round <= rounds; round++) {
      stats.rounds++;
      // 1. The author edits handler files.
      for (const [path, spec] of specsOf(result)) {
        const t = tracked.get(path);
        if (!t || t.frozen || !rng.bool(0.8)) continue;
        const p = primitiveOf(state.model, spec.kind, spec.name)!;
        const uses = state.uses.get(keyOf(p)) ?? emptyUses();
        state.uses.set(keyOf(p), uses);
        const before = await readFile(join(out, path), 'utf8');
        const edit = editHandler(before, p, uses, rng, { unparseable: rng.bool(0.015) });
        await writeFile(join(out, path), edit.content);
        t.lines.push(...edit.authorLines.map(norm));
        if (edit.unparseable) (t.frozen = t.unparseable = true), stats.unparseable++, (compat ??= `${path} does not parse`);
        for (const [rel, content] of edit.extraFiles) {
          await mkdir(dirname(join(out, 'handlers', rel)), { recursive: true });
          await writeFile(join(out, 'handlers', rel), content);
          extra.set(`handlers/${rel}`, content);
        }
        log.push(`round ${round} edit ${path}: ${edit.log.join('; ') || 'nothing'}`);
      }

      // 2. The manifest changes.
      const beforeModel = state.model;
      const prevSpecs = specsOf(result);
      const changes = changeManifest(state, rng, safe);
      log.push(`round ${round} changes: ${changes.join('; ')}`);
      const verdict = compatible(beforeModel, state.model, state.uses, (p) => prevSpecs.has(handlerPathOf(p)) && !tracked.get(handlerPathOf(p))?.frozen);
      compat ??= verdict;
      await writeFile(manifest, render(state.model));
      log.push(`manifest v${round}:\n${render(state.model)}`);

      // 3. Regenerate and compare.
      const beforeTree = await readTree(out);
      result = await run();
      const afterTree = await readTree(out);
      await expectGeneratorFiles(result, out, fail);
      const specs = specsOf(result);
      const claimed = new Set<string>();
      for (const [path, before] of beforeTree) {
        if (!path.startsWith('handlers/')) continue;
        const after = afterTree.get(path);
        const t = tracked.get(path);
        const prev = prevSpecs.get(path);
        if (t?.frozen && !t.unparseable && !prev && specs.has(path)) {
          // A handler left behind whose primitive needs it again (e.g. a prompt that gained a completion): updated in place.
          const now = afterTree.get(path) ?? '';
          const lost = missingLines(t.lines, now);
          if (lost.length) fail(`${path}: author lines lost when the left-behind handler was taken up again:\n${lost.join('\n')}\n--- after ---\n${now}`);
          // The line that took it out of the type check while it was left behind goes when it is taken up again.
          const unmarked = before.startsWith('// @ts-nocheck mcp-gen:') ? before.slice(before.indexOf('\n') + 1) : before;
          const at = isSubsequence(unmarked.split('\n').map(norm), now.split('\n').map(norm));
          if (at >= 0) fail(`${path}: line ${at + 1} of the left-behind handler is gone\n--- before ---\n${before}\n--- after ---\n${now}`);
          t.frozen = false;
          claimed.add(path);
          continue;
        }
        if (extra.has(path) || !t || t.frozen || !prev) {
          if (after !== before) fail(`${path} (${extra.has(path) ? 'added by the author' : t?.frozen ? 'unparseable or left behind' : 'not a handler'}) changed:\n${after ?? '(deleted)'}`);
          continue;
        }
        const p = primitiveOf(beforeModel, prev.kind, prev.name)!;
        const q = successor(p, state.model);
        const target = q && specs.has(handlerPathOf(q)) ? handlerPathOf(q) : undefined;
        if (!target) {
          // Kept byte for byte below one added line that takes it out of the type check (once: a later run keeps it as it is).
          const marked = `// @ts-nocheck mcp-gen: ${p.kind} ${p.name} is no longer in the manifest`;
          if (after !== before && !(after?.startsWith(marked) && after.slice(after.indexOf('\n') + 1) === before)) fail(`${path}: the handler of removed ${p.kind} ${p.name} changed`);
          t.frozen = true;
          stats.removedKept++;
          continue;
        }
        const moved = target !== path;
        if (moved) {
          if (after !== undefined) fail(`${path}: still there after ${p.kind} ${p.name} was renamed to ${q!.name}`);
          stats.renames++;
        }
        const now = afterTree.get(target);
        if (now === undefined) return fail(`${target}: missing`);
        claimed.add(target);
        // Every author line is still there …
        const lost = missingLines(t.lines, now);
        stats.authorLinesChecked += t.lines.length;
        if (lost.length) fail(`${target}: author lines lost:\n${lost.join('\n')}\n--- before (${path}) ---\n${before}\n--- after ---\n${now}`);
        // … and the generator only inserted lines (or renamed the declaration and its type import).
        const rename = moved ? { from: [idOf(p.name), handlerTypeOf(p)], to: [idOf(q!.name), handlerTypeOf(q!)] } : undefined;
        const authorSet = new Set(t.lines);
        const expected = before.split('\n').map((l) => {
          if (!rename || authorSet.has(norm(l))) return norm(l);
          // Stub members declare their return type through the handler type too (`Promise<Returns<XResource['read']>>`).
          if (!/^(export const |import )/.test(l)) return norm(l.replace(new RegExp(`\\b${rename.from[1]}\\b`, 'g'), rename.to[1]!));
          // The handler type is named twice on a stub's declaration line: its type and its return type (`Returns<…>`).
          return norm(l.replace(new RegExp(`\\b${rename.from[0]}\\b`), rename.to[0]!).replace(new RegExp(`\\b${rename.from[1]}\\b`, 'g'), rename.to[1]!));
        });
        const at = isSubsequence(expected, now.split('\n').map(norm));
        if (at >= 0) fail(`${target}: line ${at + 1} of the previous version (${JSON.stringify(expected[at])}) is gone${moved ? ` (moved from ${path})` : ''}\n--- before ---\n${before}\n--- after ---\n${now}`);
        if (moved) tracked.delete(path);
        tracked.set(target, t);
      }
      // New handler files are their stubs.
      for (const [path, spec] of specs) {
        if (claimed.has(path) || tracked.has(path)) continue;
        if (beforeTree.has(path)) fail(`${path}: existed but was not tracked`);
        const from = spec.renamedFrom !== undefined ? `handlers/${spec.kind}s/${idOf(spec.renamedFrom)}.ts` : undefined;
        if (from !== undefined && tracked.get(from)?.frozen && beforeTree.has(from)) {
          // An unparseable handler is not moved (and reported); the new name gets no file yet.
          if (afterTree.has(path)) fail(`${path}: created although ${from} (renamed from) could not be parsed`);
          if (!result.notes.some((n) => n.level === 'warning' && n.path === from)) fail(`${from}: unparseable and not moved, but not reported`);
          continue;
        }
        if (afterTree.get(path) !== spec.content) fail(`${path}: a new handler is not its stub:\n${afterTree.get(path)}\n--- stub ---\n${spec.content}`);
        tracked.set(path, { lines: [], frozen: false });
      }
      // Nothing else appeared under handlers/.
      for (const path of afterTree.keys()) {
        if (path.startsWith('handlers/') && !beforeTree.has(path) && !specs.has(path)) fail(`${path}: appeared from nowhere`);
      }
    }

    // A rerun of the unchanged manifest writes nothing.
    if (rng.bool(0.3)) {
      const before = await snapshotTree(out);
      const again = await run();
      const after = await snapshotTree(out);
      const r = again.report;
      if (r.created.length + r.written.length + r.edited.length + r.removed.length > 0) fail(`a no-op rerun wrote: ${JSON.stringify(r)}`);
      for (const [p, f] of before) {
        const g = after.get(p);
        if (!g || g.content !== f.content || g.mtimeMs !== f.mtimeMs || g.ino !== f.ino) fail(`a no-op rerun touched ${p}`);
      }
      if (after.size !== before.size) fail('a no-op rerun added files');
      stats.noOpChecks++;
    }

    if (compat === undefined) stats.compatibleCases++;
    log.push(`compatible: ${compat === undefined ? 'yes' : `no (${compat})`}`);
    if (opts.typecheck && compat === undefined) {
      const t = performance.now();
      const all = typecheck(out);
      stats.typecheckMs += performance.now() - t;
      stats.typechecked++;
      // Handler code shows up in handlers/ and in handlers.gen.ts, which imports every handler and types it;
      // errors inside other generated files are the emitters' business (golden and contract tests), counted apart.
      const errors = all.filter((e) => e.startsWith('handlers/') || e.startsWith('handlers.gen.ts:'));
      if (all.length > errors.length) stats.generatorTypeErrors.push(...all.filter((e) => !errors.includes(e)).map((e) => `case ${opts.index}: ${e}`));
      if (errors.length) {
        const files = await readTree(join(out, 'handlers'));
        fail(`the project no longer type-checks after compatible changes:\n${errors.slice(0, 20).join('\n')}\n--- handlers ---\n${[...files].map(([p, c]) => `// ${p}\n${c}`).join('\n')}`);
      }
    }
    stats.cases++;
    if (!process.env.REGEN_KEEP) await rm(dir, { recursive: true, force: true });
  } catch (e) {
    if (!(e instanceof CaseFailure)) throw new CaseFailure(`${String((e as Error).stack ?? e)}\n--- case log ---\n${log.join('\n')}`);
    throw e;
  }
}

/** Every generator-owned file on disk equals what the manifest generates; no staging or journal left; nothing else outside handlers/. */
async function expectGeneratorFiles(result: GenerateResult, out: string, fail: (m: string) => never): Promise<void> {
  const tree = await readTree(out);
  const owned = new Set<string>(['.mcp-gen.json']);
  for (const f of result.files) {
    if (f.owner !== 'generator') continue;
    owned.add(f.path);
    if (tree.get(f.path) !== f.content) fail(`${f.path}: differs from a fresh generation`);
  }
  for (const path of tree.keys()) {
    if (path.startsWith('handlers/')) continue;
    if (!owned.has(path)) fail(`${path}: left in the output folder (not generated by this manifest)`);
  }
}

/** Options of a property run. */
export interface PropertyOptions {
  readonly numRuns: number;
  readonly seed: number;
  /** Type-check every n-th case that stayed compatible (0: never). */
  readonly typecheckEvery: number;
  readonly path?: string;
  readonly stats?: Stats;
  /** Stop at the first failure without shrinking. */
  readonly endOnFailure?: boolean;
}

/** Runs the property; throws fast-check's report (seed, path, counterexample and case log) on failure. */
export async function runProperty(options: PropertyOptions): Promise<Stats> {
  const stats = options.stats ?? newStats();
  const root = join(repoRoot, 'test', `.tmp-regen-${process.pid}-${options.seed >>> 0}`);
  let index = 0;
  let compatibleSeen = 0;
  try {
    await fc.assert(
      fc.asyncProperty(modelArb, fc.noShrink(fc.integer()), async (model, scriptSeed) => {
        const i = index++;
        const before = stats.compatibleCases;
        await runCase(model, scriptSeed, {
          root,
          index: i,
          stats,
          // decided after the run: every n-th compatible case is type-checked
          get typecheck() {
            return options.typecheckEvery > 0 && compatibleSeen % options.typecheckEvery === 0;
          },
        });
        if (stats.compatibleCases > before) compatibleSeen++;
      }),
      { numRuns: options.numRuns, seed: options.seed, ...(options.path ? { path: options.path } : {}), endOnFailure: options.endOnFailure ?? false },
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return stats;
}
