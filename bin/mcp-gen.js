#!/usr/bin/env node
// The mcp-gen command. Runs the compiled CLI (built by `npm run build`, which `npm ci` runs): bundled in
// dist/bundle/ (scripts/build-bundle.mjs), or from dist/cli/ when the build made no bundle.
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/bundle/run.js', import.meta.url);
const entry = existsSync(bundled) ? bundled : new URL('../dist/cli/run.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('mcp-gen is not built yet: run `npm run build` in the mcp-gen folder.\n');
  process.exit(1);
}
await import(entry.href);
