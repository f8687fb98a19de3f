/**
 * The bundled command line's code cache (generator/cli/codeCache.ts): read when it is the bundle's own and
 * V8 takes it, written when it is missing or refused, never fatal, and off on request. The build's cache
 * is one a fresh process takes, and a run that changed V8's flags still writes one the next run takes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as codeCache from '../../dist/cli/codeCache.js';
import { ONE_SHOT_FLAG_NAMES, defaultFlags, tuneOneShotRun, untuneOneShotRun } from '../../generator/cli/oneShot.js';
import { oneToolManifest } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-code-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A bundle in a folder of its own: `main` answers `answer` and the arguments' count; `pipeline` as the first argument counts as loading the pipeline. */
function fakeBundle(answer: string): string {
  const dir = mkdtempSync(join(root, 'bundle-'));
  const text = `let loaded = false;
exports.main = async (argv) => { if (argv[0] === 'pipeline') loaded = true; globalThis.__answer = ${JSON.stringify(answer)} + ':' + argv.length + ':' + typeof __distUrl + ':' + typeof __import; return 0; };
exports.loadedPipeline = () => loaded;
exports.untuneOneShotRun = () => true;

`;
  const name = `cli-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.cjs`;
  writeFileSync(join(dir, name), text);
  return dir;
}

const cacheOf = (dir: string): string => join(dir, `${readdirSync(dir).find((n) => n.endsWith('.cjs'))!}.v8`);
const answer = (): unknown => (globalThis as { __answer?: unknown }).__answer;

