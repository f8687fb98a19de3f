/**
 * What a regeneration loads: the modules of the other commands (init, import, verify, call, package,
 * evidence) only when the command line may name one of them (the unbundled command line, whose modules
 * Node loads one by one; the bundle runs a module on demand the same way). The list of commands is still
 * complete. When the build bundled the command line (dist/bundle/, see scripts/build-bundle.mjs), a run's
 * work is done by the bundle's code: no module it holds is loaded a second time, from dist/ or node_modules.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/paths.js';
import { oneToolManifest } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-startup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Registered before the CLI starts: appends every module URL Node loads to $MODULES_LOG, one a line.
const HOOK = `import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { appendFileSync } from 'node:fs';
const { port1, port2 } = new MessageChannel();
port1.on('message', (u) => appendFileSync(process.env.MODULES_LOG, u + '\\n'));
port1.unref();
register('data:text/javascript,' + encodeURIComponent('let p; export function initialize(d) { p = d.port } export async function load(u, c, n) { p.postMessage(u); return n(u, c) }'), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
`;

/** The bundle's file, with the modules of dist/ and node_modules it holds (written by scripts/build-bundle.mjs), when the build made one. */
const bundleMap = join(repoRoot, 'dist', 'bundle', 'modules.json');
const bundled: Readonly<Record<string, readonly string[]>> | undefined = existsSync(bundleMap) ? JSON.parse(readFileSync(bundleMap, 'utf8')) : undefined;

const distUrl = `${pathToFileURL(join(repoRoot, 'dist')).href}/`;

/** The file of dist/ a loaded URL is, if it is one. */
const distFile = (url: string): string[] => (url.startsWith(distUrl) && url.endsWith('.js') ? [url.slice(distUrl.length)] : []);

/** The unbundled command line. */
const unbundled = join(repoRoot, 'dist', 'cli', 'run.js');

// Registered before the CLI starts: appends the file of every CommonJS module the main thread compiles to $CJS_LOG.
const CJS_HOOK = "const M = require('node:module'); const fs = require('node:fs'); const { isMainThread } = require('node:worker_threads'); const compile = M.prototype._compile; M.prototype._compile = function (c, f) { if (isMainThread) fs.appendFileSync(process.env.CJS_LOG, f + '\\n'); return compile.call(this, c, f); };\n";

/**
 * The dist/cli modules a run of `args` with `entry` loads as ES modules (the unbundled command line's),
 * the dist/ files it loads so, every URL, the CommonJS files its main thread compiles, and what it printed.
 */
function run(args: readonly string[], entry = binPath, cwd = root): { modules: string[]; files: string[]; urls: string[]; cjs: string[]; stdout: string; status: number | null } {
  const hook = join(root, 'hook.mjs');
  const cjsHook = join(root, 'cjs-compile-hook.cjs');
  const tag = Math.random().toString(36).slice(2);
  const log = join(root, `modules-${tag}.log`);
  const cjsLog = join(root, `cjs-${tag}.log`);
  writeFileSync(hook, HOOK);
  writeFileSync(cjsHook, CJS_HOOK);
  writeFileSync(log, '');
  writeFileSync(cjsLog, '');
  const r = spawnSync(process.execPath, ['-r', cjsHook, '--import', hook, entry, ...args], { cwd, encoding: 'utf8', env: { ...process.env, MODULES_LOG: log, CJS_LOG: cjsLog, NO_COLOR: '1' } });
  const urls = readFileSync(log, 'utf8').split('\n');
  const files = [...new Set(urls.flatMap(distFile))].sort();
  const modules = [...new Set(files.filter((f) => /^cli\/[^/]+\.js$/.test(f)).map((f) => f.slice('cli/'.length)))].sort();
  return { modules, files, urls, cjs: readFileSync(cjsLog, 'utf8').split('\n').filter(Boolean), stdout: r.stdout, status: r.status };
}

const manifest = oneToolManifest;

