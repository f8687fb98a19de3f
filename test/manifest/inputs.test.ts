/**
 * The input files of one run (manifest/inputs.ts): each file is read once, so the steps that read it
 * (the incremental cache checking a kept resource's served file, the check that serves it) see the same
 * bytes, and the files are listed manifest first, then in order, however soon each was read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFiles } from '../../generator/manifest/inputs.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the input files of a run', () => {
  it('reads a file once: a change after the first read is not seen by the same run', () => {
    const file = join(root, 'guide.md');
    writeFileSync(file, 'first');
    const inputs = new InputFiles();
    expect(Buffer.from(inputs.bytes(file)!).toString()).toBe('first');
    writeFileSync(file, 'second');
    expect(Buffer.from(inputs.bytes(file)!).toString()).toBe('first');
    expect(Buffer.from(new InputFiles().bytes(file)!).toString()).toBe('second');
    expect(inputs.bytes(join(root, 'missing.md'))).toBeUndefined();
  });

  it('lists the first file read first, then the others in order', async () => {
    const names = ['m.yaml', 'z.md', 'a.json', 'k/b.md'].map((n) => join(root, n));
    const inputs = new InputFiles();
    await inputs.text(names[0]!);
    for (const n of names.slice(1)) inputs.bytes(n);
    expect(inputs.files).toEqual([names[0], names[2], names[3], names[1]]);
  });
});
