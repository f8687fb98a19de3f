/**
 * Emits `CONTRACTS.md`: one contract card per primitive — controller, side
 * effect, scopes, input/output shape, failure semantics, idempotency,
 * approval, revision.
 */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { IrPrimitiveBase, JsonSchema } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { mdCode, mdHeader, mdText } from './text.js';

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

const scopes = (s: readonly string[]): string => (s.length ? s.map(mdCode).join(', ') : 'none declared');

function toolCard(ctx: EmitContext, c: ToolContract): CardView {
  const t = c.ir;
  return card(`Tool ${mdCode(t.name)}${t.title ? ` — ${mdText(t.title)}` : ''}`, [
    row('Controller', 'model (the model may propose a call; the server authorizes every call)'),
    row('Side effect', t.sideEffect),
    row('Scopes', scopes(t.scopes)),
    row('Input', shape(ctx, c.input)),
    row('Output', c.output !== undefined ? `${shape(ctx, c.output)} (structuredContent, validated before sending)` : 'content blocks (no output schema)'),
    row('Idempotency', t.idempotency === 'required' ? 'required: calls carry an idempotency key; a repeat returns the first result' : t.idempotency === 'natural' ? 'by nature: repeating the call leaves the same state (no key)' : t.sideEffect === 'read' ? 'by nature (read only)' : 'none'),
    row('Approval', t.approval === 'required' ? 'required before the handler runs' : 'none'),
    row('Timeout', t.timeoutMs !== undefined ? `${t.timeoutMs} ms` : 'the server default (`limits.timeoutMs`, 60 s unless configured)'),
    row('Failures', 'invalid input or a domain failure → result with `isError: true`; unknown tool → protocol error -32602'),
    row('Examples', t.examples.length ? String(t.examples.length) : undefined),
    row('Design rules', waivers(t)),
  ], t.description);
}

function resourceCard(ctx: EmitContext, c: ResourceContract): CardView {
  const r = c.ir;
  return card(`Resource ${mdCode(r.name)}${r.title ? ` — ${mdText(r.title)}` : ''}`, [
    row('Controller', 'application (the host decides what to read; reads never change state)'),
    row('Side effect', 'none'),
    row(r.uri !== undefined ? 'URI' : 'URI template', mdCode(r.uri ?? r.uriTemplate!)),
    row('MIME type', `${mdCode(r.mimeType)} (${r.textual ? 'text' : 'base64 blob'})`),
    row('Scopes', scopes(r.scopes)),
    row('Variables', r.params.length ? Object.entries(c.params).map(([name, schema]) => `${mdCode(name)}: ${shape(ctx, { type: 'object', properties: { v: schema } }).replace(/^`v`\??: /, '')}`).join('; ') : undefined),
    row('Content schema', c.content.schema !== undefined ? shape(ctx, c.content.schema) : undefined),
    row('Source', r.source !== undefined ? `${mdCode(r.source.path)} (embedded at generation time)` : 'handler'),
    row('Revision', r.revision !== undefined ? mdText(r.revision) : undefined),
    row('Listing', r.list ? 'instances listed by a handler' : undefined),
    row('Subscriptions', r.subscribe ? 'supported' : undefined),
    row('Failures', 'unknown URI or invalid variables → protocol error -32602'),
    row('Design rules', waivers(r)),
  ], r.description);
}

function promptCard(c: PromptContract): CardView {
  const p = c.ir;
  return card(`Prompt ${mdCode(p.name)}${p.title ? ` — ${mdText(p.title)}` : ''}`, [
    row('Controller', 'user (a person deliberately picks it; it grants no permission)'),
    row('Side effect', 'none'),
    row('Scopes', scopes(p.scopes)),
    row('Arguments', c.arguments.length ? c.arguments.map((a) => `${mdCode(a.name)}${a.required ? '' : '?'}${a.description ? ` (${mdText(a.description)})` : ''}`).join('; ') : 'none'),
    row('Messages', p.messages !== undefined ? `${p.messages.length} static (arguments inserted as literal data)` : 'built by a handler'),
    row('Failures', 'missing or invalid argument, unknown prompt → protocol error -32602'),
    row('Design rules', waivers(p)),
  ], p.description);
}

/** Emits `CONTRACTS.md`. */
export function emitCards(ctx: EmitContext): EmittedFile {
  const { ir } = ctx;
  const content = render('CONTRACTS.md', {
    header: mdHeader(ir.manifestName),
    title: mdText(ir.server.title ?? ir.server.name),
    version: mdCode(ir.server.version),
    description: ir.server.description !== undefined ? mdText(ir.server.description) : undefined,
    scopes: ir.server.scopes.map((s) => ({ name: mdCode(s.name), description: mdText(s.description) })),
    tools: ctx.contract.tools.map((c) => toolCard(ctx, c)),
    resources: ctx.contract.resources.map((c) => resourceCard(ctx, c)),
    prompts: ctx.contract.prompts.map(promptCard),
  });
  return { path: 'CONTRACTS.md', content: tidy(content), owner: 'generator' };
}
