/**
 * The large generated files a regeneration splices are read ahead on libuv's threads (write/prefetch.ts):
 * only files with the stamp the last run recorded, and their bytes are used only when the file still had
 * that stamp after the read. A regeneration that uses them writes what a run without the cache writes.
 */
import { dump } from 'js-yaml';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationCache, type DiskRecord } from '../../generator/cache.js';
import { generate } from '../../generator/pipeline.js';
import { Prefetch, PREFETCH_MIN_BYTES } from '../../generator/write/prefetch.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
afterEach(() => vi.restoreAllMocks());

const tmp = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gen-prefetch-'));
  roots.push(root);
  return root;
};

/** A record of `files` in `dir` as the last run would leave it: stamps as they are now, laid out from pieces. */
function recordOf(dir: string, files: readonly string[], laidOut = true): DiskRecord {
  const entries = files.map((f) => {
    const s = statSync(join(dir, f));
    return [f, { size: s.size, mtimeMs: s.mtimeMs, hash: 'sha256:x', ...(laidOut ? { sig: 's', table: 't' } : {}) }] as const;
  });
  return { outDir: dir, files: Object.fromEntries(entries), handlers: {} };
}

describe('reading old files ahead', () => {
  it('reads the large laid-out files that have their recorded stamp, and offers their bytes for that stamp only', async () => {
    const dir = tmp();
    const big = 'a'.repeat(PREFETCH_MIN_BYTES) + 'tail\n';
    writeFileSync(join(dir, 'big.gen.ts'), big);
    writeFileSync(join(dir, 'small.gen.ts'), 'small\n');
    writeFileSync(join(dir, 'moved.gen.ts'), big);
    writeFileSync(join(dir, 'plain.gen.ts'), big);
    const disk = recordOf(dir, ['big.gen.ts', 'small.gen.ts', 'moved.gen.ts']);
    const plain = recordOf(dir, ['plain.gen.ts'], false);
    const record: DiskRecord = { ...disk, files: { ...disk.files, ...plain.files, 'gone.gen.ts': { ...disk.files['big.gen.ts']! } } };
    // Touched after the record was made: its stamp is not the recorded one, so it is not read.
    utimesSync(join(dir, 'moved.gen.ts'), new Date(), new Date(Date.now() + 5000));
    const p = Prefetch.start(record);
    await p.settled();
    const stamp = record.files['big.gen.ts']!;
    expect(p.take(join(dir, 'big.gen.ts'), { size: stamp.size, mtimeMs: stamp.mtimeMs + 1 })).toBeUndefined();
    expect(p.take(join(dir, 'big.gen.ts'), stamp)?.toString('utf8')).toBe(big);
    // Taken once: the next ask reads on need.
    expect(p.take(join(dir, 'big.gen.ts'), stamp)).toBeUndefined();
    for (const f of ['small.gen.ts', 'moved.gen.ts', 'plain.gen.ts', 'gone.gen.ts']) expect(p.take(join(dir, f), record.files[f]!)).toBeUndefined();
  });

  it('reads nothing without a record, and nothing outside the folder a record names', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'outside.ts'), 'x'.repeat(PREFETCH_MIN_BYTES));
    const inner = join(dir, 'out');
    const s = statSync(join(dir, 'outside.ts'));
    const record: DiskRecord = { outDir: inner, files: { '../outside.ts': { size: s.size, mtimeMs: s.mtimeMs, hash: 'sha256:x', sig: 's', table: 't' } }, handlers: {} };
    const p = Prefetch.start(record);
    await p.settled();
    expect(p.take(join(dir, 'outside.ts'), record.files['../outside.ts']!)).toBeUndefined();
    await Prefetch.start(undefined).settled();
  });
});

function catalog(n: number, extra: string): string {
  const tools = Object.fromEntries(Array.from({ length: n }, (_, i) => [`get_item_${i}`, {
    title: `Get item ${i}`, description: `Look up one item of shelf ${i} by id. Read only.${i === Math.floor(n / 2) ? extra : ''}`, sideEffect: 'read',
    input: { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'], additionalProperties: false },
  }]));
  return dump({ mcpgen: 1, server: { name: 'shelves', version: '1.0.0' }, tools }, { lineWidth: -1 });
}

/** The generator-owned files of a folder (handlers are the author's: a regeneration keeps their text). */
function folder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else if (/\.gen(\.test)?\.ts$|mcp\.lock\.json$|CONTRACTS\.md$/.test(e.name)) out.set(rel + e.name, readFileSync(join(d, e.name), 'utf8'));
    }
  };
  walk(dir, '');
  return out;
}

/** A 300-tool catalog generated once with a fresh cache: its large files are past the read-ahead's threshold. */
async function generated(): Promise<{ root: string; file: string; out: string; first: GenerationCache }> {
  const root = tmp();
  const file = join(root, 'mcp.manifest.yaml');
  const out = join(root, 'out');
  writeFileSync(file, catalog(300, ''));
  const first = new GenerationCache('test');
  await generate(file, { cwd: root, outDir: out, cache: first });
  return { root, file, out, first };
}

describe('a regeneration with files read ahead', () => {
  it('takes the old bytes from the read-ahead and writes what a run without the cache writes', { timeout: 120_000 }, async () => {
    const { root, file, out, first } = await generated();
    const large = Object.entries(first.diskOf(out)!.files).filter(([, f]) => f.size >= PREFETCH_MIN_BYTES && f.table !== undefined);
    expect(large.length).toBeGreaterThan(0);
    const taken: string[] = [];
    const take = Prefetch.prototype.take;
    vi.spyOn(Prefetch.prototype, 'take').mockImplementation(function (this: Prefetch, path, stamp) {
      const got = take.call(this, path, stamp);
      if (got !== undefined) taken.push(path);
      return got;
    });
    writeFileSync(file, catalog(300, ' Edited.'));
    const cache = GenerationCache.parse(first.serialize(), 'test');
    await generate(file, { cwd: root, outDir: out, cache });
    expect(taken.length).toBeGreaterThan(0);
    const reference = join(root, 'reference');
    await generate(file, { cwd: root, outDir: reference });
    const written = folder(out);
    expect(written.size).toBeGreaterThan(5);
    expect(written).toEqual(folder(reference));
  });

  it('does not take a generated file edited since the last run, whatever its size: the edit is found', { timeout: 120_000 }, async () => {
    const { root, file, out, first } = await generated();
    const server = join(out, 'server.gen.ts');
    const text = readFileSync(server, 'utf8');
    expect(text.length).toBeGreaterThanOrEqual(PREFETCH_MIN_BYTES);
    // Same size, other bytes, a later modification time.
    writeFileSync(server, text.replace('get_item_7', 'get_item_X'));
    utimesSync(server, new Date(), new Date(Date.now() + 5000));
    writeFileSync(file, catalog(300, ' Edited.'));
    const cache = GenerationCache.parse(first.serialize(), 'test');
    await expect(generate(file, { cwd: root, outDir: out, cache })).rejects.toThrow(/server\.gen\.ts/);
    expect(readFileSync(server, 'utf8')).toBe(text.replace('get_item_7', 'get_item_X'));
  });
});
