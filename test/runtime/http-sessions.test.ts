/**
 * 2025-era clients over Streamable HTTP get sessions, so the server can ask them things (elicitation)
 * in the middle of a call, which the stateless fallback cannot do; 2026 requests stay per-request.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';

let host: HttpServerHandle;

beforeAll(async () => {
  host = await startHttpServer(
    () => {
      const server = new McpServer({ name: 'sessions', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
      server.registerTool('ask', { description: 'Asks the user for a name.' }, async (ctx) => {
        const answer = await ctx.mcpReq.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
        return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])}` }] };
      });
      return server;
    },
    { port: 0, stderr: { write: () => true } },
  );
});

afterAll(async () => {
  await host.close();
});

describe('HTTP sessions for 2025-era clients', () => {
  it('lets a tool elicit input from a 2025 client mid-call', async () => {
    const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    await client.close();
  });

  it('refuses a 2025 request that names an unknown session', async () => {
    const response = await fetch(host.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });
});
