/**
 * The floor of a full generation: what any generator in Node pays to read and parse the manifest and to
 * write mcp-gen's output, with no generation at all. Starts Node, parses the manifest with js-yaml (the
 * parser mcp-gen reads valid manifests with), and writes as many files of the same sizes as the listing
 * (`[[path, bytes], ...]` of a real output folder) into `out`.
 *
 *   node bench/floor.mjs <manifest.yaml> <listing.json> <out>
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';

const [manifest, listing, out] = process.argv.slice(2);
const doc = load(readFileSync(manifest, 'utf8'));
const text = JSON.stringify(doc);
const files = JSON.parse(readFileSync(listing, 'utf8'));
const made = new Set();
for (const [path, bytes] of files) {
  const target = join(out, path);
  if (!made.has(dirname(target))) mkdirSync(dirname(target), { recursive: true });
  made.add(dirname(target));
  writeFileSync(target, text.repeat(Math.ceil(bytes / text.length)).slice(0, bytes));
}
