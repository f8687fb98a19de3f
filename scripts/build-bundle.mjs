// Bundles the command line (dist/cli/main.js and the generator modules it imports, statically or on demand)
// into one CommonJS file, dist/bundle/cli-<hash>.cjs, which bin/mcp-gen.js runs through
// dist/cli/codeCache.js with V8's code cache (written by scripts/build-code-cache.mjs, refreshed by runs).
// Node 20 has no compile cache: loading a `generate` from ~140 separate modules costs more than the run's
// own work on a small change (resolving, reading and compiling each one), and even from a few chunks every
// function a run calls is compiled from its text. One script is what `vm.Script` can cache code for. A
// module a command loads on demand stays unevaluated in the bundle until then (esbuild wraps it), so a
// regeneration still runs none of the other commands' code. bin/mcp-gen.js runs dist/cli/run.js when
// there is no bundle, so a build without esbuild (its platform package missing) still works, unbundled.
// Packages from node_modules stay `require`s and `import()`s, but for the few in `BUNDLED`: ES modules of
// many files that a change loads and a no-op does not, each of whose files Node would resolve, read and
// compile on its own.
//
// The bundle's free names, given by codeCache.ts: `__distUrl`, the URL of dist/, and `__import`, an
// `import()` that resolves from dist/ (a script compiled with `vm.Script` has no `import()` of its own once
// its code comes from a cache). Modules find files next to themselves (`new URL('./x', import.meta.url)`:
// templates, precompiled validators, the type compiler's worker, package.json): each module's
// `import.meta.url` is replaced by its own file's URL under `__distUrl`, so every such path is the one it
// was unbundled. The file's name holds a hash of its text: V8 checks a code cache against the length of
// the text only, and the name keeps a cache with its own bundle.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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
 * and the cache also keys on the build of mcp-gen, this bundle's. randexp (with ret and drange) makes the
 * sample of a changed schema's pattern: loaded from node_modules, its modules cost a changed run 8 ms to
 * compile; in the bundle, the code cache holds them.
 */
const BUNDLED = new Set(['@cfworker/json-schema', 'js-yaml', 'yaml', 'json-schema-to-typescript', 'lodash', 'randexp', 'ret', 'drange']);

/**
 * Modules of bundled packages that load heavy packages of their own for calls mcp-gen makes rarely: each
 * stands in the bundle as functions that load the real module from node_modules on their first call.
 * json-schema-to-typescript's index loads its formatter (prettier, for an option mcp-gen leaves off) and
 * its `$ref` resolver (json-schema-ref-parser, for schemas with `$ref` only); the type worker defers the
 * same two (emit/type-worker.ts).
 */
const DEFERRED = { 'json-schema-to-typescript/dist/src/formatter.js': ['format'], 'json-schema-to-typescript/dist/src/resolver.js': ['dereference'] };

/** The package a bare import names: `@scope/name` or `name`. */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** Every other package (and Node's own modules) stays an import, as `packages: 'external'` would leave it. */
const externals = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.has(packageOf(args.path)) ? undefined : { path: args.path, external: true }));
  },
};

/**
 * A module a dist/ module loads with `createRequire(import.meta.url)('<literal>')` on first use goes into
 * the bundle when it is a file of dist/ or a package of `BUNDLED`: the call becomes `require('<literal>')`,
 * which esbuild resolves, still run only where the call is.
 */
const bundledRequires = (text) =>
  text.replace(/createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g, (call, quote, spec) => (spec.startsWith('.') || BUNDLED.has(packageOf(spec)) ? `require(${quote}${spec}${quote})` : call));

/** Whether the files of `dir` are CommonJS: a package.json there says so (the build writes one beside its CommonJS output). */
const commonJs = (dir) => {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'commonjs';
  } catch {
    return false;
  }
};

const deferred = {
  name: 'deferred',
  setup(build) {
    const byPath = Object.fromEntries(Object.keys(DEFERRED).map((spec) => [join(root, 'node_modules', spec), spec]));
    build.onLoad({ filter: /\.js$/ }, (args) => {
      const spec = byPath[args.path];
      if (spec === undefined) return undefined;
      const calls = DEFERRED[spec].map((name) => `exports.${name} = (...args) => load().${name}(...args);`).join('\n');
      return { contents: `let real;\nconst load = () => (real ??= require(${JSON.stringify(`deferred:${spec}`)}));\n${calls}\n`, loader: 'js' };
    });
    build.onResolve({ filter: /^deferred:/ }, (args) => ({ path: args.path.slice('deferred:'.length), external: true }));
  },
};

/**
 * One js-yaml: mcp-gen imports it (its ES module) and json-schema-to-typescript requires it (its CommonJS
 * file), which would bundle, and load, both. Every import of it takes the CommonJS file.
 */
const oneJsYaml = {
  name: 'one-js-yaml',
  setup(build) {
    build.onResolve({ filter: /^js-yaml$/ }, async (args) => {
      if (args.kind === 'require-call' || args.pluginData?.again) return undefined;
      const found = await build.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, pluginData: { again: true } });
      return found.errors.length > 0 ? { errors: found.errors } : { path: found.path };
    });
  },
};

