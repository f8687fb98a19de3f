/**
 * Marking a removed primitive's handler needs to know that the file parses (write/removed.ts). A file whose
 * content a run recorded as parsing (a stub it wrote, a file TypeScript parsed to edit it) is marked without
 * loading TypeScript; any other file is parsed, so one edited into something that does not parse is still
 * left unmarked, and one that still parses is still marked.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planRemovedHandlers } from '../../generator/write/removed.js';
import type { Action, PlanNote } from '../../generator/write/plan.js';
import { contentHash } from '../../generator/write/record.js';
import { binPath } from '../helpers/paths.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-removed-parse-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Appends every CommonJS module the run loads by name to $CJS_LOG (ts-morph loads TypeScript with require).
const HOOK = "const M = require('node:module'); const fs = require('node:fs'); const load = M._load; M._load = function (r, ...a) { fs.appendFileSync(process.env.CJS_LOG, r + '\\n'); return load.call(this, r, ...a); };\n";

const TOOL = (name: string) => `  ${name}:
    description: Tell whether one book by isbn is on the shelf. Read only.
    sideEffect: read
    input: { type: object, properties: { isbn: { type: string, maxLength: 20 } }, required: [isbn], additionalProperties: false }
    output: { type: object, properties: { ok: { type: boolean } }, required: [ok], additionalProperties: false }
`;
const RESOURCE = (list: boolean) => `resources:
  books.page:
    uriTemplate: shelf://books/{isbn}
    description: One book's page.
    mimeType: application/json
    params:
      isbn: { type: string, maxLength: 20 }
    schema: { type: object, properties: { isbn: { type: string } }, required: [isbn], additionalProperties: false }
${list ? '    list: true\n' : ''}`;
const manifest = (tools: readonly string[], resource = '') => `mcpgen: 1\nserver:\n  name: books\n  version: 1.0.0\ntools:\n${tools.map(TOOL).join('')}${resource}`;

/** A project (with node_modules, where the incremental cache lives) and a way to run `generate` in it. */
function project(name: string): { out: string; write: (text: string) => void; generate: () => { stdout: string; typescript: boolean } } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  const hook = join(dir, 'hook.cjs');
  writeFileSync(hook, HOOK);
  const file = join(dir, 'mcp.manifest.yaml');
  return {
    out: join(dir, 'out'),
    write: (text) => writeFileSync(file, text),
    generate: () => {
      const log = join(dir, `cjs-${Math.random().toString(36).slice(2)}.log`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, ['-r', hook, binPath, 'generate', file, '--out', join(dir, 'out')], { cwd: dir, encoding: 'utf8', env: { ...process.env, CJS_LOG: log, NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      return { stdout: r.stdout + r.stderr, typescript: readFileSync(log, 'utf8').split('\n').some((m) => /(^|[/.])typescript$|ts-morph/.test(m)) };
    },
  };
}

const MARKED = /^\/\/ @ts-nocheck mcp-gen: (tool|resource) books\.\w+ is no longer in the manifest/;

describe('marking a removed primitive\'s handler', () => {
  it('marks a stub the author has not touched without loading TypeScript', () => {
    const p = project('untouched');
    p.write(manifest(['books.lend', 'books.withdraw']));
    p.generate();
    const stub = readFileSync(join(p.out, 'handlers/tools/booksWithdraw.ts'), 'utf8');
    // A run in between keeps the file unread (by its stamp): what is known of it carries over.
    p.write(manifest(['books.lend', 'books.withdraw', 'books.find']));
    p.generate();
    p.write(manifest(['books.lend', 'books.find']));
    const removed = p.generate();
    expect(removed.stdout).toContain('tool books.withdraw is no longer in the manifest');
    const kept = readFileSync(join(p.out, 'handlers/tools/booksWithdraw.ts'), 'utf8');
    expect(kept.split('\n')[0]).toMatch(MARKED);
    expect(kept.slice(kept.indexOf('\n') + 1)).toBe(stub);
    expect(removed.typescript).toBe(false);
  }, 60_000);

  it('marks a stub again without loading TypeScript after its primitive came back and went again', () => {
    const p = project('back-and-gone');
    p.write(manifest(['books.lend', 'books.withdraw']));
    p.generate();
    const path = join(p.out, 'handlers/tools/booksWithdraw.ts');
    const stub = readFileSync(path, 'utf8');
    for (const round of [1, 2]) {
      p.write(manifest(['books.lend']));
      const removed = p.generate();
      expect(readFileSync(path, 'utf8').split('\n')[0], `round ${round}`).toMatch(MARKED);
      expect(removed.typescript, `round ${round}`).toBe(false);
      // A run while it is out keeps what is known of it.
      expect(p.generate().typescript).toBe(false);
      p.write(manifest(['books.lend', 'books.withdraw']));
      p.generate();
      expect(readFileSync(path, 'utf8'), `round ${round}`).toBe(stub);
    }
  }, 60_000);

  it('marks a handler the author filled in without loading TypeScript, once a run has parsed it', () => {
    const p = project('filled');
    p.write(manifest(['books.lend'], RESOURCE(false)));
    p.generate();
    const path = join(p.out, 'handlers/resources/booksPage.ts');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/throw notImplemented\([^)]*\);/, 'return { isbn: params.isbn }; // filled in by hand'));
    p.write(manifest(['books.lend'], RESOURCE(true)));
    expect(p.generate().typescript).toBe(true); // adds `list`, parsing the file
    const filled = readFileSync(path, 'utf8');
    expect(filled).toContain('filled in by hand');
    expect(filled).toContain('async list(ctx)');
    p.write(manifest(['books.lend']));
    const removed = p.generate();
    const kept = readFileSync(path, 'utf8');
    expect(kept.split('\n')[0]).toMatch(MARKED);
    expect(kept.slice(kept.indexOf('\n') + 1)).toBe(filled);
    expect(removed.typescript).toBe(false);
  }, 60_000);

  it.each([
    ['leaves a handler edited into something that does not parse unmarked, and warns about it', 'return { ok: true ;', false],
    ['marks a handler edited since the last run that still parses, asking TypeScript', 'return { ok: true }; // withdrawn by hand', true],
  ] as const)('%s', (_does, edit, parses) => {
    const p = project(parses ? 'edited' : 'unparseable');
    p.write(manifest(['books.lend', 'books.withdraw']));
    p.generate();
    const path = join(p.out, 'handlers/tools/booksWithdraw.ts');
    const edited = readFileSync(path, 'utf8').replace(/throw notImplemented\([^)]*\);/, edit);
    writeFileSync(path, edited);
    p.write(manifest(['books.lend']));
    const removed = p.generate();
    expect(removed.stdout).toContain('tool books.withdraw is no longer in the manifest');
    const kept = readFileSync(path, 'utf8');
    if (parses) {
      expect(kept.split('\n')[0]).toMatch(MARKED);
      expect(kept.slice(kept.indexOf('\n') + 1)).toBe(edited);
    } else expect(kept).toBe(edited);
    expect(removed.typescript).toBe(true);
  }, 60_000);
});

describe('planRemovedHandlers', () => {
  const plan = async (content: string, parsed: string | undefined, parses: boolean) => {
    const actions: Action[] = [];
    const notes: PlanNote[] = [];
    let asked = 0;
    const parse = async () => (asked++, parses);
    await planRemovedHandlers({ 'tool:a.b': 'handlers/tools/aB.ts' }, {}, new Set(), async () => content, actions, notes, { parsed: () => parsed, parse });
    return { marked: actions.some((a) => a.kind === 'write'), warned: notes.length, asked };
  };
  const content = "export const aB = 1;\n";

  it('takes a recorded hash of the very content as proof that it parses, and asks TypeScript otherwise', async () => {
    expect(await plan(content, contentHash(content), false)).toEqual({ marked: true, warned: 1, asked: 0 });
    expect(await plan(content, contentHash(`${content} `), true)).toEqual({ marked: true, warned: 1, asked: 1 });
    expect(await plan(content, contentHash(`${content} `), false)).toEqual({ marked: false, warned: 1, asked: 1 });
    expect(await plan(content, undefined, false)).toEqual({ marked: false, warned: 1, asked: 1 });
  });
});
