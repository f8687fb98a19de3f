/**
 * The same document imported by openapi-mcp-generator 4.0.1 and by mcp-gen, compared on what the
 * import must keep: integer stays integer, a binary response becomes blob content, annotations are
 * published, upstream errors are isError, deprecated operations, x-mcp overrides and mega-operations
 * are honoured. Each assertion on openapi-mcp-generator records what it does on this document.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importFixturesDir } from '../helpers/import-golden.js';
import { repoRoot } from '../helpers/paths.js';
import { importAndGenerate, scratch } from './helpers.js';

const DOC = join(importFixturesDir, 'shop', 'openapi.yaml');
const s = scratch('compare');
type Tool = { name: string; inputSchema: { properties: Record<string, { type?: string }> } };
let theirs: Tool[];
let theirWarnings: string[] = [];
let theirSource: string;
let ours: { tools: Record<string, Record<string, any>>; resources: Record<string, unknown> };
let ourServer: string;

beforeAll(async () => {
  const { getToolsFromOpenApi } = await import('openapi-mcp-generator');
  // It warns on the console about the document's x-mcp objects (it takes only booleans): captured, and
  // asserted below as part of the comparison, so a passing run prints nothing.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    theirs = (await getToolsFromOpenApi(DOC, { dereference: true })) as unknown as Tool[];
    theirWarnings = warn.mock.calls.map((args) => args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  } finally {
    warn.mockRestore();
  }
  const bin = join(repoRoot, 'node_modules', 'openapi-mcp-generator', 'bin', 'openapi-mcp-generator.js');
  const r = spawnSync(process.execPath, [bin, '--input', DOC, '--output', join(s.dir, 'theirs'), '--force'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  theirSource = readFileSync(join(s.dir, 'theirs', 'src', 'index.ts'), 'utf8');
  const { manifest, outDir } = await importAndGenerate(DOC, join(s.dir));
  ours = parse(readFileSync(manifest, 'utf8'));
  ourServer = readFileSync(join(outDir, 'server.gen.ts'), 'utf8');
}, 120_000);
afterAll(() => s.cleanup());

const their = (name: string) => theirs.find((t) => t.name === name)!;

describe('import of the shop document: mcp-gen against openapi-mcp-generator', () => {
  it('integer stays integer (openapi-mcp-generator turns it into number)', () => {
    expect(their('getPet').inputSchema.properties['petId']!.type).toBe('number');
    expect(ours.tools['getPet']!['input'].properties.petId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(ours.tools['listPets']!['input'].properties.limit.type).toBe('integer');
  });

  it('a binary response becomes blob content (openapi-mcp-generator only ever answers text)', () => {
    expect(theirSource).toContain('responseText = String(response.data)');
    expect(theirSource.match(/type: "(\w+)"/g)?.every((t) => t === 'type: "text"')).toBe(true);
    expect(ours.tools['getPetPhoto']!['http'].response).toBe('binary');
    expect(ours.tools['getPetPhoto']!['output']).toBeUndefined();
  });

  it('publishes annotations derived from the method (openapi-mcp-generator publishes none)', () => {
    expect(theirSource).not.toContain('annotations');
    expect(ourServer).toMatch(/getPet[\s\S]*?readOnlyHint: true/);
    expect(ours.tools['deletePet']).toMatchObject({ sideEffect: 'irreversible', approval: 'required' });
    expect(ours.tools['replacePet']).toMatchObject({ sideEffect: 'write', idempotency: 'natural' });
  });

  it('upstream errors are isError results (openapi-mcp-generator returns them as plain content)', () => {
    expect(theirSource).not.toContain('isError');
    expect(theirSource).toContain('return { content: [{ type: "text", text: errorMessage }] };');
    // mcp-gen's side is proven by calls in e2e.test.ts; here: every imported tool goes through the upstream client.
    const handlers = readFileSync(join(s.dir, 'out', 'handlers', 'tools', 'getPet.ts'), 'utf8');
    expect(handlers).toContain('upstream.tools.getPet(input, ctx)');
  });

  it('honours deprecated, x-mcp names and flags mega-operations (openapi-mcp-generator imports them all as tools)', () => {
    expect(theirs.map((t) => t.name)).toEqual(expect.arrayContaining(['findPetsByTags', 'runQuery', 'GetStock']));
    expect(Object.keys(ours.tools)).not.toEqual(expect.arrayContaining(['findPetsByTags']));
    expect(Object.keys(ours.tools)).not.toContain('runQuery');
    expect(Object.keys(ours.tools)).toContain('stock.levels');
    // It rejects the x-mcp object that names stock.levels, and says so on the console.
    expect(theirWarnings).toEqual([expect.stringMatching(/^Invalid x-mcp value on operation .*stock\.levels/)]);
    // Both honour x-mcp: false.
    expect(theirs.map((t) => t.name)).not.toContain('reindex');
    expect(Object.keys(ours.tools)).not.toContain('reindex');
  });

  it('keeps a 3.0 exclusive bound valid in 2020-12 (openapi-mcp-generator passes the boolean form on)', () => {
    const body = (their('createPet').inputSchema.properties['requestBody'] as unknown as { properties: Record<string, unknown> }).properties;
    expect(body['weightKg']).toMatchObject({ exclusiveMinimum: true });
    expect((ours as any).schemas.NewPet.properties.weightKg).toEqual({ type: 'number', exclusiveMinimum: 0 });
  });
});
