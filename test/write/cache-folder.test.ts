/**
 * Where runs keep the no-op entry and the incremental cache (generator/write/cache-folder.ts): the folder
 * `MCP_GEN_CACHE_DIR` names, else the nearest project's node_modules from the working directory up, else
 * the user's cache folder, which keeps only the files most recently written; and the command line using it
 * from a project's subfolder and from a folder that belongs to no project.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, parse } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_MS, CACHE_DIR_ENV, cacheFileOf, cacheFolder, SHARED_KEEP, trimFolder } from '../../generator/write/cache-folder.js';
import { oneToolManifest, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tree.js';

let root: string;
beforeAll(async () => {
  root = await tempDir('mcp-gen-cache-folder-');
});
afterAll(async () => {
  const { rm } = await import('node:fs/promises');
  await rm(root, { recursive: true, force: true });
});

/** Whether a folder at or above `dir` has node_modules (the lookup would stop there). */
function inProject(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return true;
    if (d === parse(d).root) return false;
  }
}

describe('cacheFolder', () => {
  it('takes the folder MCP_GEN_CACHE_DIR names (relative to the working directory), or none for off', () => {
    expect(cacheFolder(root, { [CACHE_DIR_ENV]: 'cache-here' })).toEqual({ dir: join(root, 'cache-here'), bounded: false });
    expect(cacheFolder(root, { [CACHE_DIR_ENV]: '/srv/mcp-cache' })).toEqual({ dir: '/srv/mcp-cache', bounded: false });
    expect(cacheFolder(root, { [CACHE_DIR_ENV]: ' OFF ' })).toBeUndefined();
    // Empty: as if unset.
    expect(cacheFolder(root, { [CACHE_DIR_ENV]: '', XDG_CACHE_HOME: '/xdg' })).toEqual(inProject(root) ? expect.objectContaining({ bounded: false }) : { dir: '/xdg/mcp-gen', bounded: true });
  });

  it("finds the nearest project's node_modules from the working directory up", () => {
    const project = join(root, 'project');
    const deep = join(project, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(project, 'node_modules'));
    expect(cacheFolder(deep, {})).toEqual({ dir: join(project, 'node_modules', '.cache', 'mcp-gen'), bounded: false });
    // A nearer project wins.
    mkdirSync(join(project, 'a', 'node_modules'));
    expect(cacheFolder(deep, {})).toEqual({ dir: join(project, 'a', 'node_modules', '.cache', 'mcp-gen'), bounded: false });
  });

  it("outside any project, takes the user's cache folder: XDG_CACHE_HOME when absolute, else ~/.cache", () => {
    const lone = join(root, 'lone');
    mkdirSync(lone, { recursive: true });
    expect(inProject(lone), `${lone} is inside a folder with node_modules`).toBe(false);
    expect(cacheFolder(lone, { XDG_CACHE_HOME: '/var/cache/me' }, () => '/home/me')).toEqual({ dir: '/var/cache/me/mcp-gen', bounded: true });
    expect(cacheFolder(lone, { XDG_CACHE_HOME: 'relative/cache' }, () => '/home/me')).toEqual({ dir: '/home/me/.cache/mcp-gen', bounded: true });
    expect(cacheFolder(lone, {}, () => '/home/me')).toEqual({ dir: '/home/me/.cache/mcp-gen', bounded: true });
    expect(cacheFolder(lone, {}, () => '')).toBeUndefined();
    expect(cacheFolder(lone, {}, () => { throw new Error('no home'); })).toBeUndefined();
  });
});

