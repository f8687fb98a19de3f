/**
 * `mcp-gen diff`: the manifest's contract (built in memory, nothing written)
 * against a baseline `mcp.lock.json`, every change classified as breaking
 * for clients or compatible.
 */
import { relative, resolve } from 'node:path';
import { UserError, hasErrors, type Diagnostic } from '../diagnostics.js';
import { buildLock } from '../contract/lock.js';
import type { Ir } from '../ir/types.js';
import { analyseManifest } from '../pipeline.js';
import { loadBaseline } from './baseline.js';
import type { DiffReport } from './format.js';
import { compareLocks } from './kinds.js';
import type { Lock, Renames } from './types.js';

export { compareLocks } from './kinds.js';
export { RULES, classify, type DiffRule } from './rules.js';
export { compareSchemas } from './schema.js';
export { loadBaseline, parseLock } from './baseline.js';
export { diffJson, formatChange, formatDiff, type DiffReport } from './format.js';
export type { Change, DiffResult, Lock, Renames } from './types.js';

/** Options of `diffManifest`. */
export interface DiffOptions {
  /** A lock file, an output folder, or a git ref (default: the output folder's lock). */
  readonly against?: string;
  /** The output folder; default `generated/<server.folder>` under `cwd`, as for generate. */
  readonly outDir?: string;
  readonly cwd?: string;
}

/** The result of `diffManifest`, with the manifest's non-error diagnostics. */
export interface ManifestDiff extends DiffReport {
  readonly diagnostics: readonly Diagnostic[];
}

/** The `renamedFrom` of every current primitive, per kind. */
export function renamesOf(ir: Ir): Renames {
  const map = (items: readonly { name: string; renamedFrom?: string }[]) =>
    new Map(items.filter((p) => p.renamedFrom !== undefined).map((p) => [p.name, p.renamedFrom!]));
  return { tool: map(ir.tools), resource: map(ir.resources), prompt: map(ir.prompts) };
}

/** Compares the manifest with its baseline lock. Throws `UserError` for a bad manifest or a missing/invalid baseline. */
export async function diffManifest(manifestPath: string, options: DiffOptions = {}): Promise<ManifestDiff> {
  const loaded = await analyseManifest(manifestPath);
  if (!loaded.ir || !loaded.contract || hasErrors(loaded.diagnostics)) {
    const n = loaded.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UserError(`${manifestPath}: ${n} error${n === 1 ? '' : 's'}; fix them before comparing contracts.`, loaded.diagnostics);
  }
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? `generated/${loaded.ir.server.folder}`);
  const baseline = await loadBaseline({ ...(options.against !== undefined ? { against: options.against } : {}), outDir, cwd });
  const current = buildLock(loaded.ir, loaded.contract) as unknown as Lock;
  const result = compareLocks(baseline.lock, current, renamesOf(loaded.ir));
  return { ...result, baseline: baseline.source, manifest: relative(cwd, resolve(cwd, manifestPath)) || manifestPath, diagnostics: loaded.diagnostics };
}
