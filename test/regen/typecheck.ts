/**
 * `tsc --noEmit` for one generated project, in process: the compiler options
 * are the repository's tsconfig.json, and the parsed library and dependency
 * declarations are shared between runs (only the project's own files are
 * parsed again), so a check costs about a second instead of seven.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/paths.js';

let shared: { options: ts.CompilerOptions; host: ts.CompilerHost } | undefined;

function setup(): NonNullable<typeof shared> {
  if (shared) return shared;
  const parsed = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!parsed) throw new Error('cannot read tsconfig.json');
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true };
  const base = ts.createCompilerHost(options);
  const cache = new Map<string, ts.SourceFile>();
  const host: ts.CompilerHost = {
    ...base,
    getSourceFile(file, lang, onError, create) {
      const stable = !file.includes('/.tmp-');
      const hit = stable ? cache.get(file) : undefined;
      if (hit) return hit;
      const sf = base.getSourceFile(file, lang, onError, create);
      if (sf && stable) cache.set(file, sf);
      return sf;
    },
  };
  shared = { options, host };
  return shared;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Type-checks every `.ts` file under `dir`; returns the errors as `path:line:col message`. */
export function typecheck(dir: string): string[] {
  const { options, host } = setup();
  const program = ts.createProgram({ rootNames: tsFiles(dir), options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!d.file || d.start === undefined) return msg;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(dir, d.file.fileName)}:${line + 1}:${character + 1} ${msg}`;
  });
}
