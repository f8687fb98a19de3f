/**
 * Real-world documents from @readme/oas-examples (OpenAPI 3.0, 3.1, Swagger 2.0): each is imported,
 * generated and type-checked, and the decisions the issue names hold on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { typecheck } from '../regen/typecheck.js';
import { example, importAndGenerate, scratch } from './helpers.js';

// Also: schemas with titles unlike their names (discriminators, polymorphism), a read described as "sends"
// (http-status-codes: a waived MG706), names lint calls generic (3.1 readme: a waived MG701).
const DOCS = [
  '3.0/json/petstore.json', '3.0/json/petstore-expanded.json', '3.0/json/uspto.json', '3.0/json/security.json', '3.0/json/circular.json',
  '3.0/json/schema-types.json', '3.0/json/discriminators.json', '3.0/json/polymorphism.json', '3.0/json/http-status-codes.json',
  '3.1/json/train-travel.json', '3.1/json/readme.json', '2.0/json/petstore.json', '2.0/json/petstore-expanded.json',
];
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

describe.each(DOCS)('%s', (doc) => {
  it('imports, generates and type-checks', { timeout: 120_000 }, async () => {
    const s = scratch(doc.replace(/\W+/g, '-'));
    cleanups.push(s.cleanup);
    const { outDir } = await importAndGenerate(example(doc), s.dir);
    expect(typecheck(outDir)).toEqual([]);
  });
});

describe('classification and fidelity on the 3.0 petstore', () => {
  it('follows the documented defaults', { timeout: 120_000 }, async () => {
    const s = scratch('petstore-decisions');
    cleanups.push(s.cleanup);
    const { imported, manifest } = await importAndGenerate(example('3.0/json/petstore.json'), s.dir);
    const m = parse(readFileSync(manifest, 'utf8'));
    // PUT: a naturally idempotent write; POST: a write with a key; DELETE: irreversible with approval.
    expect(m.tools.updatePet).toMatchObject({ sideEffect: 'write', idempotency: 'natural' });
    expect(m.tools.addPet).toMatchObject({ sideEffect: 'write', idempotency: 'required' });
    expect(m.tools.deletePet).toMatchObject({ sideEffect: 'irreversible', approval: 'required' });
    // GET by path parameter: a resource template and a read tool; GET with query filters: a read tool only.
    expect(m.resources.getPetById.uriTemplate).toBe('swagger-petstore://pet/{petId}');
    expect(m.tools.getPetById).toMatchObject({ sideEffect: 'read' });
    expect(m.resources.findPetsByStatus).toBeUndefined();
    expect(m.tools.findPetsByStatus.http.query).toEqual({ status: 'status' });
    // deprecated is honoured; integer stays integer with its format; OAuth scopes by name.
    expect(m.tools.findPetsByTags).toBeUndefined();
    expect(imported.draft.operations.find((o) => o.path === '/pet/findByTags')?.decision.kind).toBe('excluded');
    expect(m.schemas.Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(m.tools.getPetById.input.properties.petId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Object.keys(m.server.scopes)).toEqual(expect.arrayContaining(['write:pets', 'read:pets']));
    expect(m.tools.addPet.scopes).toEqual(['write:pets', 'read:pets']);
    expect(m.upstream.credentials.api_key).toMatchObject({ in: 'header', name: 'api_key' });
    // deletePet declares the api_key header as a parameter too: it stays a credential, never an argument.
    expect(Object.keys(m.tools.deletePet.input.properties)).toEqual(['petId']);
    // The array response of findPetsByStatus is wrapped, as MCP output schemas are objects.
    expect(m.tools.findPetsByStatus.output).toMatchObject({ type: 'object', required: ['items'], properties: { items: { type: 'array' } } });
    expect(m.tools.findPetsByStatus.http.wrap).toBe('items');
    // Every decision is commented with its reason.
    const text = readFileSync(manifest, 'utf8');
    expect(text).toMatch(/# from PUT \/pet \(operationId updatePet\)\n\s+# PUT sets a state: write, idempotent by nature/);
    expect(text).toMatch(/GET \/pet\/findByTags \(findPetsByTags\): excluded: the operation is deprecated/);
  });

  it('waives a design-rule error caused by the API\'s own wording, with a reason, so the draft generates', { timeout: 120_000 }, async () => {
    const s = scratch('waivers');
    cleanups.push(s.cleanup);
    const { imported, manifest } = await importAndGenerate(example('3.0/json/http-status-codes.json'), s.dir);
    const m = parse(readFileSync(manifest, 'utf8'));
    expect(m.tools.get_status_404.lint.disable.MG706).toMatch(/^imported as the API describes it; review: read tool `get_status_404` says/);
    expect([...imported.draft.waivers.keys()]).toContain('tools.get_status_404');
  });

  it('converts a Swagger 2.0 document (body parameter, securityDefinitions)', { timeout: 120_000 }, async () => {
    const s = scratch('swagger2');
    cleanups.push(s.cleanup);
    const { imported, manifest } = await importAndGenerate(example('2.0/json/petstore.json'), s.dir);
    expect(imported.sourceVersion).toBe('2.0');
    const m = parse(readFileSync(manifest, 'utf8'));
    expect(Object.keys(m.tools).length).toBeGreaterThan(0);
    expect(JSON.stringify(m)).not.toContain('#/definitions/');
  });
});

describe('generated layout', () => {
  it('writes upstream.gen.ts and handlers that call it', { timeout: 120_000 }, async () => {
    const s = scratch('layout');
    cleanups.push(s.cleanup);
    const { outDir } = await importAndGenerate(example('3.0/json/petstore.json'), s.dir);
    expect(readFileSync(join(outDir, 'handlers/tools/getPetById.ts'), 'utf8')).toContain('return upstream.tools.getPetById(input, ctx);');
    expect(readFileSync(join(outDir, 'handlers/resources/getPetById.ts'), 'utf8')).toContain('return upstream.resources.getPetById(params, ctx);');
    expect(readFileSync(join(outDir, 'upstream.gen.ts'), 'utf8').split('\n')[0]).toMatch(/^\/\/ Code generated by mcp-gen/);
  });
});
