/**
 * End to end over real transports: the committed support-desk server runs as
 * a child process (`node --import tsx generated/support-desk/main.gen.ts`) and
 * an SDK client drives it over stdio and Streamable HTTP, in both protocol
 * eras. Needs `npm run build` (the server imports `mcp-gen/runtime` from dist/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const MAIN = join(repoRoot, 'generated', 'support-desk', 'main.gen.ts');
const NODE_ARGS = ['--import', 'tsx', MAIN];
const START_TIMEOUT = 60_000;

/** Probes a 2026 pin in place instead of in a sibling process (SDK-V2 §9). */
class InPlaceStdioClientTransport extends StdioClientTransport {}

const eras = [
  { name: '2025-11-25', negotiation: { mode: 'legacy' } },
  { name: '2026-07-28', negotiation: { mode: { pin: '2026-07-28' } } },
] as const;
type Era = (typeof eras)[number];

function newClient(era: Era): Client {
  return new Client({ name: 'mcp-gen-e2e', version: '1.0.0' }, { versionNegotiation: era.negotiation });
}

/** The JSON-RPC code of a rejected call. */
async function errorCode(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (e) {
    return (e as { code?: number }).code;
  }
  throw new Error('expected the call to fail with a protocol error');
}

/** The same conversation over every transport and era. */
function conversation(get: () => Client): void {
  it('lists tools, resources, templates and prompts', async () => {
    const client = get();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['refunds.create_draft', 'refunds.submit', 'tickets.get', 'tickets.search']);
    expect(tools.find((t) => t.name === 'tickets.get')).toMatchObject({ title: 'Get ticket', annotations: { readOnlyHint: true } });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['support://policies/refunds/2026-09', 'support://brand/logo.png']));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'support://customers/{customerId}/invoices/{invoiceId}',
      'support://tickets/{ticketId}',
    ]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['draft_refund_review', 'summarize_ticket']);
  });

  it('answers invalid tool input with isError naming the field', async () => {
    const result = await get().callTool({ name: 'tickets.get', arguments: { ticketId: 'not-a-ticket' } });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    expect(text).toContain('ticketId');
  });

  it('answers an unknown tool with -32602', async () => {
    expect(await errorCode(get().callTool({ name: 'tickets.nope', arguments: {} }))).toBe(-32602);
  });

  it('answers an unknown resource URI with -32602 or -32002', async () => {
    expect([-32602, -32002]).toContain(await errorCode(get().readResource({ uri: 'support://nothing/here' })));
  });

  it('reads a fixed resource served from its source file', async () => {
    const { contents } = await get().readResource({ uri: 'support://policies/refunds/2026-09' });
    expect(contents[0]).toMatchObject({ uri: 'support://policies/refunds/2026-09', mimeType: 'text/markdown' });
    expect((contents[0] as { text: string }).text).toMatch(/^# Refund policy/);
  });

  it('gets a static prompt with its arguments inserted and the policy embedded', async () => {
    const { messages } = await get().getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'T-1001', depth: 'quick' } });
    expect(messages[0]).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Review ticket T-1001 at quick depth. Cite the policy sections you rely on. Propose a refund draft only; never submit.' },
    });
    expect(messages[1]).toMatchObject({ role: 'user', content: { type: 'resource', resource: { uri: 'support://policies/refunds/2026-09' } } });
  });

  it('rejects a prompt argument that fails its schema with -32602', async () => {
    expect(await errorCode(get().getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'nope' } }))).toBe(-32602);
  });
}

describe.each(eras)('stdio ($name)', (era) => {
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const Transport = era.negotiation.mode === 'legacy' ? StdioClientTransport : InPlaceStdioClientTransport;
    const transport = new Transport({ command: process.execPath, args: NODE_ARGS, cwd: repoRoot, stderr: 'pipe' });
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    client = newClient(era);
    await client.connect(transport);
  }, START_TIMEOUT);
  afterAll(async () => {
    await client?.close();
  });

  it('negotiated the era it asked for', () => {
    expect(client.getProtocolEra(), stderr).toBe(era.negotiation.mode === 'legacy' ? 'legacy' : 'modern');
    expect(client.getServerVersion()).toMatchObject({ name: 'support-desk', version: '1.4.0' });
  });

  conversation(() => client);
});

describe('Streamable HTTP', () => {
  let child: ChildProcess;
  let url: URL;
  let stderr = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [...NODE_ARGS, '--http', '--port', '0'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening URL on stderr within ${START_TIMEOUT} ms:\n${stderr}`)), START_TIMEOUT - 5_000);
      child.stderr!.on('data', (b: Buffer) => {
        stderr += b.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]!));
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
    });
  }, START_TIMEOUT);

  afterAll(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it('listens on 127.0.0.1 on a free port, path /mcp', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe('/mcp');
  });

  describe.each(eras)('$name', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = newClient(era);
      await client.connect(new StreamableHTTPClientTransport(url));
    }, START_TIMEOUT);
    afterAll(async () => {
      await client?.close();
    });

    it('negotiated the era it asked for', () => {
      expect(client.getProtocolEra()).toBe(era.negotiation.mode === 'legacy' ? 'legacy' : 'modern');
    });

    conversation(() => client);
  });

  it('refuses a foreign Host header with 403 (node:http: fetch never sends a custom Host)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    });
    expect(status).toBe(403);
  });

  it('refuses a foreign Origin with 403 (raw fetch)', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(403);
  });
});
