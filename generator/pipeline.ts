/**
 * The whole run for one manifest: load → validate → build IR → emit → plan →
 * write (or check). Pure up to the plan; only `write/` touches the disk.
 */
import { resolve } from 'node:path';
import { type Diagnostic, UserError, hasErrors } from './diagnostics.js';
import { emitAll, type EmittedFile } from './emit/index.js';
import type { Ir } from './ir/types.js';
import { loadManifest } from './manifest/index.js';
import { findDrift, type Drift } from './write/check.js';
import { planWrites } from './write/plan.js';
import { writeFiles, type WriteReport } from './write/write.js';

/** Options shared by generate and check. */
export interface RunOptions {
  /** The exact output folder; default `generated/<server.name>` under the working directory. */
  readonly outDir?: string;
  readonly cwd?: string;
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
  const loaded = await loadManifest(manifestPath);
  if (!loaded.ir || hasErrors(loaded.diagnostics)) {
    const n = loaded.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UserError(`${manifestPath}: ${n} error${n === 1 ? '' : 's'}; nothing was written.`, loaded.diagnostics);
  }
  const files = await emitAll(loaded.ir);
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? `generated/${loaded.ir.server.name}`);
  return { ir: loaded.ir, files, diagnostics: loaded.diagnostics, inputs: loaded.files, outDir };
}

/** The result of a generate run. */
export interface GenerateResult extends CompileResult {
  readonly report: WriteReport;
}

/** Generates one manifest's output folder. */
export async function generate(manifestPath: string, options: RunOptions = {}): Promise<GenerateResult> {
  const compiled = await compileManifest(manifestPath, options);
  const plan = await planWrites(compiled.outDir, compiled.files);
  const report = await writeFiles(plan);
  return { ...compiled, report };
}

/** The result of a check run. */
export interface CheckResult extends CompileResult {
  readonly drift: readonly Drift[];
}

/** Reports how the output on disk differs from what would be generated; writes nothing. */
export async function check(manifestPath: string, options: RunOptions = {}): Promise<CheckResult> {
  const compiled = await compileManifest(manifestPath, options);
  const plan = await planWrites(compiled.outDir, compiled.files);
  return { ...compiled, drift: findDrift(plan) };
}
