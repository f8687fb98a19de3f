import { DIALECT_HINT, dialectOf } from '../dialect.js';
import { isObject, pointerToPath } from '../pointer.js';
import { schemaHint } from '../schema-hints.js';
import { entrySites, namedSites, type SchemaSite } from '../sites.js';
import { dotted } from '../source-map.js';
import { followNamed, type Check, type CheckContext, type Entry } from './context.js';

const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean'];

function checkSite(ctx: CheckContext, site: SchemaSite): void {
  if (!checkValid(ctx, site)) return;
  if (site.role === 'input' || site.role === 'output') checkObjectRoot(ctx, site);
  if (site.role === 'argument') checkScalar(ctx, site);
}

function checkValid(ctx: CheckContext, site: SchemaSite): boolean {
  const s = site.schema;
  if (isObject(s) && dialectOf(s.$schema) === undefined) {
    ctx.r.error('MG601', [...site.path, '$schema'], `unsupported JSON Schema dialect \`${String(s.$schema)}\``, DIALECT_HINT);
    return false;
  }
  const problem = ctx.registry?.check(s);
  if (!problem) return ctx.registry !== null;
  const inner = pointerToPath(problem.pointer, s);
  const known = schemaHint(s, inner);
  ctx.r.error('MG600', [...site.path, ...inner], `invalid JSON Schema at ${dotted(site.path)}: ${known?.message ?? problem.message}`,
    known?.hint ?? problem.hint ?? 'fix the schema; it must be valid JSON Schema 2020-12 (https://json-schema.org/draft/2020-12)');
  return false;
}

function checkObjectRoot(ctx: CheckContext, site: SchemaSite): void {
  const root = followNamed(site.schema, ctx.named);
  if (root === undefined) return; // a dangling or cyclic ref: reported elsewhere
  if (isObject(root) && root.type === 'object') return;
  const input = site.role === 'input';
  ctx.r.error(input ? 'MG602' : 'MG603', site.path,
    `tool ${input ? 'input' : 'output'} schema must have \`type: object\` at its root (MCP ${input ? 'arguments are a JSON object' : 'structuredContent is a JSON object'})`,
    input
      ? 'declare `type: object` with one property per argument'
      : 'wrap the value in a property, e.g. `{ type: object, properties: { result: <your schema> }, required: [result] }`',
    'key');
}

function checkScalar(ctx: CheckContext, site: SchemaSite): void {
  const root = followNamed(site.schema, ctx.named);
  if (root === undefined) return;
  const isScalar = (v: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof v);
  const ok =
    isObject(root) &&
    ((typeof root.type === 'string' && SCALAR_TYPES.includes(root.type)) ||
      (root.type === undefined && Array.isArray(root.enum) && root.enum.length > 0 && root.enum.every(isScalar)) ||
      (root.type === undefined && root.enum === undefined && 'const' in root && isScalar(root.const)));
  if (!ok) {
    ctx.r.error('MG504', site.path, 'prompt argument schema must be a scalar: `type` string, integer, number or boolean, or an `enum` of scalars (arguments travel as strings)',
      'use e.g. `{ type: string }`, `{ type: integer, minimum: 1 }` or `{ enum: [quick, full] }`; structured input belongs in a tool', 'key');
  }
}

function checkAliasCycles(ctx: CheckContext): void {
  for (const [name, schema] of ctx.named) {
    const seen = [name];
    let cur = schema;
    while (isObject(cur) && typeof cur.$ref === 'string' && cur.$ref.startsWith('#/schemas/')) {
      const next = cur.$ref.slice('#/schemas/'.length);
      if (!ctx.named.has(next)) break;
      if (next === name) {
        ctx.r.error('MG610', ['schemas', name, '$ref'], `named schemas ${[...seen, next].map((n) => `\`${n}\``).join(' → ')} only refer to each other; no schema is ever defined`,
          'give one of them a real definition (e.g. `type: object` with properties)');
        break;
      }
      if (seen.includes(next)) break;
      seen.push(next);
      cur = ctx.named.get(next);
    }
  }
}

/** Dialects, validity, object roots of tool schemas, scalar prompt arguments (an entry's schemas); alias-only cycles. */
export const checkSchemas: Check = {
  entry: (ctx: CheckContext, e: Entry) => {
    for (const site of entrySites(e.section, e.name, e.value)) checkSite(ctx, site);
  },
  whole: (ctx: CheckContext) => {
    checkAliasCycles(ctx);
    for (const site of namedSites(ctx.m as unknown as Record<string, unknown>)) checkSite(ctx, site);
  },
};
