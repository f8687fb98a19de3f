// Writes the code cache of the bundled command line (dist/bundle/cli-<hash>.cjs.v8, see
// generator/cli/codeCache.ts): generates an example manifest, then runs, in this process, regenerations
// after changes to it, and caches the code V8 compiled for them. A run after that compiles
// only what these did not. Without a bundle there is nothing to do; a failure leaves no cache (the first
// run through the pipeline writes one) and does not fail the build.
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'dist', 'bundle');
const { CODE_CACHE_ENV, bundleFile, trainBundle } = await import(new URL('../dist/cli/codeCache.js', import.meta.url).href);
const bundle = bundleFile(dir);
if (bundle === undefined) process.exit(0);

/** The example: tools, resources with fixed URIs and templates, prompts, schema files and a content file. */
const EXAMPLE = join(root, 'manifests', 'support-desk');
/**
 * The regenerations the cache is written after, each a kind of one-primitive change: one tool's
 * description, one of its input's properties, a string input without a bound (a warning located in the
 * changed entry, which loads the position-keeping parser), a tool added, a tool removed, and a resource's
 * and a prompt's descriptions.
 */
const CHANGES = [
  (doc) => {
    const tool = doc.get('tools').items[0].key.value;
    doc.setIn(['tools', tool, 'description'], `${doc.getIn(['tools', tool, 'description'])} Changed.`);
  },
  (doc) => {
    const tool = doc.get('tools').items.find((t) => doc.getIn(['tools', t.key.value, 'input', 'properties'])).key.value;
    const property = doc.getIn(['tools', tool, 'input', 'properties']).items[0].key.value;
    doc.setIn(['tools', tool, 'input', 'properties', property, 'description'], 'Changed.');
  },
  (doc) => {
    const tool = doc.get('tools').items.find((t) => doc.getIn(['tools', t.key.value, 'input', 'properties'])).key.value;
    doc.setIn(['tools', tool, 'input', 'properties', 'note'], doc.createNode({ type: 'string', description: 'A note.' }));
  },
  (doc) => {
    const first = doc.get('tools').items[0];
    doc.setIn(['tools', `${first.key.value}_copy`], doc.createNode(first.value.toJSON()));
  },
  (doc) => {
    const last = doc.get('tools').items.at(-1).key.value;
    doc.deleteIn(['tools', last]);
  },
  (doc) => {
    for (const section of ['resources', 'prompts']) {
      const name = doc.get(section).items[0].key.value;
      doc.setIn([section, name, 'description'], `${doc.getIn([section, name, 'description'])} Changed.`);
    }
  },
];
const work = mkdtempSync(join(tmpdir(), 'mcp-gen-code-cache-'));
const printed = [];
const write = { out: process.stdout.write, err: process.stderr.write };
try {
  cpSync(EXAMPLE, join(work, 'm'), { recursive: true });
  const manifest = join(work, 'm', 'mcp.manifest.yaml');
  const args = ['generate', manifest, '--out', join(work, 'out')];
  // The runs print what a generation prints; kept, and shown only if one fails.
  process.stdout.write = process.stderr.write = (chunk) => (printed.push(String(chunk)), true);
  // The first generation runs in a process of its own: the cache holds what a regeneration compiles (code
  // only a generation from scratch runs is compiled when it runs, and a no-op does not load it).
  const first = spawnSync(process.execPath, [join(root, 'bin', 'mcp-gen.js'), ...args], { encoding: 'utf8', env: { ...process.env, [CODE_CACHE_ENV]: 'off' } });
  printed.push(first.stdout, first.stderr);
  const { statuses, wrote } = await trainBundle(dir, async (main) => {
    const statuses = [first.status];
    for (const change of CHANGES) {
      const doc = parseDocument(readFileSync(manifest, 'utf8'));
      change(doc);
      writeFileSync(manifest, String(doc));
      statuses.push(await main(args));
    }
    return statuses;
  });
  Object.assign(process.stdout, { write: write.out });
  Object.assign(process.stderr, { write: write.err });
  if (statuses.some((s) => s !== 0)) throw new Error(`a run ended with status ${statuses.join(', ')}:\n${printed.join('')}`);
  if (!wrote) throw new Error('the cache could not be written');
  process.stdout.write(`build-code-cache: ${Math.round(statSync(`${bundle}.v8`).size / 1024)} kB of compiled code for ${bundle.slice(root.length)}\n`);
} catch (e) {
  Object.assign(process.stdout, { write: write.out });
  Object.assign(process.stderr, { write: write.err });
  process.stderr.write(`build-code-cache: no code cache written (${e.message}); the first run through the pipeline writes one.\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
