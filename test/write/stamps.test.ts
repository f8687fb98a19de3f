/**
 * What the incremental cache's disk stamps may and may not stand in for. A file the run is about to
 * rewrite or delete is read whatever its stamp says, so a hand edit that kept the file's size and
 * modification time is still refused; a kept handler's stamp stands in for its content, and a handler
 * edited the ordinary way is read again.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { generate } from '../../generator/pipeline.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const manifest = (description: string, extra = '') => `mcpgen: 1
server:
  name: shelf
  version: 1.0.0
tools:
  books.find:
    description: ${description}
    sideEffect: read
    input: { type: object, properties: { isbn: { type: string, maxLength: 20 } }, required: [isbn], additionalProperties: false }
    output: { type: object, properties: { ok: { type: boolean } }, required: [ok], additionalProperties: false }
${extra}`;

const PROMPT = `prompts:
  shelf.review:
    description: Review the shelf.
    messages:
      - { role: user, text: Review the shelf and list gaps. }
`;

/** A project generated twice with the cache, the second time after `file`'s stamp was set to a round value. */
async function project(extra = ''): Promise<{ root: string; file: string; out: string; cache: () => GenerationCache }> {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gen-stamps-'));
  roots.push(root);
  const file = join(root, 'mcp.manifest.yaml');
  const out = join(root, 'out');
  writeFileSync(file, manifest('Tell whether one book by isbn is on the shelf. Read only.', extra));
  let cache = new GenerationCache('test');
  await generate(file, { cwd: root, outDir: out, cache });
  return { root, file, out, cache: () => (cache = GenerationCache.parse(cache.serialize(), 'test')) };
}

/** Edits `path` by hand without changing its size, then gives it back the modification time `mtime` (seconds). */
function editKeepingStamp(path: string, mtime: number): void {
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf('shelf');
  writeFileSync(path, `${text.slice(0, at)}SHELF${text.slice(at + 5)}`);
  utimesSync(path, mtime, mtime);
}

/** Gives `rel` a round modification time and lets a run record it as its stamp. */
async function roundStamp(p: Awaited<ReturnType<typeof project>>, rel: string): Promise<{ mtime: number; cache: GenerationCache }> {
  const mtime = 1_700_000_000;
  utimesSync(join(p.out, rel), mtime, mtime);
  const cache = p.cache();
  await generate(p.file, { cwd: p.root, outDir: p.out, cache });
  const recorded = cache.diskOf(p.out)?.files[rel] ?? cache.diskOf(p.out)?.handlers[rel];
  expect(recorded?.mtimeMs).toBe(mtime * 1000);
  return { mtime, cache: p.cache() };
}

describe('disk stamps of the incremental cache', () => {
  it('a generated file about to be rewritten is read: a hand edit with its size and mtime restored is refused', async () => {
    const p = await project();
    const { mtime, cache } = await roundStamp(p, 'server.gen.ts');
    const path = join(p.out, 'server.gen.ts');
    editKeepingStamp(path, mtime);
    const edited = readFileSync(path, 'utf8');
    const recorded = cache.diskOf(p.out)!.files['server.gen.ts']!;
    expect({ size: statSync(path).size, mtimeMs: statSync(path).mtimeMs }).toEqual({ size: recorded.size, mtimeMs: recorded.mtimeMs });

    writeFileSync(p.file, manifest('Tell whether one book by its isbn is on the shelf. Read only.'));
    await expect(generate(p.file, { cwd: p.root, outDir: p.out, cache })).rejects.toThrow(/server\.gen\.ts was edited by hand/);
    expect(readFileSync(path, 'utf8')).toBe(edited);
  });

  it('a generated file no longer emitted is read before it is removed: the same hand edit is refused', async () => {
    const p = await project(PROMPT);
    const rel = 'contract/prompts.gen.test.ts';
    const { mtime, cache } = await roundStamp(p, rel);
    editKeepingStamp(join(p.out, rel), mtime);
    const before = readFileSync(join(p.out, 'server.gen.ts'), 'utf8');
    // Without its prompt, the manifest no longer has the prompts' suite generated: it would be deleted.
    writeFileSync(p.file, manifest('Tell whether one book by isbn is on the shelf. Read only.'));
    await expect(generate(p.file, { cwd: p.root, outDir: p.out, cache })).rejects.toThrow(/prompts\.gen\.test\.ts is no longer generated but was edited by hand/);
    expect(readFileSync(join(p.out, 'server.gen.ts'), 'utf8')).toBe(before);
  });

  it('a tool handler stripped of its return type the ordinary way is read again and noted on a contract change', async () => {
    const p = await project();
    const handler = join(p.out, 'handlers/tools/booksFind.ts');
    await generate(p.file, { cwd: p.root, outDir: p.out, cache: p.cache() });
    writeFileSync(handler, readFileSync(handler, 'utf8').replace(/: Promise<Returns<BooksFindTool>>/, ''));
    writeFileSync(p.file, manifest('Tell whether one book by isbn is on the shelf. Read only.').replace('type: boolean', 'type: string'));
    const cached = await generate(p.file, { cwd: p.root, outDir: p.out, cache: p.cache() });
    expect(cached.notes.map((n) => n.message).join('\n')).toMatch(/booksFind declares no return type/);
  });

  it('a tool handler read by a run without a contract change is recorded as declaring its return, so the next change does not read it', async () => {
    const p = await project();
    const rel = 'handlers/tools/booksFind.ts';
    // A run that starts from an empty cache (a new mcp-gen, a deleted cache) reads every handler to plan it.
    const fresh = new GenerationCache('test');
    await generate(p.file, { cwd: p.root, outDir: p.out, cache: fresh });
    expect(fresh.diskOf(p.out)?.handlers[rel]?.declared).toBe(true);
    // One stripped of its return type is not.
    const handler = join(p.out, rel);
    writeFileSync(handler, readFileSync(handler, 'utf8').replace(/: Promise<Returns<BooksFindTool>>/, ''));
    const again = new GenerationCache('test');
    await generate(p.file, { cwd: p.root, outDir: p.out, cache: again });
    expect(again.diskOf(p.out)?.handlers[rel]?.declared).toBeUndefined();
  });

  it('a handler file deleted or edited since the last run is planned from its stamp now, not the recorded one', async () => {
    const p = await project(PROMPT.replace('    messages:\n      - { role: user, text: Review the shelf and list gaps. }\n', ''));
    const tool = join(p.out, 'handlers/tools/booksFind.ts');
    const prompt = join(p.out, 'handlers/prompts/shelfReview.ts');
    const stub = readFileSync(prompt, 'utf8');
    rmSync(prompt);
    writeFileSync(tool, readFileSync(tool, 'utf8').replace(/export const booksFind/, 'export const renamedByHand'));
    writeFileSync(p.file, manifest('Tell whether one book by isbn is on the shelf, read only.', PROMPT.replace('    messages:\n      - { role: user, text: Review the shelf and list gaps. }\n', '')));
    const cache = p.cache();
    await generate(p.file, { cwd: p.root, outDir: p.out, cache });
    expect(readFileSync(prompt, 'utf8')).toBe(stub);
    expect(readFileSync(tool, 'utf8')).toMatch(/export const booksFind/);
    // Recorded as the run left them: the next run keeps both unread.
    const disk = cache.diskOf(p.out)!;
    for (const f of [tool, prompt]) expect(disk.handlers[f.slice(p.out.length + 1)]?.mtimeMs).toBe(statSync(f).mtimeMs);
  });
});
