// Bundles the command line (dist/cli/run.js and the generator modules it imports, statically or on demand)
// into dist/bundle/: an entry and one chunk per group of modules a command loads together. Node 20 has no
// compile cache, and loading a `generate` from ~140 separate modules costs more than the run's own work on
// a small change (resolving, reading and compiling each one); from a handful of chunks it costs far less.
// bin/mcp-gen.js runs the bundle when it is there and dist/cli/run.js otherwise, so a build without
// esbuild (its platform package missing) still works, unbundled. Packages from node_modules stay imports,
// but for the few in `BUNDLED`: ES modules of many files that a change loads and a no-op does not, each of
// whose files Node would resolve, read and compile on its own.
//
// Modules find files next to themselves (`new URL('./x', import.meta.url)`: templates, precompiled
// validators, the type compiler's worker, package.json): each module's `import.meta.url` is replaced by its
// own file's URL, relative to the chunk it lands in, so every such path is the one it was unbundled.
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
rmSync(out, { recursive: true, force: true });

let esbuild;
try {
  esbuild = await import('esbuild');
} catch (e) {
  process.stderr.write(`build-bundle: esbuild is not available (${e.message}); the command line runs unbundled from dist/cli/run.js.\n`);
  process.exit(0);
}

/**
 * Packages bundled into the chunks that import them. @cfworker/json-schema (nine modules) validates the
 * examples of a changed tool and the samples of a changed schema. js-yaml reads the changed pieces of a
 * manifest: one module, but 130 kB with its comments and indentation, which every changed run parsed. Their
 * versions still name the cache's entries (write/cache-store.ts), read from their package.json files,
 * and the cache also keys on the build of mcp-gen, this bundle's.
 */
const BUNDLED = new Set(['@cfworker/json-schema', 'js-yaml']);

/** The package a bare import names: `@scope/name` or `name`. */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** Every other package (and Node's own modules) stays an import, as `packages: 'external'` would leave it. */
const externals = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.has(packageOf(args.path)) ? undefined : { path: args.path, external: true }));
  },
};

/** Each module's own URL in place of `import.meta.url`, relative to the chunk's (all chunks sit in `out`). */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + sep)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const own = relative(out, args.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

try {
  const { metafile } = await esbuild.build({
    entryPoints: [join(dist, 'cli', 'run.js')],
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    // Without whitespace: Node parses every chunk it loads whole before running it, and compiles each
    // function from its text on first call, so a run pays for every byte of the chunks it loads (a change
    // loads ~500 kB that a no-op does not). Names and statements stay as they are, for reading stacks.
    minifyWhitespace: true,
    entryNames: '[name]',
    logLevel: 'warning',
    metafile: true,
    absWorkingDir: root,
    plugins: [externals, ownUrl],
  });
  // Which modules of dist/ each file of the bundle holds (what a run loaded, for tests and for reading stacks).
  const held = {};
  for (const [file, o] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.js')) held[relative(out, join(root, file)).split(sep).join('/')] = Object.keys(o.inputs).map((i) => relative(dist, join(root, i)).split(sep).join('/')).sort();
  }
  writeFileSync(join(out, 'modules.json'), `${JSON.stringify(held, Object.keys(held).sort(), 2)}\n`);
} catch (e) {
  rmSync(out, { recursive: true, force: true });
  process.stderr.write(`build-bundle: bundling failed (${e.message}); the command line runs unbundled from dist/cli/run.js.\n`);
}
