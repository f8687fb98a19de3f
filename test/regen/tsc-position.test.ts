/**
 * After each kind of schema change, the first `tsc` error lands on the handler line that no longer fits:
 * the `return` for output and content schemas (the stubs declare their return type), the line that reads an
 * input, parameter or argument for those. Handlers are written once; only the manifest changes.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { typecheck } from './typecheck.js';

const dir = join(repoRoot, 'test', `.tmp-tscpos-${process.pid}`);
const out = join(dir, 'out');
const manifestPath = join(dir, 'mcp.manifest.yaml');

const BASE = {
  toolInput: '{ type: object, properties: { isbn: { type: string, maxLength: 20 }, limit: { type: integer, maximum: 50 } }, required: [isbn], additionalProperties: false }',
  toolOutput: '{ type: object, properties: { title: { type: string }, pages: { type: integer } }, required: [title, pages], additionalProperties: false }',
  params: '{ isbn: { type: string, maxLength: 20 } }',
  template: 'books://books/{isbn}',
  content: '{ type: object, properties: { isbn: { type: string } }, required: [isbn], additionalProperties: false }',
  arg: 'isbn',
};
type Parts = typeof BASE;

const manifest = (p: Parts) => `mcpgen: 1
server:
  name: shelf
  version: 1.0.0
tools:
  books.get:
    description: Get one book by isbn. Read only.
    sideEffect: read
    input: ${p.toolInput}
    output: ${p.toolOutput}
resources:
  book:
    uriTemplate: ${p.template}
    mimeType: application/json
    params: ${p.params}
    schema: ${p.content}
prompts:
  summarize:
    description: Summarize one book.
    arguments:
      ${p.arg}: { description: The book, required: true }
`;

/** Handler bodies, each line that depends on the manifest tagged with a marker comment. */
const HANDLERS: Record<string, string> = {
  'tools/booksGet.ts': `import type { Returns } from 'mcp-gen/runtime';
import type { BooksGetTool } from '../../types.gen.js';

export const booksGet: BooksGetTool = async (input, ctx): Promise<Returns<BooksGetTool>> => {
  const shelf = input.isbn.toUpperCase(); // @input-isbn
  const limit: number = input.limit ?? 5; // @input-limit
  return { title: shelf, pages: limit }; // @tool-return
};
`,
  'resources/book.ts': `import type { Returns } from 'mcp-gen/runtime';
import type { BookResource } from '../../types.gen.js';

export const book: BookResource = {
  async read(params, ctx): Promise<Returns<BookResource['read']>> {
    const isbn: string = params.isbn; // @params-isbn
    return { isbn }; // @content-return
  },
};
`,
  'prompts/summarize.ts': `import type { Returns } from 'mcp-gen/runtime';
import type { SummarizePrompt } from '../../types.gen.js';

export const summarize: SummarizePrompt = {
  async get(args, ctx): Promise<Returns<SummarizePrompt['get']>> {
    const isbn: string = args.isbn; // @arg-isbn
    return \`Summarize book \${isbn} in three sentences.\`;
  },
};
`,
};

/** `path:line` of a marker. */
function marker(tag: string): string {
  for (const [file, text] of Object.entries(HANDLERS)) {
    const line = text.split('\n').findIndex((l) => l.includes(`// @${tag}`));
    if (line >= 0) return `handlers/${file}:${line + 1}`;
  }
  throw new Error(`no marker ${tag}`);
}

async function regenerate(p: Parts): Promise<void> {
  writeFileSync(manifestPath, manifest(p));
  const r = await runCli(['generate', manifestPath, '--out', out], repoRoot);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  await regenerate(BASE);
  for (const [file, text] of Object.entries(HANDLERS)) writeFileSync(join(out, 'handlers', file), text);
  expect(typecheck(out)).toEqual([]);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CASES: [string, Partial<Parts>, string][] = [
  ['an output property changes type', { toolOutput: BASE.toolOutput.replace('pages: { type: integer }', 'pages: { type: string }') }, 'tool-return'],
  ['an output property becomes required that the handler does not return', { toolOutput: BASE.toolOutput.replace('required: [title, pages]', 'required: [title, pages, author]').replace('pages: { type: integer } }', 'pages: { type: integer }, author: { type: string } }') }, 'tool-return'],
  ['an output property is removed from a closed object', { toolOutput: '{ type: object, properties: { title: { type: string } }, required: [title], additionalProperties: false }' }, 'tool-return'],
  ['an input property is renamed', { toolInput: BASE.toolInput.replace('isbn: {', 'code: {').replace('required: [isbn]', 'required: [code]') }, 'input-isbn'],
  ['an input property changes type', { toolInput: BASE.toolInput.replace('limit: { type: integer, maximum: 50 }', 'limit: { type: string, maxLength: 5 }') }, 'input-limit'],
  ['a template variable is renamed', { template: 'books://books/{code}', params: '{ code: { type: string, maxLength: 20 } }' }, 'params-isbn'],
  ['a resource content schema changes', { content: BASE.content.replace('isbn: { type: string }', 'isbn: { type: integer }') }, 'content-return'],
  ['a prompt argument is renamed', { arg: 'book' }, 'arg-isbn'],
];

describe('the first tsc error after a schema change', () => {
  it.each(CASES)('%s: on the line that no longer fits', async (_name, change, tag) => {
    await regenerate({ ...BASE, ...change });
    const errors = typecheck(out);
    expect(errors.length, 'the change breaks the handler').toBeGreaterThan(0);
    expect(errors[0]).toMatch(new RegExp(`^${marker(tag).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+ `));
    expect(errors[0]!.length, errors[0]).toBeLessThan(300); // a short message, not four levels of assignability
    for (const [file, text] of Object.entries(HANDLERS)) expect(readFileSync(join(out, 'handlers', file), 'utf8')).toBe(text);
    await regenerate(BASE);
  }, 60_000);
});
