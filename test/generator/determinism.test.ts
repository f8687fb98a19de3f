/**
 * Determinism and idempotence: the same manifest gives the same bytes on
 * every run and from any working directory; a second generate touches no
 * file; emitting never mutates the IR it is given.
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContract } from '../../generator/contract/index.js';
import { emitAll } from '../../generator/emit/index.js';
import { loadManifest } from '../../generator/pipeline.js';
import { compileManifest, generate } from '../../generator/pipeline.js';
import { runCli } from '../helpers/cli.js';
import { goldenFixturesDir, repoRoot } from '../helpers/paths.js';
import { contentsOf, snapshotTree, tempDir } from '../helpers/tree.js';

const manifests = {
  'every-field': join(goldenFixturesDir, 'every-field', 'mcp.manifest.yaml'),
  'support-desk': join(repoRoot, 'manifests', 'support-desk', 'mcp.manifest.yaml'),
};

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const byPath = (files: readonly { path: string; content: string; owner: string }[]) =>
  Object.fromEntries(files.map((f) => [f.path, `${f.owner}\n${f.content}`]));

describe.each(Object.entries(manifests))('determinism (%s)', (_name, manifest) => {
  it('compiling twice gives identical files, in the same order', async () => {
    const a = await compileManifest(manifest);
    const b = await compileManifest(manifest);
    expect(b.files.map((f) => f.path)).toEqual(a.files.map((f) => f.path));
    expect(byPath(b.files)).toEqual(byPath(a.files));
  });

  it('emitAll does not mutate the IR (compared with a clone, then with the IR deep-frozen)', async () => {
    const loaded = await loadManifest(manifest);
    const ir = loaded.ir!;
    expect(ir).toBeDefined();
    const before = structuredClone(ir);
    const first = await emitAll(ir, buildContract(ir));
    expect(ir).toEqual(before);
    const frozen = deepFreeze(structuredClone(before));
    const second = await emitAll(frozen, buildContract(frozen));
    expect(byPath(second)).toEqual(byPath(first));
  });
});

describe('generate from different working directories', () => {
  let root: string;
  beforeAll(async () => {
    root = await tempDir('mcp-gen-determinism-');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes byte-identical trees whatever the cwd and however the manifest path is spelt', async () => {
    const manifest = manifests['every-field'];
    const cwdA = join(root, 'a');
    const cwdB = join(root, 'b', 'deeper', 'still');
    const copy = join(root, 'copy');
    await Promise.all([mkdir(cwdA, { recursive: true }), mkdir(cwdB, { recursive: true })]);
    await cp(join(goldenFixturesDir, 'every-field'), copy, { recursive: true });

    const runs = await Promise.all([
      runCli(['generate', manifest, '--out', join(root, 'out-a')], cwdA),
      runCli(['generate', manifest, '--out', join(root, 'out-b')], cwdB),
      runCli(['generate', manifest, '--out', join(root, 'out-repo')], repoRoot),
      // relative manifest and relative --out, from the manifest's own folder (a copy of it)
      runCli(['generate', 'mcp.manifest.yaml', '--out', '../out-rel'], copy),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);

    const trees = await Promise.all(['out-a', 'out-b', 'out-repo', 'out-rel'].map((d) => snapshotTree(join(root, d))));
    const reference = contentsOf(trees[0]!);
    expect(Object.keys(reference).length).toBeGreaterThan(10);
    for (const tree of trees.slice(1)) expect(contentsOf(tree)).toEqual(reference);
    // no absolute path of the machine leaks into any file
    for (const content of Object.values(reference)) {
      expect(content).not.toContain(root);
      expect(content).not.toContain(repoRoot);
    }
  });
});

describe('idempotence', () => {
  let out: string;
  beforeAll(async () => {
    out = await tempDir('mcp-gen-idempotence-');
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('a second generate reports nothing created or updated and touches no file', async () => {
    const manifest = manifests['support-desk'];
    const first = await generate(manifest, { outDir: out });
    expect(first.report.created.length).toBeGreaterThan(10);
    const before = await snapshotTree(out);
    await new Promise((r) => setTimeout(r, 20)); // a rewrite would now get a later mtime

    const second = await generate(manifest, { outDir: out });
    for (const [key, value] of Object.entries(second.report)) {
      if (Array.isArray(value)) expect(value, `report.${key}`).toEqual([]);
    }
    expect(second.report.unchanged).toBeGreaterThanOrEqual(first.report.created.length);
    expect(await snapshotTree(out)).toEqual(before);

    const cli = await runCli(['generate', manifest, '--out', out], repoRoot);
    expect(cli.code, cli.stderr).toBe(0);
    // the full plan ("0 created, 0 updated, …") or the no-op fast path ("up to date, nothing written")
    expect(cli.stdout).toMatch(/: (0 created, 0 updated, (0 [a-z ]+, )*0 removed, \d+ unchanged|up to date, nothing written)/);
    expect(await snapshotTree(out)).toEqual(before);
  });
});
