/**
 * `commit` writes every file into a staging folder, then moves them into place: whatever it finds there
 * (a staging folder it did not make, an output folder not made yet), it leaves the files written and no
 * staging folder or journal behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commit, JOURNAL_FILE, STAGING_DIR } from '../../generator/write/journal.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const scratch = (): string => {
  const r = mkdtempSync(join(tmpdir(), 'mcp-gen-journal-'));
  roots.push(r);
  return r;
};

describe('commit', () => {
  it('writes into an output folder it makes, and leaves only the files', async () => {
    const out = join(scratch(), 'new', 'out');
    await (await commit(out, [{ path: 'a.gen.ts', content: 'a\n', expect: null }, { path: 'sub/b.gen.ts', content: [Buffer.from('b'), Buffer.from('\n')], expect: null }], [])).settled;
    expect(readFileSync(join(out, 'a.gen.ts'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(out, 'sub/b.gen.ts'), 'utf8')).toBe('b\n');
    expect(readdirSync(out).sort()).toEqual(['a.gen.ts', 'sub']);
  });

  it('discards a staging folder it finds, with whatever is in it, and removes its own after', async () => {
    const out = scratch();
    writeFileSync(join(out, 'old.gen.ts'), 'old\n');
    mkdirSync(join(out, STAGING_DIR, 'deep'), { recursive: true });
    writeFileSync(join(out, STAGING_DIR, '0'), 'stale staged file\n');
    writeFileSync(join(out, STAGING_DIR, 'deep', 'x'), 'stale\n');
    await (await commit(out, [{ path: 'a.gen.ts', content: 'a\n', expect: null }], [{ path: 'old.gen.ts', expect: null }])).settled;
    expect(readFileSync(join(out, 'a.gen.ts'), 'utf8')).toBe('a\n');
    expect(existsSync(join(out, 'old.gen.ts'))).toBe(false);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
    expect(existsSync(join(out, JOURNAL_FILE))).toBe(false);
    expect(readdirSync(out)).toEqual(['a.gen.ts']);
  });

  it('moves over a file and removes one without freeing either: each keeps a second name in the staging folder until `settled`', async () => {
    const out = scratch();
    writeFileSync(join(out, 'a.gen.ts'), 'old a\n');
    writeFileSync(join(out, 'gone.gen.ts'), 'gone\n');
    const before = { a: statSync(join(out, 'a.gen.ts')).ino, gone: statSync(join(out, 'gone.gen.ts')).ino };
    let seen: { path: string; ino: number; text: string }[] = [];
    let inPlace: { a: string; gone: boolean; b: string } | undefined;
    const { settled } = await commit(
      out,
      [{ path: 'a.gen.ts', content: 'new a\n', expect: null }, { path: 'b.gen.ts', content: 'b\n', expect: null }],
      [{ path: 'gone.gen.ts', expect: null }],
      async (paths) => {
        // Called once every file is in place: the old copies are still there, under the staging folder.
        inPlace = { a: readFileSync(join(out, 'a.gen.ts'), 'utf8'), gone: existsSync(join(out, 'gone.gen.ts')), b: readFileSync(join(out, 'b.gen.ts'), 'utf8') };
        seen = paths.map((path) => ({ path, ino: statSync(path).ino, text: readFileSync(path, 'utf8') }));
        for (const path of paths) rmSync(path);
      },
    );
    await settled;
    expect(inPlace).toEqual({ a: 'new a\n', gone: false, b: 'b\n' });
    // The replaced file and the removed one, not the new file (it replaced nothing).
    expect(seen.map((s) => [s.ino, s.text])).toEqual([
      [before.a, 'old a\n'],
      [before.gone, 'gone\n'],
    ]);
    for (const s of seen) expect(s.path.startsWith(join(out, STAGING_DIR))).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['a.gen.ts', 'b.gen.ts']);
  });

  it('settles with the staging folder gone even when an old copy cannot be removed one by one', async () => {
    const out = scratch();
    writeFileSync(join(out, 'a.gen.ts'), 'old a\n');
    const { settled } = await commit(out, [{ path: 'a.gen.ts', content: 'new a\n', expect: null }], [], async () => {
      throw new Error('cannot remove');
    });
    await settled;
    expect(readFileSync(join(out, 'a.gen.ts'), 'utf8')).toBe('new a\n');
    expect(readdirSync(out)).toEqual(['a.gen.ts']);
  });

  it('reports a failed write only once every other staged write has ended', async () => {
    const out = scratch();
    const big = Buffer.alloc(64 << 20, 97);
    // The second file's parts are not bytes: its write fails at once, while the first is still being written.
    const failed = commit(out, [{ path: 'big.gen.ts', content: [big], expect: null }, { path: 'bad.gen.ts', content: [Buffer.from('a'), 42 as never], expect: null }], []);
    await expect(failed).rejects.toThrow();
    // Nothing was moved into place, and the staged big file is whole: no write goes on after the failure.
    expect(existsSync(join(out, 'big.gen.ts'))).toBe(false);
    expect(statSync(join(out, STAGING_DIR, '0')).size).toBe(big.length);
  });
});
