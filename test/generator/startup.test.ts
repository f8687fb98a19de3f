/**
 * What a regeneration loads: the modules of the other commands (init, import, verify, call, package,
 * evidence) only when the command line may name one of them. The list of commands is still complete.
 * When the build bundled the command line (dist/bundle/, see scripts/build-bundle.mjs), a run loads its
 * modules through the bundle's files only, never a second copy of one from dist/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** The bundle's files, each with the modules of dist/ it holds (written by scripts/build-bundle.mjs), when the build made one. */
const bundleMap = join(repoRoot, 'dist', 'bundle', 'modules.json');
const bundled: Readonly<Record<string, readonly string[]>> | undefined = existsSync(bundleMap) ? JSON.parse(readFileSync(bundleMap, 'utf8')) : undefined;

const distUrl = `${pathToFileURL(join(repoRoot, 'dist')).href}/`;

/** The file of dist/ a loaded URL is, if it is one. */
const distFile = (url: string): string[] => (url.startsWith(distUrl) && url.endsWith('.js') ? [url.slice(distUrl.length)] : []);

/** The modules of dist/ that a file of dist/ holds: itself, or those of a bundle file. */
function held(file: string): string[] {
  return file.startsWith('bundle/') ? [...(bundled?.[file.slice('bundle/'.length)] ?? [])] : [file];
}

/** The dist/cli modules a run of `args` loads (directly or in the bundle), the dist/ files it loads, and what it printed. */
function run(args: readonly string[]): { modules: string[]; files: string[]; urls: string[]; stdout: string; status: number | null } {
  const hook = join(root, 'hook.mjs');
  const log = join(root, `modules-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(hook, HOOK);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', hook, binPath, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, MODULES_LOG: log, NO_COLOR: '1' } });
  const urls = readFileSync(log, 'utf8').split('\n');
  const files = [...new Set(urls.flatMap(distFile))].sort();
  const modules = [...new Set(files.flatMap(held).filter((f) => /^cli\/[^/]+\.js$/.test(f)).map((f) => f.slice('cli/'.length)))].sort();
  return { modules, files, urls, stdout: r.stdout, status: r.status };
}

const manifest = oneToolManifest;

describe('start-up of a regeneration', () => {
  it('generate loads none of the other commands; --help still lists them all', () => {
    const file = join(root, 'mcp.manifest.yaml');
    writeFileSync(file, manifest('Read one note by id. Read only.'));
    expect(run(['generate', file, '--out', join(root, 'out')]).status).toBe(0);
    writeFileSync(file, manifest('Read one note by its id. Read only.'));
    const again = run(['generate', file, '--out', join(root, 'out')]);
    expect(again.status).toBe(0);
    expect(again.modules).toContain('main.js');
    expect(again.modules.filter((m) => /^(init|import|verify|call|package|evidence)\.js$/.test(m))).toEqual([]);
    const help = run(['--help']);
    for (const c of ['generate', 'check', 'diff', 'lint', 'init', 'import', 'verify', 'call', 'package', 'evidence']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(help.modules).toEqual(expect.arrayContaining(['init.js', 'import.js', 'verify.js', 'call.js', 'package.js', 'evidence.js']));
  });

  it.runIf(bundled !== undefined)('runs from the bundle alone: no module of dist/ is loaded a second time beside it', () => {
    const file = join(root, 'mcp.manifest.yaml');
    writeFileSync(file, manifest('Read one note by id, from the bundle.'));
    const r = run(['generate', file, '--out', join(root, 'bundled')]);
    expect(r.status).toBe(0);
    expect(r.files.length).toBeGreaterThan(1);
    // The type compiler's worker thread runs its own script and what that imports, in its own module graph.
    const worker = ['emit/type-compiler.js', 'emit/type-worker.js'];
    expect(r.files.filter((f) => !f.startsWith('bundle/') && !worker.includes(f))).toEqual([]);
    // Every module the run needed came from the bundle: the pipeline and the manifest's phases among them.
    expect(r.files.flatMap(held)).toEqual(expect.arrayContaining(['pipeline.js', 'manifest/index.js', 'cli/main.js']));
    // The packages the bundle holds (scripts/build-bundle.mjs BUNDLED) are not loaded from node_modules, module by module.
    expect(r.urls.filter((u) => u.includes('/node_modules/@cfworker/json-schema/') || u.includes('/node_modules/js-yaml/'))).toEqual([]);
  });

  it('a regeneration whose samples all come from the incremental cache does not load randexp', () => {
    // Every CommonJS module the run loads by name, one a line, in $CJS_LOG (randexp is loaded with require).
    const hook = join(root, 'cjs-hook.cjs');
    writeFileSync(hook, "const M = require('node:module'); const fs = require('node:fs'); const load = M._load; M._load = function (r, ...a) { fs.appendFileSync(process.env.CJS_LOG, r + '\\n'); return load.call(this, r, ...a); };\n");
    const dir = mkdtempSync(join(root, 'samples-'));
    mkdirSync(join(dir, 'node_modules')); // where the incremental cache is kept
    const file = join(dir, 'mcp.manifest.yaml');
    const patterned = (description: string) => manifest(description).replace('maxLength: 40 }', () => "maxLength: 40, pattern: '^n-[0-9]{3}$' }");
    const cjs = (): string[] => {
      const log = join(dir, `cjs-${Math.random().toString(36).slice(2)}.log`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, ['-r', hook, binPath, 'generate', file, '--out', join(dir, 'out')], { cwd: dir, encoding: 'utf8', env: { ...process.env, CJS_LOG: log, NO_COLOR: '1' } });
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