/**
 * lodash as its users in the bundle use it: a module that names the functions `require('lodash')` is read
 * for (`lodash_1.cloneDeep`, as TypeScript compiles a named import) gets a module of those functions, each
 * from lodash's module of its own (`lodash/cloneDeep`), rather than lodash whole, whose start builds every
 * function it has (6 ms of a run that compiles a type). A module that uses lodash in any other way gets it whole.
 */
const pickedLodash = {
  name: 'picked-lodash',
  setup(build) {
    build.onResolve({ filter: /^lodash$/ }, (args) => {
      if (args.kind !== 'require-call' || !args.importer.endsWith('.js')) return undefined;
      const text = readFileSync(args.importer, 'utf8');
      const binding = /\bconst (lodash_\d+) = require\("lodash"\);/.exec(text)?.[1];
      if (binding === undefined) return undefined;
      const uses = [...text.matchAll(new RegExp(`\\b${binding}\\b(\\.([A-Za-z_$][\\w$]*))?`, 'g'))];
      // The binding's one other use is its declaration; every other names a function.
      if (uses.filter((m) => m[2] === undefined).length !== 1) return undefined;
      const names = [...new Set(uses.flatMap((m) => (m[2] === undefined ? [] : [m[2]])))].sort();
      const from = createRequire(args.importer);
      try {
        for (const n of names) from.resolve(`lodash/${n}`);
      } catch {
        return undefined;
      }
      return { path: names.join(','), namespace: 'picked-lodash', pluginData: { dir: args.resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'picked-lodash' }, (args) => ({
      contents: `module.exports = {\n${args.path.split(',').map((n) => `  ${n}: require(${JSON.stringify(`lodash/${n}`)}),`).join('\n')}\n};\n`,
      loader: 'js',
      resolveDir: args.pluginData.dir,
    }));
  },
};

/** Each module's own URL in place of `import.meta.url`: its path under dist/, resolved against `__distUrl`. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      // Only ES modules: the build's CommonJS files (precompiled templates, validators) have no
      // `import.meta`, and the templates' text holds `import.meta.url` for the generated code.
      if (!args.path.startsWith(dist + sep) || commonJs(dirname(args.path))) return undefined;
      const text = await readFile(args.path, 'utf8');
      const own = relative(dist, args.path).split(sep).join('/');
      return { contents: bundledRequires(text).replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, __distUrl).href`), loader: 'js' };
    });
  },
};

/** The entry: what codeCache.ts calls. */
const ENTRY = "export { main, loadedPipeline } from './cli/main.js';\nexport { untuneOneShotRun } from './cli/oneShot.js';\n";

try {
  const staged = join(out, 'cli.cjs');
  const { metafile, warnings } = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: dist, sourcefile: 'bundle-entry.js', loader: 'js' },
    outfile: staged,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Without whitespace: Node parses the text of a script it compiles without a cache, and compiles each
    // function from its text on first call. Names and statements stay as they are, for reading stacks.
    minifyWhitespace: true,
    logLevel: 'silent',
    metafile: true,
    absWorkingDir: root,
    plugins: [deferred, oneJsYaml, pickedLodash, externals, ownUrl],
  });
  if (warnings.length > 0) throw new Error(warnings.map((w) => w.text).join('; '));
  const [output] = Object.values(metafile.outputs);
  // Every `import()` of a package or a Node module goes through `__import` (the count is checked, so no
  // text of the same shape is taken for one).
  let text = readFileSync(staged, 'utf8');
  const dynamic = Object.values(metafile.inputs).flatMap((i) => i.imports.filter((d) => d.kind === 'dynamic-import' && d.external).map((d) => d.path));
  let replaced = 0;
  for (const spec of new Set(dynamic)) {
    text = text.replaceAll(`import(${JSON.stringify(spec)})`, () => (replaced++, `__import(${JSON.stringify(spec)})`));
  }
  if (replaced !== dynamic.length) throw new Error(`found ${replaced} of the ${dynamic.length} import() calls of packages to route through __import`);
  // ASCII only: V8 holds a script's text as one byte a character then, half the memory of a text with one
  // character beyond Latin-1, which every run pays for. esbuild escapes strings and templates but leaves
  // regular expression literals as written: write their non-ASCII characters as `\u` escapes.
  const wide = /[^\x00-\x7f]/.exec(text);
  if (wide) throw new Error(`the bundle holds a non-ASCII character (${JSON.stringify(text.slice(Math.max(0, wide.index - 60), wide.index + 20))}): write it as a \\u escape in its source`);
  const name = `cli-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.cjs`;
  writeFileSync(join(out, name), text);
  rmSync(staged);
  // Which modules of dist/ the bundle holds (for tests and for reading stacks).
  const held = { [name]: Object.keys(output.inputs).filter((i) => !i.startsWith('<stdin>') && !i.includes('bundle-entry')).map((i) => relative(dist, join(root, i)).split(sep).join('/')).sort() };
  writeFileSync(join(out, 'modules.json'), `${JSON.stringify(held, null, 2)}\n`);
} catch (e) {
  rmSync(out, { recursive: true, force: true });
  process.stderr.write(`build-bundle: bundling failed (${e.message}); the command line runs unbundled from dist/cli/run.js.\n`);
}
