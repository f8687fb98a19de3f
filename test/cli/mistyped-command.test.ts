/** A mistyped command is named as one, with the command it is closest to, instead of read as a manifest path. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-typo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mistyped commands', () => {
  it.each([['genrate', 'generate'], ['chekc', 'check'], ['lnit', 'lint'], ['packge', 'package']])('mcp-gen %s suggests mcp-gen %s and writes nothing', async (typo, command) => {
    const r = await runCli([typo], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`unknown command \`${typo}\`: did you mean \`mcp-gen ${command}\`?`);
    expect(r.stderr).not.toContain('does not exist');
  });

  it('a word close to no command lists the commands', async () => {
    const r = await runCli(['frobnicate'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('`frobnicate` is neither a command nor a manifest file: commands are generate, diff, check, lint');
  });

  it('an existing manifest file without an extension is still generated from', async () => {
    writeFileSync(join(dir, 'manifest'), 'mcpgen: 1\nserver:\n  name: typo-check\n  version: 1.0.0\n');
    const r = await runCli(['manifest', '--out', join(dir, 'out')], dir);
    expect(r.code, r.stderr).toBe(0);
  });
});
