/**
 * The launch identity of a generated stdio server comes from the environment
 * (MCP_PRINCIPAL, MCP_TENANT, MCP_SCOPES), never from arguments: a server
 * launched without a scope hides and refuses what needs it.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

async function launched(env: Record<string, string>) {
  const client = new Client({ name: 'launch-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'generated/support-desk/main.gen.ts'], env: { ...process.env, ...env } as Record<string, string>, stderr: 'pipe' }));
  return client;
}

describe('launch identity over real stdio', () => {
  it('MCP_SCOPES restricts the caller: hidden from tools/list and refused before validation', async () => {
    const client = await launched({ MCP_SCOPES: 'tickets:read', MCP_PRINCIPAL: 'agent-7', MCP_TENANT: 'acme' });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['tickets.get', 'tickets.search']);
      const r = await client.callTool({ name: 'refunds.submit', arguments: { draftId: 'nonsense', tenant: 'other' } });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toContain('Forbidden');
      const ok = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1001' } });
      expect(ok.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 30_000);
});
