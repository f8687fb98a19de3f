/** SDK clients for the fleet tests, and the retry loop a well-behaved caller runs. */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const ERAS = [
  { era: '2025-11-25', mode: 'legacy' },
  { era: '2026-07-28', mode: { pin: '2026-07-28' } },
] as const;
export type Era = (typeof ERAS)[number];

/** A connected client of `url` in `era`. */
export async function connectClient(url: string, era: Era): Promise<Client> {
  const client = new Client({ name: 'fleet-test', version: '1.0.0' }, { versionNegotiation: { mode: era.mode } } as ConstructorParameters<typeof Client>[1]);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Connects, retrying while the balancer answers from a replica that is gone (502). */
export async function connectSettled(url: string, era: Era): Promise<Client> {
  let last: unknown;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      return await connectClient(url, era);
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`could not connect to ${url}: ${String(last)}`);
}

/** The text of a tool result. */
export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('\n');
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/**
 * Calls a tool the way a careful caller retries a write: while the answer is "In progress" (another
 * replica holds the key) or the transport failed (a replica died), wait and send the same call again.
 */
export async function callSettled(client: () => Promise<Client> | Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  let last: unknown;
  for (let attempt = 0; attempt < 400; attempt++) {
    try {
      const result = await (await client()).callTool({ name, arguments: args });
      if (!(result.isError && textOf(result).startsWith('In progress'))) return result;
      last = textOf(result);
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} never settled: ${String(last)}`);
}

/**
 * The arguments of one refund draft (the amount picks the ticket URI the fixture announces), with a
 * receipt of its own for the draft's approval gate (the replicas accept `approved-…`; each is used once).
 */
export function draftArgs(idempotencyKey: string, amountMinor = 1): Record<string, unknown> {
  return { invoiceId: 'INV-2001', amountMinor, currency: 'EUR', reasonCode: 'duplicate', idempotencyKey, approvalReceipt: `approved-${randomUUID()}` };
}
