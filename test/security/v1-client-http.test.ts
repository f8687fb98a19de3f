/**
 * The v1 SDK client (`@modelcontextprotocol/sdk` 1.x, 2025-11-25 over Streamable HTTP with a session) drives
 * the generated support-desk server: approval is asked through elicitation and a decline comes back as a
 * decline, and `resources/subscribe` really delivers `notifications/resources/updated`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
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
    // Every draft is confirmed (it has a confirmation of its own); `answer` is the user's answer to the submission.
    const accept = answer === 'accept' || request.params.message.includes('refunds.create_draft');
    return accept ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  return { client, asked };
}

async function draft(client: Client, key: string, invoiceId = 'INV-2005'): Promise<string> {
  const created = await client.callTool({ name: 'refunds.create_draft', arguments: { invoiceId, amountMinor: 100, currency: 'EUR', reasonCode: 'service_failure', idempotencyKey: key } });
  expect(created.isError).toBeFalsy();
  return (created.structuredContent as { draftId: string }).draftId;
}

const text = (result: object): string => JSON.stringify((result as { content?: unknown }).content);

describe('v1 SDK client over 2025-era HTTP', () => {
  it('is asked to approve an approval: required tool, and an accepted confirmation runs it', async () => {
    const { client, asked } = await v1Client('accept');
    const draftId = await draft(client, 'v1-accept-draft');
    const result = await client.callTool({ name: 'refunds.submit', arguments: { draftId, idempotencyKey: 'v1-accept-submit' } });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('refunds.create_draft');
    expect(asked[1]).toContain('refunds.submit');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ draftId, status: 'submitted' });
    await client.close();
  });

  it('reports a declined confirmation as a decline, and nothing runs', async () => {
    const { client, asked } = await v1Client('decline');
    const draftId = await draft(client, 'v1-decline-draft');
    const result = await client.callTool({ name: 'refunds.submit', arguments: { draftId, idempotencyKey: 'v1-decline-submit' } });
    expect(asked.filter((m) => m.includes('refunds.submit'))).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/did not approve/);
    expect(text(result)).not.toMatch(/Approval required/);
    await client.close();
  });

  it('delivers resources/updated to a session that subscribed, and only for its URIs', async () => {
    const { client } = await v1Client('accept');
    const updates: string[] = [];
    let second: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (second = resolve));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
      if (updates.length === 2) second();
    });
    await client.subscribeResource({ uri: 'support://tickets/T-1004' });
    const draftId = await draft(client, 'v1-subscribe-draft', 'INV-2004');
    // refunds.submit marks the invoice's tickets pending and announces each change (T-1004 here).
    const submitted = await client.callTool({ name: 'refunds.submit', arguments: { draftId, idempotencyKey: 'v1-subscribe-submit' } });
    expect(submitted.isError).toBeFalsy();
    host.notifyResourceUpdated('support://tickets/T-1002');
    host.notifyResourceUpdated('support://tickets/T-1004');
    await twice;
    expect(updates).toEqual(['support://tickets/T-1004', 'support://tickets/T-1004']);
    await client.close();
  });
});
