#!/usr/bin/env node
// The mcp-gen command. Runs the compiled CLI from dist/ (built by `npm run build`, which `npm ci` runs).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/run.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('mcp-gen is not built yet: run `npm run build` in the mcp-gen folder.\n');
  process.exit(1);
}
await import(entry.href);
