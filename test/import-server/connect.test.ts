/** A server that exits before answering is a located user error naming it, with the end of its stderr. */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../generator/diagnostics.js';
import { connectTo } from '../../generator/remote/connect.js';

const root = resolve(import.meta.dirname, '../..');
const dying = ['-e', "process.stderr.write('cannot reach upstream: fetch failed\\n'); process.exit(3)"];

describe('connecting to a server that exits', () => {
  it('throws a UserError with the command and its stderr', async () => {
    const err = await connectTo({ kind: 'stdio', command: process.execPath, args: dying }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/could not open an MCP session/);
    expect((err as Error).message).toContain('cannot reach upstream: fetch failed');
  });

  it('makes import server exit 1 with that message, not an internal error', () => {
    let out: { status: number; stderr: string } = { status: 0, stderr: '' };
    try {
      execFileSync(process.execPath, ['bin/mcp-gen.js', 'import', 'server', '--out', 'test/import-server/.tmp-never/mcp.manifest.yaml', '--', process.execPath, ...dying], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      out = e as { status: number; stderr: string };
    }
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('cannot reach upstream: fetch failed');
    expect(out.stderr).not.toMatch(/internal error/);
  }, 30_000);
});
