/**
 * A handler written before stubs declared their return type keeps its declaration (it is the author's
 * line): after a contract change, generate names the line and says what to add so tsc points at the return.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { undeclaredReturn } from '../../generator/write/plan.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'test', `.tmp-old-declaration-${process.pid}`);
const out = join(dir, 'out');
const manifest = join(dir, 'mcp.manifest.yaml');
const write = (outputType: string) => writeFileSync(manifest, `mcpgen: 1
server:
  name: books
  version: 1.0.0
tools:
  books.lend:
    description: Tell whether one book by isbn is on the shelf. Read only.
    sideEffect: read
    input: { type: object, properties: { isbn: { type: string, maxLength: 20 } }, required: [isbn], additionalProperties: false }
    output: { type: object, properties: { ok: { type: ${outputType} } }, required: [ok], additionalProperties: false }
`);
const handler = join(out, 'handlers/tools/booksLend.ts');
const generate = () => runCli(['generate', manifest, '--out', out], repoRoot);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a handler declaration from an earlier generator version', () => {
  it('is left as written, and a contract change names its line and the annotation to add', async () => {
    mkdirSync(dir, { recursive: true });
    write('boolean');
    expect((await generate()).code).toBe(0);
    // As earlier versions wrote it: no declared return type.
    const old = readFileSync(handler, 'utf8').replace(': Promise<Returns<BooksLendTool>>', '').replace(/throw notImplemented\([^)]*\);/, 'return { ok: true };');
    writeFileSync(handler, old);

    const quiet = await generate();
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout + quiet.stderr).not.toContain('declares no return type');

    write('string');
    const changed = await generate();
    expect(changed.code, changed.stderr).toBe(0);
    const line = old.split('\n').findIndex((l) => l.startsWith('export const booksLend')) + 1;
    expect(changed.stdout + changed.stderr).toContain(`booksLend.ts: line ${line}: booksLend declares no return type`);
    expect(changed.stdout + changed.stderr).toContain('write `async (input, ctx): Promise<Returns<BooksLendTool>> =>`');
    expect(readFileSync(handler, 'utf8')).toBe(old);
  });

  it('says nothing for a declaration that has its return type, or is not an async arrow', () => {
    expect(undeclaredReturn('a.ts', 'a', 'ATool', 'export const a: ATool = async (input, ctx): Promise<Returns<ATool>> => {')).toBeUndefined();
    expect(undeclaredReturn('a.ts', 'a', 'ATool', 'export const a: ATool = (input) => ({ ok: true });')).toBeUndefined();
    expect(undeclaredReturn('a.ts', 'a', 'ATool', 'export const a: ATool = async (input) => {')?.message).toMatch(/^line 1: a declares no return type/);
  });
});
