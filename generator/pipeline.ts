/**
 * The whole run for one manifest, phase by phase:
 *
 *   parse → shape → refs → checks → IR → contract → lint → emit → plan → write (or check)
 *
 * Each phase is a function of its inputs. The manifest phases read files only through the run's
 * `InputFiles`; the type compiler is an object the caller may hold across runs; only `write/` writes.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildContract } from './contract/index.js';
import type { Contract } from './contract/types.js';
import { type Diagnostic, Findings, UserError, hasErrors } from './diagnostics.js';
import { emitLaidOut, type EmittedFile, type PieceTexts } from './emit/index.js';
import type { Pieces } from './emit/pieces.js';
import { hasHandler } from './emit/context.js';
import { TextRefs } from './emit/refs.js';
import { FEW_TYPES, TypeCompiler } from './emit/type-compiler.js';
import { typesToCompile } from './emit/types.js';
import { buildIr } from './ir/build.js';
import type { Ir, IrPrimitive } from './ir/types.js';
import { lintDiagnostics } from './lint/engine.js';
import { InputFiles, checkShape, parseManifest, resolveRefs, runChecks, type LoadResult } from './manifest/index.js';
import { findDrift, type Drift } from './write/check.js';
import { hasPendingJournal, recover } from './write/journal.js';
import { planWrites, type PlanNote } from './write/plan.js';
import { writeFiles, type WriteReport } from './write/write.js';
import { remember } from './write/fastpath.js';
import { diskAfter, openCache, storeCache } from './write/cache-store.js';
import type { GenerationCache } from './cache.js';
import { RECORD_FILE } from './write/record.js';
import { refuseStrandedHandlers } from './write/renamed-server.js';
import { lastLayout, spliceTexts, type Spliced } from './write/splice.js';
import { Prefetch } from './write/prefetch.js';

export { TypeCompiler, openCache };
export type { LoadResult, GenerationCache };

/** Options of `loadManifest`. */
export interface LoadOptions {
  /** Run the lint rules (MG7xx) once the manifest is valid; default true. Their errors withhold the IR like any other. */
  readonly lint?: boolean;
  /** The incremental cache: checks whose inputs an earlier run saw answer from it (see `RunOptions.cache`). */
  readonly cache?: GenerationCache;
  /** The run's type compiler: told as soon as the contract is built when many types will miss the cache (`typesToCompile`). */
  readonly types?: Pick<TypeCompiler, 'need' | 'waiting'>;
}

/** A loaded manifest with its contract (present with the IR). */
export interface Analysis extends LoadResult {
  readonly contract?: Contract;
  /** The diagnostics as counted and shown by a regeneration; `diagnostics` is `findings.sorted`. */
  readonly findings: Findings;
}

/**
 * `value` with `findings`, and `diagnostics` read from them on first use (sorting is deferred to that
 * read). Spreading the result reads it, so a result that should not sort is built with this, not a spread.
 */
function withFindings<T extends object>(findings: Findings, value: T): T & { readonly findings: Findings; readonly diagnostics: readonly Diagnostic[] } {
  return Object.defineProperties(value, {
    findings: { value: findings, enumerable: true },
    diagnostics: { get: () => findings.sorted, enumerable: true },
  }) as T & { readonly findings: Findings; readonly diagnostics: readonly Diagnostic[] };
}

/**
 * The front of the pipeline: parse, shape, refs, checks, IR, contract and lint. Stops after the first
 * phase with errors (every finding of that phase reported); the IR and contract are returned only when
 * nothing, lint included, is an error. Reads the manifest and the files it names; never prints or exits.
 */
