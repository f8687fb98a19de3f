/** The README's `mcp-gen call` commands, run exactly as printed (through a shell, with npx) from the repository root. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const commands = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n').filter((l) => l.startsWith('npx mcp-gen call '));

describe('README mcp-gen call commands', () => {
  it('the README prints a tool call, a resource read and a prompt get', () => {
    expect(commands.map((c) => c.split(' ')[3])).toEqual(['tickets.get', 'support://tickets/T-1001', 'draft_refund_review']);
  });

  it.each(commands)('%s', (command) => {
    const r = spawnSync('sh', ['-c', command], { cwd: repoRoot, encoding: 'utf8', timeout: 110_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { structuredContent?: unknown; contents?: unknown[]; messages?: unknown[] };
    expect(result.structuredContent ?? result.contents?.[0] ?? result.messages?.[0]).toBeDefined();
    expect(JSON.stringify(result)).toContain('T-1001');
    // Each command starts npx, tsx and the server: seconds on a quiet machine, more under load.
  }, 120_000);
});
