/**
 * Synthetic inputs for the benchmarks, all derived from one model so they
 * describe the same server:
 *   - an mcp-gen manifest of N primitives (60 % tools, 25 % resources, 15 % prompts;
 *     tools of every side effect, fixed and templated resources, prompts with
 *     fixed messages and with handlers, shared named schemas) that lints clean,
 *     and a variant in which every tool has schemas of its own;
 *   - the catalog the hand-written server registers (same names, schemas, texts);
 *   - an OpenAPI 3.0 document with one operation per primitive (for openapi-mcp-generator).
 * Deterministic: the same N gives the same bytes.
 */

/** Shared named schemas, referenced from most primitives. */
const SCHEMAS = {
  ItemId: { type: 'string', pattern: '^I-[0-9]{1,12}$', description: 'An item id, like I-1001.' },
  Money: {
    type: 'object',
    properties: { amountMinor: { type: 'integer', minimum: 0, maximum: 1000000000 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
    required: ['amountMinor', 'currency'],
    additionalProperties: false,
  },
  Item: {
    type: 'object',
    description: 'One catalog item.',
    properties: {
      id: { $ref: '#/schemas/ItemId' },
      name: { type: 'string', maxLength: 100 },
      status: { enum: ['active', 'archived'] },
      price: { $ref: '#/schemas/Money' },
      tags: { type: 'array', items: { type: 'string', maxLength: 30 }, maxItems: 10 },
    },
    required: ['id', 'name', 'status'],
    additionalProperties: false,
  },
  ItemPage: {
    type: 'object',
    properties: { items: { type: 'array', items: { $ref: '#/schemas/Item' }, maxItems: 50 }, total: { type: 'integer', minimum: 0 } },
    required: ['items', 'total'],
    additionalProperties: false,
  },
};

/** The sample item every handler returns (valid against Item). */
export const SAMPLE_ITEM = { id: 'I-1', name: 'Sample', status: 'active', price: { amountMinor: 1500, currency: 'EUR' } };

const idInput = (extra = {}) => ({
  type: 'object',
  properties: { itemId: { $ref: '#/schemas/ItemId' }, ...extra },
  required: ['itemId'],
  additionalProperties: false,
});

/** Tool i of the model: a rotating mix of read, search, write and irreversible tools. */
function tool(i) {
  const area = `area${Math.floor(i / 50)}`;
  switch (i % 6) {
    case 0:
    case 1:
      return {
        name: `${area}.get_item_${i}`, title: `Get item ${i}`, sideEffect: 'read',
        description: `Look up one item of collection ${i} by id. Read only. Not for searching (use the search tools).`,
        scopes: ['items:read'], input: idInput(), output: { $ref: '#/schemas/Item' },
        examples: [{ input: { itemId: 'I-1' } }],
      };
    case 2:
    case 3:
      return {
        name: `${area}.search_items_${i}`, title: `Search items ${i}`, sideEffect: 'read',
        description: `Find items of collection ${i} by status and an optional name phrase. Read only. Not for fetching one known item.`,
        scopes: ['items:read'],
        input: {
          type: 'object',
          properties: {
            status: { enum: ['active', 'archived'] },
            nameContains: { type: 'string', maxLength: 100 },
            limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          },
          required: ['status'],
          additionalProperties: false,
        },
        output: { $ref: '#/schemas/ItemPage' },
      };
    case 4:
      return {
        name: `${area}.update_price_${i}`, title: `Update price ${i}`, sideEffect: 'write', idempotency: 'required',
        description: `Set the price of one item of collection ${i}. Write operation; the previous price can be restored.`,
        scopes: ['items:write'], input: idInput({ price: { $ref: '#/schemas/Money' } }), output: { $ref: '#/schemas/Item' },
      };
    default:
      return {
        name: `${area}.purge_item_${i}`, title: `Purge item ${i}`, sideEffect: 'irreversible', idempotency: 'required', approval: 'required',
        description: `Permanently delete one archived item of collection ${i}. Irreversible - the item cannot be restored.`,
        scopes: ['items:admin'],
        input: idInput({ reason: { type: 'string', maxLength: 200 } }),
        output: { type: 'object', properties: { id: { $ref: '#/schemas/ItemId' }, purged: { const: true } }, required: ['id', 'purged'], additionalProperties: false },
      };
  }
}

/** Resource i: fixed documents and templated item views, alternating. */
function resource(i) {
  if (i % 2 === 0) {
    return { name: `guide-${i}`, uri: `synth://guides/g${i}/current`, title: `Guide ${i}`, description: `Usage guide number ${i} for the item catalog.`, mimeType: 'text/markdown' };
  }
  return {
    name: `item-view-${i}`, uriTemplate: `synth://collections/c${i}/items/{itemId}`, title: `Item view ${i}`,
    description: `One item of collection ${i} as JSON.`, mimeType: 'application/json',
    params: { itemId: { $ref: '#/schemas/ItemId' } }, schema: { $ref: '#/schemas/Item' }, scopes: ['items:read'],
    ...(i % 4 === 1 ? { complete: ['itemId'], list: true } : {}),
  };
}

/** Prompt i: fixed messages with an argument, or built by a handler. */
function prompt(i) {
  const args = { itemId: { description: 'Item to review', required: true, schema: { type: 'string', pattern: '^I-[0-9]{1,12}$' } } };
  if (i % 2 === 0) {
    return { name: `review_item_${i}`, title: `Review item ${i}`, description: `Review one item of collection ${i} before publishing.`, arguments: args,
      messages: [{ role: 'user', text: `Review item {{itemId}} of collection ${i}. Point out missing fields.` }] };
  }
  return { name: `summarize_item_${i}`, title: `Summarize item ${i}`, description: `Summarize one item of collection ${i} for a handover note.`,
    arguments: { ...args, depth: { description: 'Summary depth', required: false, schema: { enum: ['short', 'full'] } } } };
}

/** The counts of each kind for N primitives. */
export function counts(n) {
  const tools = Math.max(1, Math.round(n * 0.6));
  const resources = Math.round(n * 0.25);
  return { tools, resources, prompts: Math.max(0, n - tools - resources) };
}

/**
 * Tool i with schemas of its own: its input gains an object of three fields named after it, and its
 * output wraps the usual one in an object with a field named after it, so no two tools share a shape
 * (every type is compiled on its own, as in a manifest whose tools all differ).
 */
function distinctTool(i) {
  const t = tool(i);
  const own = {
    type: 'object',
    properties: {
      [`label${i}`]: { type: 'string', maxLength: 40 + (i % 7) },
      [`weight${i}`]: { type: 'number', minimum: 0, maximum: 1000 + i },
      [`flags${i}`]: { type: 'array', items: { enum: [`f${i}a`, `f${i}b`, `f${i}c`] }, maxItems: 3 },
    },
    required: [`label${i}`],
    additionalProperties: false,
  };
  const input = { ...t.input, properties: { ...t.input.properties, [`options${i}`]: own } };
  const output = { type: 'object', properties: { [`result${i}`]: t.output, [`trace${i}`]: { type: 'string', maxLength: 64 } }, required: [`result${i}`], additionalProperties: false };
  const { examples: _, ...rest } = t;
  return { ...rest, input, output };
}

/** The model: every primitive of an N-primitive server (with `distinct`, no two tools share a schema). */
export function model(n, distinct = false) {
  const c = counts(n);
  return {
    tools: Array.from({ length: c.tools }, (_, i) => (distinct ? distinctTool(i) : tool(i))),
    resources: Array.from({ length: c.resources }, (_, i) => resource(i)),
    prompts: Array.from({ length: c.prompts }, (_, i) => prompt(i)),
  };
}

const y = (v) => JSON.stringify(v); // JSON is YAML: flow style for schemas keeps the file compact and exact

/** The mcp-gen manifest (YAML) of an N-primitive server. */
export function manifestYaml(n, distinct = false) {
  const m = model(n, distinct);
  const out = [
    'mcpgen: 1',
    'server:',
    `  name: synth-${distinct ? 'distinct-' : ''}${n}`,
    '  version: 1.0.0',
    `  title: Synthetic catalog (${n} primitives)`,
    '  description: A synthetic item catalog for benchmarks.',
    '  scopes:',
    '    items:read: Read items',
    '    items:write: Change items',
    '    items:admin: Delete items',
    'lint:',
    '  budget: { contextBudgetTokens: 1000000 }',
    'schemas:',
    ...Object.entries(SCHEMAS).map(([k, v]) => `  ${k}: ${y(v)}`),
    'tools:',
  ];
  for (const t of m.tools) {
    out.push(`  ${t.name}:`, `    title: ${t.title}`, `    description: ${y(t.description)}`, `    sideEffect: ${t.sideEffect}`);
    if (t.idempotency) out.push(`    idempotency: ${t.idempotency}`);
    if (t.approval) out.push(`    approval: ${t.approval}`);
    out.push(`    scopes: ${y(t.scopes)}`, `    input: ${y(t.input)}`, `    output: ${y(t.output)}`);
    if (t.examples) out.push(`    examples: ${y(t.examples)}`);
  }
  if (m.resources.length) out.push('resources:');
  for (const r of m.resources) {
    out.push(`  ${r.name}:`);
    for (const [k, v] of Object.entries(r)) if (k !== 'name') out.push(`    ${k}: ${y(v)}`);
  }
  if (m.prompts.length) out.push('prompts:');
  for (const p of m.prompts) {
    out.push(`  ${p.name}:`);
    for (const [k, v] of Object.entries(p)) if (k !== 'name') out.push(`    ${k}: ${y(v)}`);
  }
  return `${out.join('\n')}\n`;
}

/** Replaces `#/schemas/X` refs by the schema itself (the hand-written server hoists self-contained schemas). */
export function inline(schema) {
  if (Array.isArray(schema)) return schema.map(inline);
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/schemas/')) return inline(SCHEMAS[schema.$ref.slice(10)]);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v)]));
}

/** The catalog the hand-written server reads: the same primitives with self-contained schemas. */
export function catalogJson(n) {
  const m = model(n);
  return JSON.stringify({
    tools: m.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, sideEffect: t.sideEffect, input: inline(t.input), output: inline(t.output) })),
    resources: m.resources.map((r) => ({ ...r, params: r.params ? inline(r.params) : undefined, schema: r.schema ? inline(r.schema) : undefined })),
    prompts: m.prompts.map((p) => ({ ...p, arguments: Object.fromEntries(Object.entries(p.arguments).map(([k, a]) => [k, { ...a, schema: inline(a.schema) }])) })),
  });
}