export async function analyseManifest(manifestPath: string, options: LoadOptions = {}): Promise<Analysis> {
  const inputs = new InputFiles();
  const stop = (diagnostics: readonly Diagnostic[]): Analysis => withFindings(new Findings(diagnostics), { files: inputs.files });
  const parsed = await parseManifest(resolve(manifestPath), inputs, options.cache);
  if (parsed.value === undefined) return stop(parsed.diagnostics);
  const raw = checkShape(parsed, options.cache);
  if (raw === undefined) return stop(parsed.reporter.diagnostics);
  const resolved = resolveRefs(raw, parsed, inputs);
  const refsOk = !parsed.reporter.failed && !hasErrors(resolved.external);
  const built = runChecks(resolved, parsed, inputs, refsOk, options.cache);
  const checked = [...parsed.reporter.diagnostics, ...resolved.external];
  if (hasErrors(checked)) return stop(checked);
  const ir = buildIr(built);
  // Every entry is valid and checked: what this run computed of each is kept for the next one.
  parsed.entries?.keep();
  const contract = buildContract(ir);
  const entries = parsed.entries;
  // Only entries built this run can have new types (a kept one's are as the last run left them): when many
  // miss the cache, the compiler's worker starts loading now, on another core, while this one lints and
  // lays out; a few are compiled in this thread when emitted (see `FEW_TYPES`).
  if (options.types?.waiting === true && options.cache && entries) {
    const fresh = [...ir.tools, ...ir.resources, ...ir.prompts].filter((p) => !entries.wasKept(p));
    if (typesToCompile(ir, contract, options.cache, fresh, FEW_TYPES) > FEW_TYPES) options.types.need();
  }
  // An IR entry is keyed by the text it is a function of, where the front knows it (see `entryHash`).
  if (options.cache && entries) options.cache.entryKeys = (p) => entries.keyOf(p as IrPrimitive);
  const linted = options.lint === false ? undefined : lintDiagnostics({
    manifest: resolved.manifest, ir, file: parsed.reporter.file, map: parsed.reporter.map,
    ...(options.cache ? { cache: options.cache } : {}), ...(entries ? { entryKey: (p: IrPrimitive) => entries.keyOf(p) } : {}),
  });
  // Hints are only counted by generate: they are sorted when read, and sorting with their places locates only what it must.
  const all = [...checked, ...(linted?.diagnostics ?? [])];
  const findings = new Findings(all, linted?.places);
  return withFindings(findings, hasErrors(all) ? { files: inputs.files } : { ir, contract, files: inputs.files });
}

/** Loads a manifest up to its IR (parse, shape, refs, checks, IR, lint), for lint, diff and watch. */
export async function loadManifest(manifestPath: string, options: LoadOptions = {}): Promise<LoadResult> {
  const { contract: _, ...loaded } = await analyseManifest(manifestPath, options);
  return loaded;
}

/** Options shared by generate and check. */
export interface RunOptions {
  /** The exact output folder; default `generated/<server.folder>` under the working directory. */
  readonly outDir?: string;
  readonly cwd?: string;
  /** Overwrite or delete generated files that were edited by hand. */
  readonly force?: boolean;
  /** A type compiler the caller holds across runs (started); by default one is started for this run. */
  readonly types?: TypeCompiler;
  /**
   * The incremental cache (`openCache`): results of the last run that this one reuses where their inputs
   * are unchanged. Output is the same with or without it; `generate` keeps it for the next run.
   */
  readonly cache?: GenerationCache;
}

/** The outcome of compiling a manifest in memory. */
export interface CompileResult {
  readonly ir: Ir;
  readonly contract: Contract;
  readonly files: readonly EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The same diagnostics as counted and shown by a regeneration (`diagnostics` is `findings.sorted`). */
  readonly findings: Findings;
  /** Every input file read (manifest, schema files, sources). */
  readonly inputs: readonly string[];
  readonly outDir: string;
}

/** An analysed manifest and its output folder, for the emit step of `compile`. */
interface Compiling {
  readonly ir: Ir;
  readonly contract: Contract;
  readonly outDir: string;
  /** Every file of the run, emitted with `types` (which runs until the step returns). */
  emit(): Promise<EmittedFile[]>;
  /** Every file of the run laid out with `texts` (see emit/pieces.ts), and the pieces they were laid out from. */
  layOut(texts: PieceTexts): Promise<{ files: EmittedFile[]; pieces: Pieces | undefined }>;
}

/**
 * Analyses, then runs `step` (which emits); throws `UserError` with every diagnostic when the manifest
 * has errors. The type compiler runs until `step` returns.
 */