describe('cacheFileOf', () => {
  it('names one file per manifest and output folder, by their absolute paths, for each kind', () => {
    const project = join(root, 'keys');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    const dir = join(project, 'node_modules', '.cache', 'mcp-gen');
    const entry = cacheFileOf(project, 'mcp.manifest.yaml', 'out', 'json');
    expect(entry?.folder).toEqual({ dir, bounded: false });
    expect(entry?.path).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[0-9a-f]{32}\\.json$`));
    // The same paths written otherwise, from a subfolder: the same file.
    mkdirSync(join(project, 'sub'), { recursive: true });
    expect(cacheFileOf(join(project, 'sub'), '../mcp.manifest.yaml', join(project, 'out'), 'json')).toEqual(entry);
    expect(cacheFileOf(project, 'mcp.manifest.yaml', 'out', 'incremental')?.path).toBe(entry?.path.replace(/\.json$/, '.incremental'));
    // Another output folder, the default one, another manifest: other files.
    const others = [cacheFileOf(project, 'mcp.manifest.yaml', 'out2', 'json'), cacheFileOf(project, 'mcp.manifest.yaml', undefined, 'json'), cacheFileOf(project, 'other.yaml', 'out', 'json')];
    expect(new Set([entry?.path, ...others.map((o) => o?.path)]).size).toBe(4);
  });
});

describe('trimFolder', () => {
  /** A folder of `n` cache files, the i-th written i seconds after the first, plus a staged file. */
  function folderOf(name: string, n: number): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < n; i++) {
      const file = join(dir, `${String(i).padStart(32, '0')}.${i % 2 ? 'json' : 'incremental'}`);
      writeFileSync(file, String(i));
      utimesSync(file, 1_700_000_000 + i, 1_700_000_000 + i);
    }
    writeFileSync(join(dir, 'x.incremental.1.tmp'), '');
    return dir;
  }

  it("keeps the user's folder to the files most recently written", () => {
    const dir = folderOf('user', SHARED_KEEP + 9);
    trimFolder({ dir, bounded: true });
    const kept = readdirSync(dir).filter((f) => !f.endsWith('.tmp')).map((f) => Number(f.split('.')[0])).sort((a, b) => a - b);
    expect(kept).toEqual(Array.from({ length: SHARED_KEEP }, (_, i) => i + 9));
    expect(existsSync(join(dir, 'x.incremental.1.tmp'))).toBe(true);
    trimFolder({ dir, bounded: true }, 3);
    expect(readdirSync(dir).filter((f) => !f.endsWith('.tmp')).sort()).toEqual([SHARED_KEEP + 6, SHARED_KEEP + 7, SHARED_KEEP + 8].map((i) => `${String(i).padStart(32, '0')}.${i % 2 ? 'json' : 'incremental'}`).sort());
  });

  it("leaves a project's folder, or a named one, as it is", () => {
    const dir = folderOf('project-cache', SHARED_KEEP + 9);
    trimFolder({ dir, bounded: false });
    expect(readdirSync(dir)).toHaveLength(SHARED_KEEP + 10);
  });

  it('removes, from any cache folder, what runs that died left staged, once unchanged for long and their process gone', () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const key = 'ab'.repeat(16);
    const later = Date.now() + ABANDONED_MS + 60_000;
    for (const bounded of [true, false]) {
      const dir = join(root, `staged-${bounded}`);
      mkdirSync(dir, { recursive: true });
      const put = (name: string): string => (writeFileSync(join(dir, name), 'x'), name);
      const abandoned = [put(`${key}.json.${gone}.tmp`), put(`${key}.incremental.${gone}.tmp`), put(`${key}.incremental.${gone}.old`)];
      const kept = [
        put(`${key}.json.${gone}.0.tmp`), // not a name a run stages
        put(`${key}.incremental.${process.pid}.old`), // its run still runs
        put(`${key}.json.${process.pid}.tmp`),
        put(`notes.${gone}.tmp`), // not the cache's
        put(`${key}.json`),
      ];
      trimFolder({ dir, bounded }, SHARED_KEEP, later - 120_000); // not yet unchanged for ABANDONED_MS
      expect(readdirSync(dir).sort()).toEqual([...abandoned, ...kept].sort());
      trimFolder({ dir, bounded }, SHARED_KEEP, later);
      expect(readdirSync(dir).sort()).toEqual(kept.sort());
    }
  });

  it('keeps a staged link to a cache file written long ago: the link is what is aged, not the file', () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const dir = join(root, 'staged-link');
    mkdirSync(dir, { recursive: true });
    const cache = join(dir, `${'cd'.repeat(16)}.incremental`);
    writeFileSync(cache, 'x');
    const long = (Date.now() - 3 * ABANDONED_MS) / 1000;
    utimesSync(cache, long, long);
    const aside = `${cache}.${gone}.old`;
    linkSync(cache, aside);
    trimFolder({ dir, bounded: true });
    expect(existsSync(aside)).toBe(true);
    trimFolder({ dir, bounded: true }, SHARED_KEEP, Date.now() + ABANDONED_MS + 60_000);
    expect(existsSync(aside)).toBe(false);
    expect(existsSync(cache)).toBe(true);
  });
});

describe('the command line', () => {
  it("run from a project's subfolder, keeps its cache in the project's node_modules and takes the no-op fast path", async () => {
    const project = join(root, 'cli-project');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await mkdir(join(project, 'docs'));
    await writeFile(join(project, 'mcp.manifest.yaml'), oneToolManifest('Read a note.'));
    const args = ['generate', '../mcp.manifest.yaml', '--out', '../out'];
    const first = await runCli(args, join(project, 'docs'), { [CACHE_DIR_ENV]: '' });
    expect(first.code, first.stderr).toBe(0);
    expect((await readdir(join(project, 'node_modules', '.cache', 'mcp-gen'))).map((f) => f.split('.').pop()).sort()).toEqual(['incremental', 'json']);
    const again = await runCli(args, join(project, 'docs'), { [CACHE_DIR_ENV]: '' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/up to date, nothing written/);
  });

  it("run where no project is, keeps its cache in the user's cache folder and takes the no-op fast path", async () => {
    const lone = join(root, 'cli-lone');
    const xdg = join(root, 'xdg');
    await mkdir(lone, { recursive: true });
    expect(inProject(lone), `${lone} is inside a folder with node_modules`).toBe(false);
    await writeFile(join(lone, 'mcp.manifest.yaml'), oneToolManifest('Read a note.'));
    const env = { [CACHE_DIR_ENV]: '', XDG_CACHE_HOME: xdg };
    const first = await runCli(['generate'], lone, env);
    expect(first.code, first.stderr).toBe(0);
    expect((await readdir(join(xdg, 'mcp-gen'))).map((f) => f.split('.').pop()).sort()).toEqual(['incremental', 'json']);
    const again = await runCli(['generate'], lone, env);
    expect(again.stdout).toMatch(/up to date, nothing written/);
    // A run without the incremental cache keeps the bound too, its own entry the newest.
    const full = join(xdg, 'mcp-gen');
    for (let i = 0; i < SHARED_KEEP + 6; i++) {
      const file = join(full, `${String(i).padStart(32, 'a')}.json`);
      writeFileSync(file, '{}');
      utimesSync(file, 1_700_000_000 + i, 1_700_000_000 + i);
    }
    await writeFile(join(lone, 'mcp.manifest.yaml'), oneToolManifest('Read one note.'));
    const uncached = await runCli(['generate', '--no-cache'], lone, env);
    expect(uncached.code, uncached.stderr).toBe(0);
    const left = await readdir(full);
    expect(left).toHaveLength(SHARED_KEEP);
    expect(left).not.toContain(`${'0'.padStart(32, 'a')}.json`);
    expect(left.filter((f) => !f.startsWith('aaaa'))).toHaveLength(2);
    // Off: nothing kept, every run a full one.
    const off = await runCli(['generate'], lone, { ...env, [CACHE_DIR_ENV]: 'off' });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).not.toMatch(/up to date, nothing written/);
  });
});
