/**
 * Where `mcp-gen evidence` puts its packs: the suites write into a fresh folder of their own, and only a
 * run that produced packs replaces the previous ones, so a run that crashed leaves the last packs as
 * they were.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A fresh, empty folder next to `outDir` for one run's packs. */
export function stagingFolder(outDir: string): string {
  mkdirSync(dirname(outDir), { recursive: true });
  return mkdtempSync(join(dirname(outDir), '.mcp-gen-evidence-'));
}

/**
 * Moves the packs of `staging` into `outDir`, replacing the packs of the same names; removes `staging`.
 * Returns the file names published (none: `outDir` is left untouched).
 */
export function publishEvidence(staging: string, outDir: string): string[] {
  const packs = readdirSync(staging).filter((f) => f.endsWith('.json')).sort();
  if (packs.length > 0) {
    mkdirSync(outDir, { recursive: true });
    for (const f of packs) renameSync(join(staging, f), join(outDir, f));
  }
  rmSync(staging, { recursive: true, force: true });
  return packs;
}
