/**
 * `mcp-gen init`: the files a new project needs — a starter manifest, the
 * tsconfig a generated server compiles with, the vitest config its contract
 * suites run under, and package.json scripts and dependencies. Pure: returns the files and a merged package.json; the CLI
 * writes them and never overwrites an existing file.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { render } from '../emit/context.js';

/** Versions the generated code is tested with (kept in step with mcp-gen's own package.json). */
function ownPackage(): { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as never;
}

/** The dependencies a project with generated servers declares. */
export function projectDependencies(): { dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  const own = ownPackage();
  const pick = (from: Record<string, string>, names: string[]) => Object.fromEntries(names.filter((n) => from[n]).map((n) => [n, from[n]!]));
  return {
    dependencies: {
      'mcp-gen': `^${own.version}`,
      ...pick(own.dependencies, ['@modelcontextprotocol/server', '@modelcontextprotocol/client']),
    },
    devDependencies: pick(own.devDependencies, ['typescript', 'tsx', 'vitest', 'vite', '@types/node']),
  };
}

/** A server name derived from a folder name (lowercase, digits, dashes). */
export function serverNameFor(folder: string): string {
  const name = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return /^[a-z0-9]/.test(name) ? name : `mcp-${name || 'server'}`.replace(/-+$/, '');
}

/** The files `init` writes into `folder`, given its current package.json (if any). */
export function initFiles(folder: string, existingPackageJson?: string): { path: string; content: string; merge?: boolean }[] {
  const name = serverNameFor(folder);
  const title = name.replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => `${sep ? ' ' : ''}${c.toUpperCase()}`);
  const deps = projectDependencies();
  const pkg = existingPackageJson ? (JSON.parse(existingPackageJson) as Record<string, unknown>) : { name, version: '0.1.0', private: true };
  const merged = {
    ...pkg,
    type: 'module',
    scripts: {
      generate: 'mcp-gen generate',
      check: 'mcp-gen check',
      diff: 'mcp-gen diff',
      start: `tsx generated/${name}/main.gen.ts`,
      'start:http': `tsx generated/${name}/main.gen.ts --http`,
      typecheck: 'tsc --noEmit',
      test: 'tsc --noEmit && vitest run',
      ...withoutPlaceholderTest((pkg['scripts'] as Record<string, string> | undefined) ?? {}),
    },
    dependencies: { ...deps.dependencies, ...((pkg['dependencies'] as Record<string, string> | undefined) ?? {}) },
    devDependencies: { ...deps.devDependencies, ...((pkg['devDependencies'] as Record<string, string> | undefined) ?? {}) },
  };
  return [
    { path: 'mcp.manifest.yaml', content: render('init/mcp.manifest.yaml', { name, title }) },
    { path: 'tsconfig.json', content: render('init/tsconfig.json', {}) },
    { path: 'vitest.config.ts', content: render('init/vitest.config.ts', {}) },
    { path: 'package.json', content: `${JSON.stringify(merged, null, 2)}\n`, merge: existingPackageJson !== undefined },
  ];
}

/** The author's scripts, minus the placeholder `test` script `npm init` writes. */
function withoutPlaceholderTest(scripts: Record<string, string>): Record<string, string> {
  const out = { ...scripts };
  if (/no test specified/.test(out['test'] ?? '')) delete out['test'];
  return out;
}

/** The commands a newcomer runs next, in order. */
export const NEXT_STEPS = ['npm install', 'npx mcp-gen', 'npm test'] as const;