async function compile<T>(manifestPath: string, options: RunOptions, step: (c: Compiling) => Promise<T>): Promise<Omit<CompileResult, 'files'> & { readonly out: T }> {
  const types = options.types ?? new TypeCompiler();
  // Loads json-schema-to-typescript on another core while the manifest is read and checked; when the
  // cache holds the last run's types, only once a type misses it.
  types.start(options.cache?.hasTypes === true ? { whenNeeded: true } : {});
  try {
    const analysis = await analyseManifest(manifestPath, options.cache ? { cache: options.cache, types } : {});
    const { ir, contract } = analysis;
    if (!ir || !contract) {
      const n = analysis.diagnostics.filter((d) => d.severity === 'error').length;
      throw new UserError(`${manifestPath}: ${n} error${n === 1 ? '' : 's'}; nothing was written.`, analysis.diagnostics);
    }
    const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? `generated/${ir.server.folder}`);
    const out = await step({ ir, contract, outDir, emit: async () => (await emitLaidOut(ir, contract, types, options.cache)).files, layOut: (texts) => emitLaidOut(ir, contract, types, options.cache, texts) });
    return withFindings(analysis.findings, { ir, contract, inputs: analysis.files, outDir, out });
  } finally {
    types.stop();
  }
}

/** Analyses and emits; throws `UserError` with every diagnostic when the manifest has errors. */
export async function compileManifest(manifestPath: string, options: RunOptions = {}): Promise<CompileResult> {
  const { out: files, ...compiled } = await compile(manifestPath, options, (c) => c.emit());
  return { ...compiled, files };
}

/**
 * The files of a generate run, with the texts of pieces put in (write/splice.ts): kept as the last run
 * left them, or taken from the files it wrote where the cache says they hold them, else rendered again,
 * else (a marker cut by an emitter, which a manifest could only cause on purpose) emitted without markers.
 * An interrupted run is completed or discarded first, so the files the emitters take as the last run's are.
 */
async function emitForWrite(c: Compiling, cwd: string, options: RunOptions, prefetch?: Prefetch): Promise<{ files: EmittedFile[]; spliced: Spliced; recovered: Awaited<ReturnType<typeof recover>>; global?: string }> {
  if (options.outDir === undefined) await refuseStrandedHandlers(c.outDir, handlerKeys(c.ir), (p) => relative(cwd, p) || '.');
  const recovered = await recover(c.outDir);
  const plain = (files: EmittedFile[]): Spliced => ({ files, texts: new Map(), read: new Map() });
  if (options.cache === undefined) {
    const files = await c.emit();
    return { files, recovered, spliced: plain(files) };
  }
  const disk = options.cache.diskOf(c.outDir);
  const texts = (reuse: boolean): PieceTexts => ({ refs: new TextRefs(), reuse, ...(reuse ? { last: lastLayout(c.outDir, disk) } : {}) });
  let run = texts(true);
  let emitted = await c.layOut(run);
  await prefetch?.settled();
  let spliced = spliceTexts(c.outDir, emitted.files, run.refs, emitted.pieces, disk, prefetch);
  if (spliced === 'render') {
    run = texts(false);
    emitted = await c.layOut(run);
    spliced = spliceTexts(c.outDir, emitted.files, run.refs, emitted.pieces, disk, prefetch);
  }
  if (typeof spliced === 'string') {
    const files = await c.emit();
    return { files, recovered, spliced: plain(files) };
  }
  return { files: emitted.files, spliced, recovered, ...(emitted.pieces?.global !== undefined ? { global: emitted.pieces.global } : {}) };
}

/** `kind:name` of every primitive with a handler file, as the ownership record keys them. */
function handlerKeys(ir: Ir): string[] {
  return [...ir.tools, ...ir.resources, ...ir.prompts].filter(hasHandler).map((p) => `${p.kind}:${p.name}`);
}


/** The result of a generate run. */
export interface GenerateResult extends CompileResult {
  readonly report: WriteReport;
  /** Handler edits, moves, removed primitives and files left alone. */
  readonly notes: readonly PlanNote[];
  /** Set when an interrupted earlier run was completed or discarded first. */
  readonly recovered?: 'completed' | 'discarded';
}

/**
 * Generates one manifest's output folder. Nothing is written unless every
 * file is ready and no generated file was edited by hand (see `--force`).
 */
