/** `check`'s diffs: a unified diff of changed lines only (as `diff -u` gives), and lock files summarized by primitive. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockSummary, unifiedDiff } from '../../generator/write/unified-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-udiff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GNU diff's unified output without its two file header lines. */
function gnuDiff(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  const r = spawnSync('diff', ['-U3', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
  return r.stdout.split('\n').slice(2).join('\n').replace(/\n$/, '');
}

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`);

describe('unifiedDiff', () => {
  it('shows an inserted line as one + line with context, not the rest as removed and re-added', () => {
    const a = lines(20).join('\n') + '\n';
    const b = [...lines(10), 'inserted', ...lines(20).slice(10)].join('\n') + '\n';
    const d = unifiedDiff(a, b);
    expect(d.split('\n').filter((l) => l.startsWith('-'))).toEqual([]);
    expect(d.split('\n').filter((l) => l.startsWith('+'))).toEqual(['+inserted']);
    expect(d).toBe(gnuDiff(a, b));
  });

  it('gives one hunk per distant change, with the same ranges as diff -u', () => {
    const a = lines(60);
    const b = [...a];
    b[5] = 'changed 6';
    b.splice(40, 1);
    b.push('appended');
    const before = a.join('\n') + '\n';
    const after = b.join('\n') + '\n';
    const d = unifiedDiff(before, after);
    expect(d.split('\n').filter((l) => l.startsWith('@@'))).toHaveLength(3);
    expect(d).toBe(gnuDiff(before, after));
  });

  it('is empty for equal texts and counts what it cuts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
    const d = unifiedDiff(lines(100).join('\n'), lines(100, 'other').join('\n'), 3, 10);
    expect(d).toContain('… 190 more changed lines');
  });
});

describe('lockSummary', () => {
  const lock = (tools: Record<string, string>, version = '1.0.0') => JSON.stringify({ server: { name: 's', version }, protocolVersions: ['2026-07-28'], catalogHash: 'x', tools: Object.fromEntries(Object.entries(tools).map(([k, hash]) => [k, { hash, contract: {} }])), resources: {}, prompts: {} }, null, 2);

  it('names each added, removed and changed primitive instead of showing hashes', () => {
    expect(lockSummary(lock({ a: '1', b: '2', c: '3' }), lock({ a: '1', b: '9', d: '4' }, '1.1.0'))).toBe([
      '~ server: {"name":"s","version":"1.0.0"} → {"name":"s","version":"1.1.0"}',
      '~ tool b: contract changed (run `mcp-gen diff` for what it means to clients)',
      '- tool c: removed',
      '+ tool d: added',
    ].join('\n'));
  });
});
