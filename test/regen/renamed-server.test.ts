/**
 * A changed `server.name` moves the default output folder: instead of writing fresh stubs into the new folder
 * and stranding the handlers in the old one, generate stops and says how to carry them over; done as it
 * says, the handlers keep the author's code.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const dir = join(repoRoot, 'test', `.tmp-rename-server-${process.pid}`);
const manifest = (name: string, tool = 'notes.get') => `mcpgen: 1
server:
  name: ${name}
  version: 1.0.0
tools:
  ${tool}:
    description: Get one note by id. Read only.
    sideEffect: read
    input: { type: object, properties: { id: { type: string, maxLength: 20 } }, required: [id], additionalProperties: false }
`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a server.name change', () => {
  it('stops with the move to make, writes nothing, and after the move keeps the handlers', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mcp.manifest.yaml'), manifest('notes'));
    expect((await runCli(['generate'], dir)).code).toBe(0);
    const handler = join(dir, 'generated/notes/handlers/tools/notesGet.ts');
    const edited = readFileSync(handler, 'utf8').replace(/throw notImplemented\([^)]*\);/, "return { content: [{ type: 'text', text: 'mine' }] };");
    writeFileSync(handler, edited);

    writeFileSync(join(dir, 'mcp.manifest.yaml'), manifest('team-notes'));
    const r = await runCli(['generate'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('generated/notes holds the handlers of 1 primitive of this manifest (tool notes.get), but server.name now makes the output folder generated/team-notes; nothing was written.');
    expect(r.stderr).toContain('`mv generated/notes generated/team-notes`');
    expect(existsSync(join(dir, 'generated/team-notes'))).toBe(false);

    renameSync(join(dir, 'generated/notes'), join(dir, 'generated/team-notes'));
    const moved = await runCli(['generate'], dir);
    expect(moved.code, moved.stderr).toBe(0);
    expect(readFileSync(join(dir, 'generated/team-notes/handlers/tools/notesGet.ts'), 'utf8')).toBe(edited);
  }, 60_000);

  it('does not stop a second server whose primitives are its own, nor an explicit --out', async () => {
    writeFileSync(join(dir, 'other.manifest.yaml'), manifest('other-server', 'other.get'));
    expect((await runCli(['generate', 'other.manifest.yaml'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'mcp.manifest.yaml'), manifest('third'));
    const explicit = await runCli(['generate', '--out', 'generated/third'], dir);
    expect(explicit.code, explicit.stderr).toBe(0);
  }, 60_000);
});
