/**
 * Emits `CONTRACTS.md`: one contract card per primitive with every field of the seed's card — outcome,
 * controller, data owner, freshness, input/output shape, side effect, permission check, audit event,
 * failure semantics, context cost and rollback — plus idempotency, approval, timeout and, for resources,
 * classification, audience and size budget.
 */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { IrPrimitiveBase, JsonSchema } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render } from './context.js';
import { layout } from './layout.js';
import { mdCode, mdHeader, mdText } from './text.js';
import { auditEvent, contextCost, dependents, hintText, namedSchemas, outcomeOf, ownerOf, permissionCheck, resourceFreshness, rollback, tokensOf, MentionIndex, wordRuns } from './card-fields.js';

/** A one-line shape of a published (self-contained) schema. */
function shape(ctx: EmitContext, s: JsonSchema): string {
  if (typeof s === 'boolean') return s ? 'anything' : 'nothing';
  const rootRef = typeof s['$ref'] === 'string' ? /^#\/\$defs\/(.+)$/.exec(s['$ref']) : null;
  if (rootRef) return `${mdCode(ctx.graph.typeName(rootRef[1]!))} (recursive; see \`types.gen.ts\`)`;
  const props = (s['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s['required'] ?? []) as string[]);
  const names = Object.keys(props);
  if (names.length === 0) return s['type'] === 'object' ? 'an object with no declared properties' : mdCode(JSON.stringify(s));
  return names
    .map((n) => {
      const p = props[n]!;
      const type = typeof p === 'object' ? propertyType(ctx, p) : 'any';
      return `${mdCode(n)}${required.has(n) ? '' : '?'}: ${type}`;
    })
    .join('; ');
}

/** A one-phrase type for a property schema in a card. */
function propertyType(ctx: EmitContext, p: Exclude<JsonSchema, boolean>): string {
  if ('const' in p) return `exactly ${mdCode(JSON.stringify(p['const']))}`;
  if (Array.isArray(p['enum'])) return `one of ${p['enum'].map((v) => mdCode(JSON.stringify(v))).join(', ')}`;
  const ref = typeof p['$ref'] === 'string' ? /^#\/\$defs\/(.+)$/.exec(p['$ref']) : null;
  if (ref) return mdCode(ctx.graph.typeName(ref[1]!));
  if (p['type'] === 'array' && typeof p['items'] === 'object' && p['items'] !== null) return `array of ${propertyType(ctx, p['items'] as Exclude<JsonSchema, boolean>)}`;
  return mdText(String(p['type'] ?? 'any'));
}

/** One row of a card's table; a row without a value is left out. */
interface Row {
  readonly label: string;
  readonly value: string;
}

function row(label: string, value: string | undefined): Row | undefined {
  return value === undefined ? undefined : { label, value: value.replace(/\|/g, '\\|') };
}

/** The rules waived for a primitive, with the author's reasons. */
function waivers(p: IrPrimitiveBase): string | undefined {
  const w = p.lintWaivers;
  if (!w || w.length === 0) return undefined;
  return w.map((x) => `${mdCode(x.code)} waived: ${mdText(x.reason)}`).join('; ');
}

/** One card as the template lays it out: a heading, the description, a table of rows. */
interface CardView {
  readonly title: string;
  readonly description: string | undefined;
  readonly rows: readonly Row[];
}

function card(title: string, rows: (Row | undefined)[], description?: string): CardView {
  return { title, description: description ? mdText(description) : undefined, rows: rows.filter((r): r is Row => r !== undefined) };
}

function toolCard(ctx: EmitContext, c: ToolContract, index: MentionIndex): CardView {
  const t = c.ir;
  const listHint = ctx.contract.server.cacheHints['tools/list'];
  return card(`Tool ${mdCode(t.name)}${t.title ? ` — ${mdText(t.title)}` : ''}`, [
    row('Outcome', outcomeOf(t)),
    row('Controller', 'model (the model may propose a call; the server authorizes every call)'),
    row('Data owner', ownerOf(t)),
    row('Freshness', `live: every call runs the handler (call results carry no cache hint); \`tools/list\`: ${hintText(listHint)}`),
    row('Input', shape(ctx, c.input)),
    row('Output', c.output !== undefined ? `${shape(ctx, c.output)} (structuredContent, validated before sending)` : 'content blocks (no output schema)'),
    row('Side effect', t.sideEffect),
    row('Permission check', permissionCheck(t)),
    row('Audit event', auditEvent(t)),
    row('Idempotency', t.idempotency === 'required' ? 'required: calls carry an idempotency key; a repeat returns the first result' : t.idempotency === 'natural' ? 'by nature: repeating the call leaves the same state (no key)' : t.sideEffect === 'read' ? 'by nature (read only)' : 'none'),
    row('Approval', t.approval === 'required' ? 'required before the handler runs' : 'none'),
    row('Timeout', t.timeoutMs !== undefined ? `${t.timeoutMs} ms` : 'the server default (`limits.timeoutMs`, 60 s unless configured)'),
    row('Failures', 'invalid input or a domain failure → result with `isError: true`; unknown tool → protocol error -32602'),
    row('Context cost', contextCost(t, namedSchemas(ctx.ir))),
    row('Rollback', rollback(ctx.ir, t, index)),
    row('Examples', t.examples.length ? String(t.examples.length) : undefined),
    row('Design rules', waivers(t)),
  ], t.description);
}

function resourceCard(ctx: EmitContext, c: ResourceContract, index: MentionIndex): CardView {
  const r = c.ir;
  return card(`Resource ${mdCode(r.name)}${r.title ? ` — ${mdText(r.title)}` : ''}`, [
    row('Outcome', outcomeOf(r)),
    row('Controller', 'application (the host decides what to read; reads never change state)'),
    row('Data owner', ownerOf(r)),
    row('Classification', r.classification ?? 'not declared'),
    row('Audience', r.audience !== undefined ? `${r.audience.map(mdCode).join(', ')} (enforced: only callers whose identity lists one of them read or see it; also passed to \`authorize\`)` : 'not declared'),
    row('Freshness', resourceFreshness(c)),
    row(r.uri !== undefined ? 'URI' : 'URI template', mdCode(r.uri ?? r.uriTemplate!)),
    row('MIME type', `${mdCode(r.mimeType)} (${r.textual ? 'text' : 'base64 blob'})`),
    row('Variables', r.params.length ? Object.entries(c.params).map(([name, schema]) => `${mdCode(name)}: ${typeof schema === 'object' ? propertyType(ctx, schema) : 'any'}`).join('; ') : undefined),
    row('Content schema', c.content.schema !== undefined ? shape(ctx, c.content.schema) : undefined),
    row('Size budget', r.maxBytes !== undefined ? `${r.maxBytes} bytes per read (${r.textual ? 'UTF-8 text' : 'decoded bytes'}); more is never sent` : 'none declared'),
    row('Source', r.source !== undefined ? `${mdCode(r.source.path)} (embedded at generation time)` : 'handler'),
    row('Side effect', 'none'),
    row('Permission check', permissionCheck(r)),
    row('Audit event', auditEvent(r)),
    row('Listing', r.list ? 'instances listed by a handler' : undefined),
    row('Subscriptions', r.subscribe ? 'supported' : undefined),
    row('Failures', `unknown URI or invalid variables → protocol error -32602${r.audience !== undefined ? '; a caller outside the audience → the same -32602 as an unknown URI' : ''}${r.maxBytes !== undefined ? '; content over the size budget → -32603, reported to the author (`onError`)' : ''}`),
    row('Context cost', contextCost(r, namedSchemas(ctx.ir))),
    row('Rollback', rollback(ctx.ir, r, index)),
    row('Design rules', waivers(r)),
  ], r.description);
}

function promptCard(ctx: EmitContext, c: PromptContract, index: MentionIndex): CardView {
  const p = c.ir;
  const listHint = hintText(ctx.contract.server.cacheHints['prompts/list']);
  return card(`Prompt ${mdCode(p.name)}${p.title ? ` — ${mdText(p.title)}` : ''}`, [
    row('Outcome', outcomeOf(p)),
    row('Controller', 'user (a person deliberately picks it; it grants no permission)'),
    row('Data owner', ownerOf(p)),
    row('Freshness', `${p.messages !== undefined ? 'static template of this build (its hash is in `mcp.lock.json`)' : 'built by a handler on every get'}; \`prompts/list\`: ${listHint}`),
    row('Arguments', c.arguments.length ? c.arguments.map((a) => `${mdCode(a.name)}${a.required ? '' : '?'}${a.description ? ` (${mdText(a.description)})` : ''}`).join('; ') : 'none'),
    row('Messages', p.messages !== undefined ? `${p.messages.length} static (arguments inserted as literal data)` : 'built by a handler'),
    row('Side effect', 'none'),
    row('Permission check', permissionCheck(p)),
    row('Audit event', auditEvent(p)),
    row('Failures', 'missing or invalid argument, unknown prompt → protocol error -32602'),
    row('Context cost', contextCost(p, namedSchemas(ctx.ir))),
    row('Rollback', rollback(ctx.ir, p, index)),
    row('Design rules', waivers(p)),
  ], p.description);
}

/**
 * A kind's cards one blank line apart, for a template line of its own (which ends the last one): a list of
 * the file (emit/lists.ts), a card reused from the old file while what it reads is unchanged: the
 * primitive's IR entry (its contract entry follows from it), the server-wide inputs (named schemas and type
 * names, list cache hints) and its rollback row, the one row that reads other primitives (whose texts
 * mention it).
 */
function cards<C extends ToolContract | ResourceContract | PromptContract>(ctx: EmitContext, kind: string, contracts: readonly C[], index: MentionIndex, make: (ctx: EmitContext, c: C, index: MentionIndex) => CardView): string {
  const list = ctx.fragments.list(`${kind}s`, '\n');
  // The row lists what depends on the primitive; the rest of it follows from the primitive itself.
  for (const c of contracts) list.add(ctx.fragments.key('card', c.ir, dependents(ctx.ir, c.ir, index).join('\n')), () => ({ text: render('contract-card.md', make(ctx, c, index)) }));
  return ctx.text.chop(list.done());
}

/** The context cost of the whole catalog, per kind and in total (lint's counter). */
function catalogCost(ctx: EmitContext): string {
  const named = namedSchemas(ctx.ir);
  const tokens = (p: Parameters<typeof tokensOf>[0]) => ctx.fragments.summary('tokens', p, () => tokensOf(p, named)) ?? tokensOf(p, named);
  const sum = (items: readonly Parameters<typeof tokensOf>[0][]) => items.reduce((s, p) => s + tokens(p), 0);
  const tools = sum(ctx.ir.tools);
  const resources = sum(ctx.ir.resources);
  const prompts = sum(ctx.ir.prompts);
  return `≈ ${tools + resources + prompts} tokens: tools ≈ ${tools} (what MG723 compares with \`lint.budget.contextBudgetTokens\`), resources ≈ ${resources}, prompts ≈ ${prompts} (listing entries; about 4 characters a token).`;
}

/** Emits `CONTRACTS.md`: it reads every primitive (a card's rollback row, the texts of the others). */
export function emitCards(ctx: EmitContext): EmittedFile {
  return layout(ctx, 'CONTRACTS.md', ctx.fragments.entries(), cardsFile);
}

/** The content of `CONTRACTS.md`. */
function cardsFile(ctx: EmitContext): string {
  const { ir } = ctx;
  // Each tool's and prompt's runs of word characters are kept by its IR entry: only a changed one is read again.
  const index = new MentionIndex(ir, (q) => ctx.fragments.summary('word-runs', q, () => wordRuns(q)) ?? wordRuns(q));
  const content = render('CONTRACTS.md', {
    header: mdHeader(ir.manifestName),
    title: mdText(ir.server.title ?? ir.server.name),
    version: mdCode(ir.server.version),
    description: ir.server.description !== undefined ? mdText(ir.server.description) : undefined,
    scopes: ir.server.scopes.map((s) => ({ name: mdCode(s.name), description: mdText(s.description) })),
    tools: cards(ctx, 'tool', ctx.contract.tools, index, toolCard),
    resources: cards(ctx, 'resource', ctx.contract.resources, index, resourceCard),
    prompts: cards(ctx, 'prompt', ctx.contract.prompts, index, promptCard),
    cost: catalogCost(ctx),
  });
  return ctx.text.tidy(content);
}
