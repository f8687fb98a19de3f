/**
 * `commit` writes every file into a staging folder, then moves them into place: whatever it finds there
 * (a staging folder it did not make, an output folder not made yet), it leaves the files written and no
 * staging folder or journal behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
    await commit(out, [{ path: 'a.gen.ts', content: 'a\n', expect: null }, { path: 'sub/b.gen.ts', content: [Buffer.from('b'), Buffer.from('\n')], expect: null }], []);
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
    await commit(out, [{ path: 'a.gen.ts', content: 'a\n', expect: null }], [{ path: 'old.gen.ts', expect: null }]);
    expect(readFileSync(join(out, 'a.gen.ts'), 'utf8')).toBe('a\n');
    expect(existsSync(join(out, 'old.gen.ts'))).toBe(false);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
    expect(existsSync(join(out, JOURNAL_FILE))).toBe(false);
    expect(readdirSync(out)).toEqual(['a.gen.ts']);
  });
});
