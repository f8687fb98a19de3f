/**
 * The launch option over real stdio: `--disable` and `MCP_DISABLE` start a spawned server with primitives
 * switched off (both eras), and an unknown entry stops start-up naming the valid entries.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const entry = fileURLToPath(new URL('./switch.main.fixture.ts', import.meta.url));
const nodeArgs = ['--import', 'tsx', entry];

// Probing in place: a subclass keeps the 2026 probe in the same process.
class InPlaceStdio extends StdioClientTransport {}

describe('--disable and MCP_DISABLE over real stdio', () => {
  it.each([
    ['legacy', 'legacy'],
    ['modern', { pin: '2026-07-28' }],
  ] as const)('starts a %s-era server with the entries switched off', async (era, mode) => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } } as ConstructorParameters<typeof Client>[1]);
    const env = { ...process.env, MCP_DISABLE: 'resource:notes' } as Record<string, string>;
    await client.connect(new InPlaceStdio({ command: process.execPath, args: [...nodeArgs, '--disable', 'tool:beta', '--disable', 'alpha'], env, stderr: 'pipe' }));
    try {
      expect(client.getProtocolEra()).toBe(era);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'say', 'vault']);
      expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain('memo://notes');
      await expect(client.callTool({ name: 'beta', arguments: {} })).rejects.toThrow(/Tool beta not found/);
    } finally {
      await client.close();
    }
  });

  it('exits 2 on an unknown entry, naming the valid ones, before serving', () => {
    const r = spawnSync(process.execPath, [...nodeArgs, '--disable', 'tool:gamma'], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("'tool:gamma' names no primitive of this server");
    expect(r.stderr).toContain('valid entries: tool:alpha, tool:beta, tool:whoami, tool:say, tool:vault, resource:notes, resource:page, prompt:beta');
  });
});
