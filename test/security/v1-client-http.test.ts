/**
 * The v1 SDK client (`@modelcontextprotocol/sdk` 1.x, 2025-11-25 over Streamable HTTP with a session) drives
 * the generated support-desk server: approval is asked through elicitation and a decline comes back as a
 * decline.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';

let host: HttpServerHandle;

beforeAll(async () => {
  host = await startHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false, stderr: { write: () => true } }), { port: 0, stderr: { write: () => true } });
});

afterAll(async () => {
  await host.close();
});

type Answer = 'accept' | 'decline';

async function v1Client(answer: Answer): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: 'v1-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  return { client, asked };
}

async function draft(client: Client, key: string): Promise<string> {
  const created = await client.callTool({ name: 'refunds.create_draft', arguments: { invoiceId: 'INV-2004', amountMinor: 100, currency: 'EUR', reasonCode: 'service_failure', idempotencyKey: key } });
  expect(created.isError).toBeFalsy();
  return (created.structuredContent as { draftId: string }).draftId;
}

const text = (result: object): string => JSON.stringify((result as { content?: unknown }).content);

describe('v1 SDK client over 2025-era HTTP', () => {
  it('is asked to approve an approval: required tool, and an accepted confirmation runs it', async () => {
    const { client, asked } = await v1Client('accept');
    const draftId = await draft(client, 'v1-accept-draft');
    const result = await client.callTool({ name: 'refunds.submit', arguments: { draftId, idempotencyKey: 'v1-accept-submit' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('refunds.submit');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ draftId, status: 'submitted' });
    await client.close();
  });

  it('reports a declined confirmation as a decline, and nothing runs', async () => {
    const { client, asked } = await v1Client('decline');
    const draftId = await draft(client, 'v1-decline-draft');
    const result = await client.callTool({ name: 'refunds.submit', arguments: { draftId, idempotencyKey: 'v1-decline-submit' } });
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/did not approve/);
    expect(text(result)).not.toMatch(/Approval required/);
    await client.close();
  });
});