describe('start-up of a regeneration', () => {
  it('generate loads none of the other commands; --help still lists them all', () => {
    const file = join(root, 'mcp.manifest.yaml');
    writeFileSync(file, manifest('Read one note by id. Read only.'));
    expect(run(['generate', file, '--out', join(root, 'out')], unbundled).status).toBe(0);
    writeFileSync(file, manifest('Read one note by its id. Read only.'));
    const again = run(['generate', file, '--out', join(root, 'out')], unbundled);
    expect(again.status).toBe(0);
    expect(again.modules).toContain('main.js');
    expect(again.modules.filter((m) => /^(init|import|verify|call|package|evidence)\.js$/.test(m))).toEqual([]);
    const help = run(['--help'], unbundled);
    for (const c of ['generate', 'check', 'diff', 'lint', 'init', 'import', 'verify', 'call', 'package', 'evidence']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(help.modules).toEqual(expect.arrayContaining(['init.js', 'import.js', 'verify.js', 'call.js', 'package.js', 'evidence.js']));
  });

  // A build with esbuild bundles the command line, and the bundle is ASCII text: V8 keeps one byte a
  // character of it rather than two (scripts/build-bundle.mjs refuses a bundle with a wider character).
  it.runIf(existsSync(join(repoRoot, 'node_modules', 'esbuild', 'package.json')))('bundles the command line as ASCII text', () => {
    expect(bundled, 'npm run build made no bundle: see what build-bundle printed').toBeDefined();
    const text = readFileSync(join(repoRoot, 'dist', 'bundle', Object.keys(bundled!)[0]!), 'latin1');
    expect(text.length).toBeGreaterThan(100_000);
    expect(/[^\x00-\x7f]/.exec(text)?.index).toBeUndefined();
  });

  it.runIf(bundled !== undefined)('runs from the bundle alone: no module it holds is loaded a second time beside it', () => {
    const dir = mkdtempSync(join(root, 'bundled-'));
    mkdirSync(join(dir, 'node_modules')); // where the incremental cache is kept
    const file = join(dir, 'mcp.manifest.yaml');
    const out = join(dir, 'out');
    writeFileSync(file, manifest('Read one note by id, from the bundle.'));
    const first = run(['generate', file, '--out', out], binPath, dir);
    expect(first.status).toBe(0);
    // A changed input schema: one type to compile, with the incremental cache of the first run in place.
    writeFileSync(file, manifest('Read one note by id, from the bundle.').replace('maxLength: 40 }', () => 'maxLength: 40, description: The id. }'));
    const change = run(['generate', file, '--out', out], binPath, dir);
    expect(change.status).toBe(0);
    const [name, holds] = Object.entries(bundled!)[0]!;
    expect(name).toMatch(/^cli-[0-9a-f]+\.cjs$/);
    // What the bundle holds: the command line, the pipeline and the packages a change needs.
    expect(holds).toEqual(expect.arrayContaining(['cli/main.js', 'pipeline.js', 'manifest/index.js', 'emit/precompiled/engine.js']));
    // The precompiled validators a changed entry needs (its shape, its schemas' meta-schema) come with it,
    // compiled from the code cache; the whole manifest's (for a manifest read without the cache) does not.
    expect(holds).toEqual(expect.arrayContaining(['manifest/shape-validator/tool.js', 'manifest/shape-validator/resource.js', 'manifest/shape-validator/prompt.js', 'manifest/meta-validator/index.js']));
    expect(holds).not.toContain('manifest/shape-validator/index.js');
    expect(change.cjs.filter((f) => /(shape|meta)-validator/.test(f))).toEqual([]);
    for (const pkg of ['yaml', 'js-yaml', '@cfworker/json-schema', 'json-schema-to-typescript', 'lodash']) expect(holds.some((h) => h.includes(`/node_modules/${pkg}/`)), pkg).toBe(true);
    const inBundle = new Set(holds.map((h) => join(repoRoot, 'dist', h)));
    for (const r of [first, change]) {
      // ES modules of dist/: only the loader, and the type compiler's worker (its own script, in its own thread).
      expect(r.files.filter((f) => !['cli/codeCache.js', 'cli/stdout.js', 'emit/type-worker.js', 'emit/type-library.js'].includes(f))).toEqual([]);
      const loaded = [...r.urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)), ...r.cjs];
      expect(loaded.filter((f) => inBundle.has(f) && !/emit\/type-(worker|library)\.js$/.test(f))).toEqual([]);
    }
    // The change compiled its type in this thread, with the bundle's copy of the library: no worker started.
    expect(first.urls.filter((u) => u.includes('type-worker'))).not.toEqual([]);
    expect(change.urls.filter((u) => u.includes('type-worker'))).toEqual([]);
    expect(readFileSync(join(out, 'types.gen.ts'), 'utf8')).toContain('The id.');
    // Nor did it load the library's formatter and \$ref resolver (prettier, json-schema-ref-parser), which only `compile` calls.
    expect(change.cjs.filter((f) => /node_modules\/(prettier|@apidevtools)\//.test(f))).toEqual([]);
  });

  it('a regeneration whose samples all come from the incremental cache does not load randexp', () => {
    // Every CommonJS module the run loads by name, one a line, in $CJS_LOG (randexp is loaded with require).
    // The unbundled command line: the bundle holds randexp, and loads it the same way, on first use, unseen here.
    const hook = join(root, 'cjs-hook.cjs');
    writeFileSync(hook, "const M = require('node:module'); const fs = require('node:fs'); const load = M._load; M._load = function (r, ...a) { fs.appendFileSync(process.env.CJS_LOG, r + '\\n'); return load.call(this, r, ...a); };\n");
    const dir = mkdtempSync(join(root, 'samples-'));
    mkdirSync(join(dir, 'node_modules')); // where the incremental cache is kept
    const file = join(dir, 'mcp.manifest.yaml');
    const patterned = (description: string) => manifest(description).replace('maxLength: 40 }', () => "maxLength: 40, pattern: '^n-[0-9]{3}$' }");
    const cjs = (): string[] => {
      const log = join(dir, `cjs-${Math.random().toString(36).slice(2)}.log`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, ['-r', hook, join(repoRoot, 'dist', 'cli', 'run.js'), 'generate', file, '--out', join(dir, 'out')], { cwd: dir, encoding: 'utf8', env: { ...process.env, CJS_LOG: log, NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n');
    };
    writeFileSync(file, patterned('Read one note by id. Read only.'));
    expect(cjs()).toContain('randexp'); // the first run makes the sample
    writeFileSync(file, patterned('Read one note by its id. Read only.'));
    expect(cjs()).not.toContain('randexp');
    expect(readFileSync(join(dir, 'out', 'contract', 'tools.gen.test.ts'), 'utf8')).toMatch(/n-[0-9]{3}/);
  });
});