const toOpenApi = (s) => JSON.parse(JSON.stringify(s).replaceAll('#/schemas/', '#/components/schemas/'));

/** An OpenAPI 3.0 document with one operation per primitive of the N-primitive model (same inputs and outputs). */
export function openApiJson(n) {
  const m = model(n);
  const paths = {};
  const op = (path, method, o) => ((paths[path] ??= {})[method] = o);
  const ok = (schema) => ({ '200': { description: 'OK', content: { 'application/json': { schema: toOpenApi(schema ?? { type: 'string' }) } } } });
  for (const t of m.tools) {
    const id = t.name.replace(/[^A-Za-z0-9]/g, '_');
    const method = t.sideEffect === 'read' ? 'post' : t.sideEffect === 'write' ? 'put' : 'delete';
    op(`/tools/${id}`, method, {
      operationId: id, summary: t.title, description: t.description,
      requestBody: { required: true, content: { 'application/json': { schema: toOpenApi(t.input) } } },
      responses: ok(t.output),
    });
  }
  for (const r of m.resources) {
    const id = r.name.replace(/[^A-Za-z0-9]/g, '_');
    const params = r.params ? Object.entries(r.params).map(([name, schema]) => ({ name, in: 'path', required: true, schema: toOpenApi(schema) })) : [];
    op(`/resources/${id}${r.params ? '/{itemId}' : ''}`, 'get', { operationId: id, summary: r.title, description: r.description, parameters: params, responses: ok(r.schema) });
  }
  for (const p of m.prompts) {
    const params = Object.entries(p.arguments).map(([name, a]) => ({ name, in: 'query', required: a.required, description: a.description, schema: toOpenApi(a.schema) }));
    op(`/prompts/${p.name}`, 'get', { operationId: p.name, summary: p.title, description: p.description, parameters: params, responses: ok(undefined) });
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: `Synthetic catalog (${n} operations)`, version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:9/api' }],
    paths,
    components: { schemas: toOpenApi(SCHEMAS) },
  }, null, 2);
}
