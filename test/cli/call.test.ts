/**
 * `mcp-gen call`: one request against the generated server, from the project root and from an unrelated
 * folder, with command-line words typed by the manifest's schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admittedTypes, toolArguments, typedValue } from '../../generator/cli/call-args.js';
import { requestHeaders } from '../../generator/cli/call.js';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const manifest = join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml');
const elsewhere = mkdtempSync(join(tmpdir(), 'mcp-gen-call-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

describe('mcp-gen call', () => {
  it('calls a tool from the project root, finding the manifest and the output folder itself', async () => {
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', 'manifests/support-desk/mcp.manifest.yaml'], repoRoot);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ id: 'T-1001', status: 'open' });
  });

  it('calls a tool from an unrelated folder given the manifest path', async () => {
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '--manifest', manifest], elsewhere);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ id: 'T-1001' });
  });

  it('reads a resource by URI and by name with its template variables, and gets a prompt', async () => {
    const byUri = await runCli(['call', 'support://tickets/T-1001', '-m', manifest], elsewhere);
    expect(byUri.code, byUri.stderr).toBe(0);
    const byName = await runCli(['call', 'ticket', 'ticketId=T-1001', '-m', manifest], elsewhere);
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout)).toEqual(JSON.parse(byUri.stdout));
    expect(JSON.parse(byUri.stdout).contents[0]).toMatchObject({ uri: 'support://tickets/T-1001', mimeType: 'application/json' });
    const prompt = await runCli(['call', 'draft_refund_review', 'ticketId=T-1001', 'depth=quick', '-m', manifest], elsewhere);
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(JSON.parse(prompt.stdout).messages[0].content.text).toMatch(/^Review ticket T-1001 at quick depth\./);
  });

  it('speaks the 2026-07-28 protocol to the server it starts when asked', async () => {
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--protocol', '2026-07-28'], elsewhere);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ id: 'T-1001' });
  });

  it('exits 1 on a tool error result and names an unknown target with a suggestion', async () => {
    const bad = await runCli(['call', 'tickets.get', 'ticketId=nope', '-m', manifest], elsewhere);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).isError).toBe(true);
    const typo = await runCli(['call', 'ticket.get', '-m', manifest], elsewhere);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean tickets.get?');
  });
});

describe('mcp-gen call --url (a running server over Streamable HTTP)', () => {
  let host: HttpServerHandle;
  const eras: string[] = [];

  beforeAll(async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    host = await startHttpServer((ctx) => {
      eras.push(ctx.era);
      return createServer(handlers, { era: ctx.era, audit: false });
    }, {
      port: 0,
      stderr: { write: () => true },
      // An instance per request, so the factory sees the era of every request the CLI sends.
      instances: 'per-request',
      auth: {
        verifier: {
          async verifyAccessToken(token: string): Promise<AuthInfo> {
            if (token !== 'reader') throw new Error('unknown token');
            // In the audience of the support-desk resources, so their reads are served.
            return { token, clientId: 'cli', scopes: ['tickets:read'], expiresAt, resource: new URL(host.url), extra: { audiences: ['support-agents'] } };
          },
        },
      },
    });
  });
  afterAll(() => host.close());

  it.each([['2025-11-25', 'legacy'], ['2026-07-28', 'modern']])('calls a tool with a bearer token, speaking %s', async (protocol, era) => {
    eras.length = 0;
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', host.url, '--bearer', 'reader', '--protocol', protocol], elsewhere);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ id: 'T-1001', status: 'open' });
    // The host may build a server of its own era to check a token's scopes; the call itself is in `era`.
    expect(eras).toContain(era);
    if (era === 'modern') expect(eras).not.toContain('legacy');
  });

  it('reads a resource and gets a prompt over HTTP in the 2026 era', async () => {
    const read = await runCli(['call', 'ticket', 'ticketId=T-1001', '-m', manifest, '--url', host.url, '--bearer', 'reader', '--protocol', '2026-07-28'], elsewhere);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout).contents[0]).toMatchObject({ uri: 'support://tickets/T-1001' });
  });

  it('is refused without the token, naming the HTTP failure, and exits 1', async () => {
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', host.url], elsewhere);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the server wants a token, pass --bearer TOKEN');
    expect(r.stderr).not.toContain('internal error');
    const wrong = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', host.url, '--header', 'Authorization: Bearer nope'], elsewhere);
    expect(wrong.code).toBe(1);
    const right = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', host.url, '--header', 'Authorization: Bearer reader'], elsewhere);
    expect(right.code, right.stderr).toBe(0);
  });

  it('refuses an unknown --protocol and --bearer without --url', async () => {
    const bad = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--protocol', '2024-01-01'], elsewhere);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--protocol 2024-01-01 is not one of 2025-11-25, 2026-07-28, auto');
    const stdio = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--bearer', 'x'], elsewhere);
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toContain('--bearer and --header are sent over HTTP: use them with --url');
  });

  it('parses --header words and lets --bearer set Authorization', () => {
    expect(requestHeaders(['X-Api-Key: abc', 'Accept-Language:fr'], 'tok')).toEqual({ 'x-api-key': 'abc', 'accept-language': 'fr', authorization: 'Bearer tok' });
    expect(() => requestHeaders(['no colon'], undefined)).toThrow(/is not "Name: value"/);
  });
});

describe('call arguments typed by the schema', () => {
  const named = [{ name: 'Isbn', typeName: 'Isbn', schema: { type: 'string' }, location: { file: 'm', line: 1, column: 1 } }];
  const input = {
    type: 'object',
    properties: {
      isbn: { type: 'string' },
      ref: { $ref: '#/schemas/Isbn' },
      limit: { type: 'integer' },
      exact: { type: 'boolean' },
      either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      filter: { type: 'object' },
    },
  };

  it('keeps a digit-only string a string, directly, through a named schema and when a string is one choice', () => {
    expect(toolArguments(['isbn=9780441013593', 'ref=0042', 'either=7'], input, named)).toEqual({ isbn: '9780441013593', ref: '0042', either: '7' });
  });

  it('converts numbers, booleans and JSON objects only where the schema asks for them', () => {
    expect(toolArguments(['limit=5', 'exact=true', 'filter={"a":1}', 'other=12'], input, named)).toEqual({ limit: 5, exact: true, filter: { a: 1 }, other: '12' });
    expect(toolArguments(['other:=12', 'list:=[1,2]'], input, named)).toEqual({ other: 12, list: [1, 2] });
  });

  it('refuses a value its schema cannot take, and a word that is not key=value', () => {
    expect(() => typedValue('limit', 'five', admittedTypes({ type: 'integer' }, []))).toThrow(/not a integer/);
    expect(() => toolArguments(['filter=nope'], input, named)).toThrow(/is not JSON/);
    expect(() => toolArguments(['limit'], input, named)).toThrow(/not key=value/);
  });
});
