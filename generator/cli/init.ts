/** The `init` command: writes a starter project into a folder without overwriting anything. */
import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

interface Out {
  out(text: string): void;
}

/** Creates the starter files in `folder`; existing files are kept (package.json gets the missing scripts and dependencies). */
export async function runInit(folder: string, io: Out): Promise<number> {
  const { NEXT_STEPS, initFiles } = await import('../init/index.js');
  const dir = resolve(folder);
  await mkdir(dir, { recursive: true });
  const pkgPath = join(dir, 'package.json');
  const existing = existsSync(pkgPath) ? readFileSync(pkgPath, 'utf8') : undefined;
  for (const f of initFiles(dir, existing)) {
    const target = join(dir, f.path);
    if (existsSync(target) && !f.merge) {
      io.out(`  kept ${f.path} (it exists)`);
      continue;
    }
    await writeFile(target, f.content, 'utf8');
    io.out(`  ${f.merge ? 'updated' : 'wrote'} ${f.path}`);
  }
  const where = relative(process.cwd(), dir);
  io.out('\nNext:');
  if (where) io.out(`  cd ${where}`);
  for (const step of NEXT_STEPS) io.out(`  ${step}`);
  io.out('Then fill in the handlers under generated/<server>/handlers/ and run `npm start`.');
  return 0;
}

/** Registers `mcp-gen init [folder]`. */
export function registerInit(program: Command, io: Out): void {
  program
    .command('init')
    .description('write a starter mcp.manifest.yaml, tsconfig.json, vitest.config.ts and package.json scripts into a folder (default: here)')
    .argument('[folder]', 'the project folder', '.')
    .action(async (folder: string) => {
      process.exitCode = await runInit(folder, io);
    });
}
