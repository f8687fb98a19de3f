/**
 * The whole run for one manifest: load → validate → build IR → emit → plan →
 * write (or check). Pure up to the plan; only `write/` touches the disk.
 */
import { relative, resolve } from 'node:path';
import { type Diagnostic, UserError, hasErrors } from './diagnostics.js';
import { buildContract } from './contract/index.js';
import { emitAll, type EmittedFile } from './emit/index.js';
import { startTypeCompiler, stopTypeCompiler } from './emit/type-compiler.js';

// A caller with several manifests holds the type compiler across them (see type-compiler.ts).
export { startTypeCompiler, stopTypeCompiler };
import type { Ir } from './ir/types.js';
import { loadManifest } from './manifest/index.js';
import { findDrift, type Drift } from './write/check.js';
import { hasPendingJournal, recover } from './write/journal.js';
import { planWrites, type PlanNote } from './write/plan.js';
import { writeFiles, type WriteReport } from './write/write.js';
import { remember } from './write/fastpath.js';
import { RECORD_FILE } from './write/record.js';

/** Options shared by generate and check. */
export interface RunOptions {
  /** The exact output folder; default `generated/<server.folder>` under the working directory. */
  readonly outDir?: string;
  readonly cwd?: string;
  /** Overwrite or delete generated files that were edited by hand. */
  readonly force?: boolean;
}

/** The outcome of compiling a manifest in memory. */
export interface CompileResult {
  readonly ir: Ir;
  readonly files: readonly EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** Every input file read (manifest, schema files, sources). */
  readonly inputs: readonly string[];
  readonly outDir: string;
}

/** Loads and emits; throws `UserError` with every diagnostic when the manifest has errors. */
export async function compileManifest(manifestPath: string, options: RunOptions = {}): Promise<CompileResult> {
  startTypeCompiler(); // loads json-schema-to-typescript on another core while the manifest is read and checked
  let loaded: Awaited<ReturnType<typeof loadManifest>>;
  let files: EmittedFile[];
  try {
    loaded = await loadManifest(manifestPath);
    if (!loaded.ir || hasErrors(loaded.diagnostics)) {
      const n = loaded.diagnostics.filter((d) => d.severity === 'error').length;
      throw new UserError(`${manifestPath}: ${n} error${n === 1 ? '' : 's'}; nothing was written.`, loaded.diagnostics);
    }
    files = await emitAll(loaded.ir, buildContract(loaded.ir));
  } finally {
    stopTypeCompiler();
  }
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? `generated/${loaded.ir.server.folder}`);
  return { ir: loaded.ir, files, diagnostics: loaded.diagnostics, inputs: loaded.files, outDir };
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
  const compiled = await compileManifest(manifestPath, options);
  const recovered = await recover(compiled.outDir);
  const plan = await planWrites(compiled.outDir, compiled.files, { manifestName: compiled.ir.manifestName, force: options.force === true });
  const conflicts = plan.notes.filter((n) => n.level === 'conflict');
  if (conflicts.length > 0) {
    const lines = conflicts.map((c) => `  ${c.path} ${c.message}`).join('\n');
    throw new UserError(`${conflicts.length} file${conflicts.length === 1 ? '' : 's'} in ${relative(options.cwd ?? process.cwd(), compiled.outDir) || '.'} would be overwritten or deleted; nothing was written:\n${lines}`);
  }
  const report = await writeFiles(plan);
  if (!plan.notes.some((n) => n.level === 'warning')) {
    // The plan hashed every generated file for the record already: the cache entry reuses those hashes.
    const outputs = [
      ...Object.entries(plan.hashes).map(([path, hash]) => ({ path, sha256: hash.slice('sha256:'.length) })),
      { path: RECORD_FILE, content: plan.record },
    ];
    const handlers = compiled.files.flatMap((f) => (f.handler ? [f.handler] : []));
    await remember(options.cwd ?? process.cwd(), manifestPath, options.outDir, { outDir: compiled.outDir, inputs: compiled.inputs, outputs, handlers });
  }
  return { ...compiled, report, notes: plan.notes, ...(recovered === 'none' ? {} : { recovered }) };
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
  const plan = await planWrites(compiled.outDir, compiled.files, { manifestName: compiled.ir.manifestName });
  return { ...compiled, drift: findDrift(plan), notes: plan.notes, interrupted: await hasPendingJournal(compiled.outDir) };
}