describe('code cache of the bundled command line', () => {
  it('writes the cache when there is none, and the next run takes it without writing again', async () => {
    const dir = fakeBundle('one');
    const first = await codeCache.runBundle(dir, ['a', 'b'], {});
    expect(first).toEqual({ status: 0, cache: 'missing', wrote: true });
    expect(answer()).toBe('one:2:string:function');
    const second = await codeCache.runBundle(dir, ['pipeline'], {});
    // Written by a run that loaded no pipeline, taken by one that did: written again, once.
    expect(second).toEqual({ status: 0, cache: 'accepted', wrote: true });
    expect(await codeCache.runBundle(dir, ['pipeline'], {})).toEqual({ status: 0, cache: 'accepted', wrote: false });
    expect(await codeCache.runBundle(dir, [], {})).toEqual({ status: 0, cache: 'accepted', wrote: false });
    expect(readFileSync(cacheOf(dir))[0]).toBe(0x46); // written by a run through the pipeline
  });

  it('refuses a damaged cache, runs all the same, and writes a good one', async () => {
    const dir = fakeBundle('two');
    await codeCache.runBundle(dir, [], {});
    const cache = readFileSync(cacheOf(dir));
    // One byte of the code: V8 alone would take it (it checks no checksum outside debug builds).
    const at = cache.length >> 1;
    cache[at] = cache[at]! ^ 0x55;
    writeFileSync(cacheOf(dir), cache);
    expect(await codeCache.runBundle(dir, ['x'], {})).toEqual({ status: 0, cache: 'rejected', wrote: true });
    expect(answer()).toBe('two:1:string:function');
    expect(codeCache.loadBundle(dir, {})!.state).toBe('accepted');
    writeFileSync(cacheOf(dir), 'not a cache');
    expect(codeCache.loadBundle(dir, {})!.state).toBe('rejected');
    writeFileSync(cacheOf(dir), readFileSync(cacheOf(dir)).subarray(0, 3));
    expect(codeCache.loadBundle(dir, {})!.state).toBe('rejected');
  });

  it("never runs a cache with a bundle other than its own, even one of the same length (V8 checks only the length)", async () => {
    const a = fakeBundle('AAAA');
    await codeCache.runBundle(a, [], {});
    expect(codeCache.loadBundle(a, {})!.state).toBe('accepted');
    // The build replaces the bundle with another of the same length: its name differs, so the old cache is not its.
    const b = fakeBundle('BBBB');
    const bName = readdirSync(b).find((n) => n.endsWith('.cjs'))!;
    const aName = readdirSync(a).find((n) => n.endsWith('.cjs'))!;
    expect(readFileSync(join(b, bName)).length).toBe(readFileSync(join(a, aName)).length);
    copyFileSync(join(b, bName), join(a, bName));
    rmSync(join(a, aName));
    const run = await codeCache.runBundle(a, [], {});
    expect(run?.cache).toBe('missing');
    expect(answer()).toBe('BBBB:0:string:function');
  });

  it('runs when the cache cannot be written, and writes nothing beside it', async () => {
    const dir = fakeBundle('three');
    mkdirSync(cacheOf(dir)); // a folder where the cache file would go
    const run = await codeCache.runBundle(dir, [], {});
    expect(run).toEqual({ status: 0, cache: 'missing', wrote: false });
    expect(answer()).toBe('three:0:string:function');
    expect(readdirSync(dir).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  it(`neither reads nor writes a cache with ${codeCache.CODE_CACHE_ENV}=off`, async () => {
    const dir = fakeBundle('four');
    expect(await codeCache.runBundle(dir, ['pipeline'], { [codeCache.CODE_CACHE_ENV]: 'off' })).toEqual({ status: 0, cache: 'off', wrote: false });
    expect(existsSync(cacheOf(dir))).toBe(false);
    await codeCache.runBundle(dir, [], {});
    expect(codeCache.loadBundle(dir, { [codeCache.CODE_CACHE_ENV]: 'OFF' })!.state).toBe('off');
  });

  it('finds no bundle in a folder without one, or with two', () => {
    expect(codeCache.loadBundle(join(root, 'nowhere'), {})).toBeUndefined();
    const dir = fakeBundle('five');
    writeFileSync(join(dir, `cli-${'0'.repeat(24)}.cjs`), 'exports.main = async () => 0;');
    expect(codeCache.bundleFile(dir)).toBeUndefined();
  });

  it('sets the flags a one-shot run changed back, unless the command line or NODE_OPTIONS names one of them', () => {
    const set: string[] = [];
    const saved = process.env['NODE_OPTIONS'];
    try {
      expect(tuneOneShotRun({}, (f) => set.push(f))).toBe(true);
      process.env['NODE_OPTIONS'] = '--no-opt';
      expect(untuneOneShotRun((f) => set.push(f))).toBe(false); // the user's own setting: left alone, no cache written
      process.env['NODE_OPTIONS'] = '--max-old-space-size=4096';
      expect(untuneOneShotRun((f) => set.push(f))).toBe(true);
      expect(set[1]).toMatch(/^--semi-space-growth-factor=\d+ --(no-)?turbofan/);
      expect(untuneOneShotRun((f) => set.push(f))).toBe(true); // nothing left to set back
      expect(set).toHaveLength(2);
    } finally {
      if (saved === undefined) delete process.env['NODE_OPTIONS'];
      else process.env['NODE_OPTIONS'] = saved;
    }
  });

  it("reads V8's defaults of the flags a one-shot run sets from `node --v8-options`", () => {
    const listed = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 1 << 24 }).stdout;
    const flags = defaultFlags(listed, ONE_SHOT_FLAG_NAMES);
    expect(flags).toMatch(/--semi-space-growth-factor=\d+/);
    expect(flags).toMatch(/(^| )--(no-)?turbofan( |$)/);
    expect(defaultFlags('\n  --turbofan (use Turbofan)\n        type: bool  default: --no-turbofan\n', ['turbofan', 'absent'])).toBe('--no-turbofan');
  });
});

/** The built bundle, as `npm run build` left it. */
const builtDir = join(repoRoot, 'dist', 'bundle');
const built = codeCache.bundleFile(builtDir);

describe.runIf(built !== undefined)('the built bundle', () => {
  it("has a cache from the build that a fresh process takes", () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { loadBundle } from ${JSON.stringify(join(repoRoot, 'dist', 'cli', 'codeCache.js'))}; const b = loadBundle(${JSON.stringify(builtDir)}); console.log(b.state, b.full);`], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('accepted true');
  });

  it('writes, after a regeneration that changed V8’s flags, a cache the next run takes', () => {
    // A copy of the bundle beside the real one (it finds templates and the worker through dist/).
    const dir = join(repoRoot, 'dist', `.code-cache-test-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      copyFileSync(built!, join(dir, built!.slice(builtDir.length + 1)));
      const project = mkdtempSync(join(root, 'project-'));
      mkdirSync(join(project, 'node_modules'));
      const manifest = join(project, 'mcp.manifest.yaml');
      const drive = (description: string): string => {
        writeFileSync(manifest, oneToolManifest(description));
        const script = `import { runBundle } from ${JSON.stringify(join(repoRoot, 'dist', 'cli', 'codeCache.js'))}; const r = await runBundle(${JSON.stringify(dir)}, ['generate', 'mcp.manifest.yaml', '--out', 'out']); process.stderr.write(JSON.stringify(r) + '\\n');`;
        const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        return r.stderr.trim().split('\n').pop()!;
      };
      expect(JSON.parse(drive('Read one note by id.'))).toEqual({ status: 0, cache: 'missing', wrote: true });
      expect(JSON.parse(drive('Read one note by its id.'))).toEqual({ status: 0, cache: 'accepted', wrote: false });
      expect(readFileSync(join(project, 'out', 'server.gen.ts'), 'utf8')).toContain('Read one note by its id.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
