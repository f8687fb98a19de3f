import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ERAS } from './fixture.js';

const entry = fileURLToPath(new URL('./main.fixture.ts', import.meta.url));
const nodeArgs = ['--import', 'tsx', entry];

// Probing in place (SDK-V2 §9): a subclass keeps the 2026 probe in the same process.
class InPlaceStdio extends StdioClientTransport {}

describe('runMain', () => {
  it('--help prints usage to stderr and nothing to stdout', () => {
    const r = spawnSync(process.execPath, [...nodeArgs, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('support-desk 1.4.0');
    expect(r.stderr).toContain('--allowed-host');
    expect(r.stderr).toContain('MCP_V8_PRETENURING=on');
  });

  it('exits 2 on an unknown option', () => {
    const r = spawnSync(process.execPath, [...nodeArgs, '--nope'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown option --nope');
  });

  it.each(ERAS)('serves a $era client over real stdio', async ({ era, mode }) => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } } as ConstructorParameters<typeof Client>[1]);
    await client.connect(new InPlaceStdio({ command: process.execPath, args: nodeArgs, stderr: 'pipe' }));
    try {
      expect(client.getProtocolEra()).toBe(era);
      const r = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234' } });
      expect(r.structuredContent).toEqual({ id: 'T-1234', status: 'open' });
    } finally {
      await client.close();
    }
  });
});
