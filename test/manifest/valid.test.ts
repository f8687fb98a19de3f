import { buildContract } from '../../generator/contract/index.js';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ir } from '../../generator/ir/types.js';
import { loadManifest, type LoadResult } from '../../generator/pipeline.js';

const VALID = join('test', 'fixtures', 'valid');

/** Stewardship hints (MG728/MG729) name every primitive without `outcome`/`owner`; these fixtures are about the format. */
const STEWARDSHIP = new Set(['MG728', 'MG729']);

async function load(name: string): Promise<LoadResult & { ir: Ir }> {
  const result = await loadManifest(join(VALID, name, 'mcp.manifest.yaml'));
  expect(result.diagnostics.filter((d) => !STEWARDSHIP.has(d.code))).toEqual([]);
  expect(result.ir).toBeDefined();
  return result as LoadResult & { ir: Ir };
}

describe('the full fixture (every field of format 1)', () => {
  let r: LoadResult & { ir: Ir };
  beforeAll(async () => {
    r = await load('full');
  });

  it('keeps server fields and scopes in manifest order', () => {
    expect(r.ir.manifestName).toBe('mcp.manifest.yaml');
    expect(r.ir.server).toMatchObject({ name: 'support-desk', version: '1.4.0', title: 'Support Desk' });
    expect(r.ir.server.instructions).toBe('Start refund work from the draft_refund_review prompt.\n');
    expect(r.ir.server.scopes.map((s) => s.name)).toEqual(['tickets:read', 'refunds:draft', 'refunds:submit']);
  });

  it('derives names, ids and type bases', () => {
    expect(r.ir.tools.map((t) => [t.name, t.id, t.typeBase])).toEqual([
      ['tickets.get', 'ticketsGet', 'TicketsGet'],
      ['refunds.create_draft', 'refundsCreateDraft', 'RefundsCreateDraft'],
      ['refunds.submit', 'refundsSubmit', 'RefundsSubmit'],
      ['ping', 'ping', 'Ping'],
    ]);
    expect(r.ir.resources.map((x) => x.id)).toEqual(['refundPolicy', 'logo', 'ticket', 'ticketNotes']);
    expect(r.ir.prompts.map((x) => x.id)).toEqual(['draftRefundReview']);
    expect(r.ir.schemas.map((s) => [s.name, s.typeName])).toEqual([
      ['Ticket', 'Ticket'],
      ['Invoice', 'Invoice'],
      ['Tree', 'Tree'],
    ]);
  });

  it('derives tool annotations from sideEffect, idempotency and openWorld', () => {
    const ann = Object.fromEntries(buildContract(r.ir).tools.map((t) => [t.name, t.listing.annotations]));
    expect(ann['tickets.get']).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(ann['refunds.create_draft']).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(ann['refunds.submit']).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    expect(ann['ping']).toEqual({ readOnlyHint: false, destructiveHint: false });
  });

  it('applies tool defaults and keeps examples, timeout, renamedFrom and location', () => {
    const [get, , submit, ping] = r.ir.tools;
    expect(get).toMatchObject({ timeoutMs: 10000, renamedFrom: 'ticket.get', idempotency: 'none', approval: 'none' });
    expect(get!.examples).toEqual([{ input: { ticketId: 'T-1001' }, output: { id: 'T-1001', status: 'open' } }]);
    expect(get!.output).toEqual({ $ref: '#/schemas/Ticket' });
    expect(get!.location).toEqual({ file: join(VALID, 'full', 'mcp.manifest.yaml'), line: 30, column: 3 });
    expect(submit).toMatchObject({ approval: 'required', idempotency: 'required', sideEffect: 'irreversible' });
    expect(ping!.input).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(ping!.examples).toEqual([]);
    expect('output' in ping!).toBe(false);
  });

  it('inlines the external $ref chain, keeping sibling keywords and the local references of a file at a schema root', () => {
    const invoice = r.ir.schemas.find((s) => s.name === 'Invoice')!.schema as Record<string, any>;
    const money = { type: 'object', properties: { currency: { type: 'string', pattern: '^[A-Z]{3}$' }, cents: { type: 'integer', minimum: 0 } }, required: ['currency', 'cents'] };
    expect(invoice.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(invoice.properties.total).toEqual(money);
    // The file is the named schema's root: its own `$defs` and local reference are published as written.
    expect(invoice.properties.lines.items).toEqual({ $ref: '#/$defs/Line' });
    expect(invoice.$defs.Line.properties.amount).toEqual(money);
    const input = r.ir.tools[1]!.input as Record<string, any>;
    expect(input.properties.invoice.description).toBe('The invoice to refund');
    expect(input.properties.invoice.$schema).toBeUndefined();
    expect(input.properties.amount).toEqual(money);
    // Referenced below a root, the same file is inlined whole: its local reference cannot resolve there.
    expect(input.properties.invoice.properties.lines.items.properties.amount).toEqual(money);
    expect(input.properties.invoice.$defs).toBeUndefined();
    expect(JSON.stringify(r.ir)).not.toContain('.schema.json');
  });

  it('keeps recursive named-schema refs as they are', () => {
    const tree = r.ir.schemas.find((s) => s.name === 'Tree')!.schema as Record<string, any>;
    expect(tree.properties.children.items).toEqual({ $ref: '#/schemas/Tree' });
  });

  it('reads text and binary sources', () => {
    const [policy, logo] = r.ir.resources;
    expect(policy!.source).toEqual({ path: './content/refund-policy.md', encoding: 'text', content: readFileSync(join(VALID, 'full', 'content', 'refund-policy.md'), 'utf8') });
    expect(policy).toMatchObject({ textual: true, revision: '2026-09', subscribe: true, list: false, renamedFrom: 'policy' });
    expect(policy!.annotations).toEqual({ audience: ['assistant', 'user'], priority: 0.9, lastModified: '2026-09-01T00:00:00Z' });
    expect(logo!.textual).toBe(false);
    expect(logo!.source).toEqual({ path: 'content/logo.png', encoding: 'base64', content: readFileSync(join(VALID, 'full', 'content', 'logo.png')).toString('base64') });
  });

  it('lists template variables in order of appearance and params in that order', () => {
    const ticket = r.ir.resources[2]!;
    expect(ticket).toMatchObject({ uriTemplate: 'support://tickets/{ticketId}', variables: ['ticketId'], complete: ['ticketId'], list: true, textual: true });
    expect(ticket.schema).toEqual({ $ref: '#/schemas/Ticket' });
    const notes = r.ir.resources[3]!;
    expect(notes.variables).toEqual(['ticketId', 'page', 'sort']);
    expect(notes.params.map((p) => p.name)).toEqual(['ticketId', 'page', 'sort']);
    expect(notes.uri).toBeUndefined();
  });

  it('applies prompt argument defaults and keeps messages', () => {
    const p = r.ir.prompts[0]!;
    expect(p.arguments).toEqual([
      { name: 'ticketId', description: 'Ticket to review', required: true, schema: { type: 'string', pattern: '^T-[0-9]{4,}$' }, complete: true },
      { name: 'depth', description: 'Review depth', required: false, schema: { enum: ['quick', 'full'] }, complete: false },
      { name: 'note', required: false, schema: { type: 'string' }, complete: false },
    ]);
    expect(p.messages).toEqual([
      { role: 'user', text: 'Review ticket {{ticketId}} at {{ depth }} depth. {{note}}' },
      { role: 'user', resource: 'refund-policy' },
      { role: 'assistant', resource: 'ticket' },
    ]);
    expect(p.renamedFrom).toBe('refund_review');
  });

  it('reports every file it read, absolute: the manifest, then the others in order', () => {
    const dir = resolve(VALID, 'full');
    expect(r.files).toEqual([
      join(dir, 'mcp.manifest.yaml'),
      join(dir, 'content', 'logo.png'),
      join(dir, 'content', 'refund-policy.md'),
      join(dir, 'schemas', 'common.yaml'),
      join(dir, 'schemas', 'invoice.schema.json'),
    ]);
  });

  it('is deterministic: loading twice gives the same IR', async () => {
    const again = await load('full');
    expect(JSON.stringify(again.ir)).toBe(JSON.stringify(r.ir));
  });
});

describe('defaults and edge names', () => {
  it('keeps manifest order for integer-like names and escapes reserved words', async () => {
    const { ir } = await load('minimal');
    expect(ir.tools.map((t) => [t.name, t.id])).toEqual([
      ['123go', '_123go'],
      ['delete', 'delete_'],
    ]);
    expect(ir.schemas).toEqual([]);
    expect(ir.resources).toEqual([]);
    expect(ir.server.scopes).toEqual([]);
    expect(ir.prompts[0]!.arguments).toEqual([{ name: 'name', required: false, schema: { type: 'string' }, complete: false }]);
    expect(ir.prompts[0]!.messages).toBeUndefined();
  });

  it('accepts draft-07 and 2019-09 schemas, validated in their own dialect', async () => {
    const { ir } = await load('dialects');
    expect(ir.server.version).toBe('2.0.0-beta.1+build.5');
    const seven = ir.schemas[0]!.schema as Record<string, any>;
    expect(seven.properties.p).toEqual({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] });
    expect((ir.tools[0]!.input as Record<string, any>).properties.kind).toEqual({ $ref: '#/schemas/Nineteen', description: 'what to list' });
  });

  it('loads the example manifests shipped in manifests/', async () => {
    for (const name of ['support-desk', 'clinic', 'code-host']) {
      const result = await loadManifest(join('manifests', name, 'mcp.manifest.yaml'));
      expect(result.diagnostics.filter((d) => d.severity === 'error'), name).toEqual([]);
    }
  });
});
