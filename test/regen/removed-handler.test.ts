/**
 * A primitive removed from the manifest: its handler (with the author's edits) is kept, marked out of the
 * type check so the project still compiles, reported by every generate and check until it is deleted, and
 * unmarked when the primitive comes back.
 */
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { typecheck } from './typecheck.js';

const dir = join(repoRoot, 'test', `.tmp-removed-${process.pid}`);
const out = join(dir, 'out');
const manifest = join(dir, 'mcp.manifest.yaml');
const tool = (name: string) => `  ${name}:
    description: Tell whether one book by isbn is on the shelf. Read only.
    sideEffect: read
    input: { type: object, properties: { isbn: { type: string, maxLength: 20 } }, required: [isbn], additionalProperties: false }
    output: { type: object, properties: { ok: { type: boolean } }, required: [ok], additionalProperties: false }
`;
const write = (tools: string[]) => writeFileSync(manifest, `mcpgen: 1\nserver:\n  name: books\n  version: 1.0.0\ntools:\n${tools.map(tool).join('')}`);
const handler = join(out, 'handlers/tools/booksWithdraw.ts');
const generate = () => runCli(['generate', manifest, '--out', out], repoRoot);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a removed primitive\'s handler', () => {
  it('is kept with the author\'s edits, still compiles, and is reported by every generate and check until deleted', async () => {
    mkdirSync(dir, { recursive: true });
    write(['books.lend', 'books.withdraw']);
    const initial = await generate();
    expect(initial.code, initial.stderr).toBe(0);
    const edited = readFileSync(handler, 'utf8').replace(/throw notImplemented\([^)]*\);/, 'return { ok: true }; // withdrawn by hand');
    writeFileSync(handler, edited);
    write(['books.lend']);

    const first = await generate();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('booksWithdraw.ts: tool books.withdraw is no longer in the manifest');
    const kept = readFileSync(handler, 'utf8');
    expect(kept.split('\n')[0]).toMatch(/^\/\/ @ts-nocheck mcp-gen: tool books.withdraw is no longer in the manifest/);
    expect(kept.slice(kept.indexOf('\n') + 1)).toBe(edited);
    expect(typecheck(out)).toEqual([]);

    const again = await generate();
    expect(again.stdout).toContain('tool books.withdraw is no longer in the manifest');
    const check = await runCli(['check', manifest, '--out', out], repoRoot);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain('tool books.withdraw is no longer in the manifest');

    unlinkSync(handler);
    const after = await generate();
    expect(after.stdout + after.stderr).not.toContain('no longer in the manifest');
    expect((await runCli(['check', manifest, '--out', out], repoRoot)).stderr).not.toContain('no longer in the manifest');
  }, 60_000);

  it('loses its mark when the primitive comes back, the author\'s code intact', async () => {
    write(['books.lend', 'books.withdraw']);
    expect((await generate()).code).toBe(0);
    const body = readFileSync(handler, 'utf8').replace(/throw notImplemented\([^)]*\);/, 'return { ok: false };');
    writeFileSync(handler, body);
    write(['books.lend']);
    await generate();
    write(['books.lend', 'books.withdraw']);
    const back = await generate();
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(handler, 'utf8')).toBe(body);
    expect(typecheck(out)).toEqual([]);
  }, 60_000);
});
