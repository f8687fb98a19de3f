#!/usr/bin/env node
// The mcp-gen command. Runs the compiled CLI (built by `npm run build`, which `npm ci` runs): the bundle in
// dist/bundle/ (scripts/build-bundle.mjs) with V8's code cache (dist/cli/codeCache.js), or dist/cli/run.js
// when the build made no bundle.
import { existsSync } from 'node:fs';

const loader = new URL('../dist/cli/codeCache.js', import.meta.url);
if (!existsSync(loader)) {
  process.stderr.write('mcp-gen is not built yet: run `npm run build` in the mcp-gen folder.\n');
  process.exit(1);
}
const { runBundle } = await import(loader.href);
const run = await runBundle(new URL('../dist/bundle/', import.meta.url), process.argv.slice(2));
if (run === undefined) await import(new URL('../dist/cli/run.js', import.meta.url).href);
else process.exitCode = run.status;
