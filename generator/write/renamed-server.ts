/**
 * A changed `server.name` moves the default output folder (`generated/<name>`). Generating into the new
 * folder would write fresh stubs there and strand the real handlers in the old one, so the run stops when
 * the new folder does not exist yet and a sibling folder's ownership record holds handlers of this
 * manifest's primitives, and says how to carry them over.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../diagnostics.js';
import { readRecord, RECORD_FILE } from './record.js';

/** The sibling output folder holding handlers of `keys` (`kind:name`), when `outDir` is new. */
export async function strandedOutput(outDir: string, keys: readonly string[]): Promise<{ dir: string; shared: string[] } | undefined> {
  if (existsSync(outDir) || keys.length === 0) return undefined;
  const parent = dirname(outDir);
  if (!existsSync(parent)) return undefined;
  const wanted = new Set(keys);
  for (const entry of readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const dir = join(parent, entry);
    if (!existsSync(join(dir, RECORD_FILE))) continue;
    const recorded = Object.keys((await readRecord(dir))?.handlers ?? {});
    const shared = recorded.filter((k) => wanted.has(k));
    // Most of that folder's handlers belong to this manifest: the same server under its old name.
    if (shared.length > 0 && shared.length * 2 >= recorded.length) return { dir, shared };
  }
  return undefined;
}

/** Stops a run that would strand handlers, naming the old folder and the two ways on. */
export async function refuseStrandedHandlers(outDir: string, keys: readonly string[], shown: (p: string) => string): Promise<void> {
  const found = await strandedOutput(outDir, keys);
  if (found === undefined) return;
  const names = found.shared.slice(0, 3).map((k) => k.replace(':', ' ')).join(', ');
  throw new UserError(
    `${shown(found.dir)} holds the handlers of ${found.shared.length} primitive${found.shared.length === 1 ? '' : 's'} of this manifest (${names}${found.shared.length > 3 ? ', …' : ''}), ` +
      `but server.name now makes the output folder ${shown(outDir)}; nothing was written. Carry the handlers over with ` +
      `\`mv ${shown(found.dir)} ${shown(outDir)}\` and run again, or keep the old folder with \`--out ${shown(found.dir)}\` ` +
      `(or \`--out ${shown(outDir)}\` to start ${basename(outDir)} afresh).`,
  );
}
