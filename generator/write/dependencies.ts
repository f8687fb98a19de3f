/**
 * The packages generated code imports. A generated folder whose project cannot resolve them compiles
 * and runs nowhere, so generate names what is missing and how to add it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Runtime imports of generated servers, clients and contract suites. */
export const GENERATED_CODE_DEPENDENCIES = ['mcp-gen', '@modelcontextprotocol/server', '@modelcontextprotocol/client'] as const;
/** What the contract suites and `main.gen.ts` are run with. */
export const GENERATED_CODE_DEV_DEPENDENCIES = ['vitest', 'tsx'] as const;

function installed(from: string, name: string): boolean {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    // mcp-gen's own repository resolves `mcp-gen` to itself.
    if (existsSync(join(dir, 'package.json')) && name === 'mcp-gen' && existsSync(join(dir, 'generator', 'runtime'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The dependencies (and dev dependencies) generated code in `outDir` cannot resolve. */
export function missingDependencies(outDir: string): { dependencies: string[]; devDependencies: string[] } {
  return {
    dependencies: GENERATED_CODE_DEPENDENCIES.filter((n) => !installed(outDir, n)),
    devDependencies: GENERATED_CODE_DEV_DEPENDENCIES.filter((n) => !installed(outDir, n)),
  };
}