export async function generate(manifestPath: string, options: RunOptions = {}): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  // The large files a splice takes texts from, read on other threads while the manifest is analysed.
  const prefetch = options.cache ? Prefetch.start(options.cache.lastDisk) : undefined;
  // Not spread: that would read `diagnostics`, and sort hints a regeneration only counts.
  const compiled = await compile(manifestPath, options, (c) => emitForWrite(c, cwd, options, prefetch));
  const { out } = compiled;
  const { spliced, recovered } = out;
  const last = options.cache?.diskOf(compiled.outDir);
  const plan = await planWrites(compiled.outDir, spliced.files, { manifestName: compiled.ir.manifestName, force: options.force === true, read: spliced.read, ...(last ? { disk: last } : {}) });
  const conflicts = plan.notes.filter((n) => n.level === 'conflict');
  if (conflicts.length > 0) {
    const lines = conflicts.map((c) => `  ${c.path} ${c.message}`).join('\n');
    throw new UserError(`${conflicts.length} file${conflicts.length === 1 ? '' : 's'} in ${relative(options.cwd ?? process.cwd(), compiled.outDir) || '.'} would be overwritten or deleted; nothing was written:\n${lines}`);
  }
  const { report, settled } = await writeFiles(plan);
  // The old copies of the files it replaced are removed on other threads while the run records what it wrote.
  settled.catch(() => undefined);
  const handlers = out.files.flatMap((f) => (f.handler ? [f.handler] : []));
  const disk = options.cache ? diskAfter(plan, out.files.filter((f) => f.handler !== undefined), spliced.texts, out.global) : undefined;
  if (options.cache) {
    // Warnings are printed after this: their positions, found now, are kept for the next run (a warning's
    // position inside a manifest entry is worked out on first read, and kept per entry text).
    for (const d of compiled.findings.warnings) void d.line;
    options.cache.recordDisk(disk);
  }
  const stored = options.cache ? storeCache(options.cwd ?? process.cwd(), manifestPath, options.outDir, options.cache) : undefined;
  // The plan hashed every generated file for the record already: the cache entry reuses those hashes.
  // Its warnings are each about one file (fastpath.ts `FileWarning`), so the no-op gives them again.
  const warnings = plan.notes.filter((n) => n.level === 'warning');
  const outputs = [
    ...Object.entries(plan.hashes).map(([path, hash]) => ({ path, sha256: hash.slice('sha256:'.length) })),
    { path: RECORD_FILE, content: plan.record },
  ];
  const stamps = disk && { ...disk.files, ...disk.handlers }; // taken after the write already
  await Promise.all([stored, remember(options.cwd ?? process.cwd(), manifestPath, options.outDir, { outDir: compiled.outDir, inputs: compiled.inputs, outputs, handlers, warnings, ...(stamps ? { stamps } : {}) })]);
  await settled;
  const { ir, contract, inputs, outDir } = compiled;
  return withFindings(compiled.findings, { ir, contract, inputs, outDir, files: asWritten(outDir, out.files, spliced), report, notes: plan.notes, ...(recovered === 'none' ? {} : { recovered }) });
}

/**
 * The emitted files as the caller sees them: a file whose texts were put in by write/splice.ts reads its
 * content from the output folder when asked (the run wrote it, or found it as it is).
 */
function asWritten(outDir: string, files: readonly EmittedFile[], spliced: Spliced): EmittedFile[] {
  if (spliced.files === files) return [...files];
  return files.map((f) => (spliced.texts.has(f.path) ? { path: f.path, owner: f.owner, get content() { return readFileSync(join(outDir, f.path), 'utf8'); } } : f));
}

/** The result of a check run. */
export interface CheckResult extends CompileResult {
  readonly drift: readonly Drift[];
  readonly notes: readonly PlanNote[];
  /** True when an interrupted run must be completed by `generate`. */
  readonly interrupted: boolean;
}

/** Reports how the output on disk differs from what would be generated; writes nothing. */
export async function check(manifestPath: string, options: RunOptions = {}): Promise<CheckResult> {
  const compiled = await compileManifest(manifestPath, options);
  const plan = await planWrites(compiled.outDir, compiled.files, { manifestName: compiled.ir.manifestName, diffs: true });
  return { ...compiled, drift: findDrift(plan), notes: plan.notes, interrupted: await hasPendingJournal(compiled.outDir) };
}
