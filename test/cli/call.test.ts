/**
 * `mcp-gen call`: one request against the generated server, from the project root and from an unrelated
 * folder, with command-line words typed by the manifest's schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admittedTypes, toolArguments, typedValue } from '../../generator/cli/call-args.js';
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

  it('exits 1 on a tool error result and names an unknown target with a suggestion', async () => {
    const bad = await runCli(['call', 'tickets.get', 'ticketId=nope', '-m', manifest], elsewhere);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).isError).toBe(true);
    const typo = await runCli(['call', 'ticket.get', '-m', manifest], elsewhere);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean tickets.get?');
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
