/**
 * Emits `schemas.gen.ts`: every published schema as a module-level constant
 * wrapped in a lazily compiling validator, so a thousand tools cost nothing at
 * start-up and nothing is ever compiled per request.
 */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { schemaConst, sharedSchemaConst, typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { importStatement, lit, tsHeader } from './text.js';

export { schemaConst };

/** Lays a value out as code (see `lit`). */
type Show = (value: unknown) => string;

interface Entry {
  readonly doc: string;
  readonly name: string;
  readonly expr: string;
  /** The runtime function the expression calls. */
  readonly fn: 'jsonSchema' | 'paramsValidator' | 'promptArgsSchema';
  /** True when the expression names a type from `types.gen.ts`. */
  readonly typed: boolean;
}

function toolEntries(c: ToolContract, show: Show): Entry[] {
  const t = c.ir;
  const input = c.input;
  const published = c.listing.inputSchema;
  const advertised = published === input ? '' : `, { advertised: ${show(published)} }`;
  const out: Entry[] = [
    {
      doc: `Input schema of tool \`${t.name}\`${advertised ? ' (validated as declared; published with the control arguments of its gates)' : ''}.`,
      name: schemaConst.toolInput(t),
      expr: `jsonSchema<T.${typeName.toolInput(t)}>(${show(input)}${advertised})`,
      fn: 'jsonSchema',
      typed: true,
    },
  ];
  if (c.output !== undefined) {
    out.push({
      doc: `Output schema of tool \`${t.name}\`.`,
      name: schemaConst.toolOutput(t),
      expr: `jsonSchema<T.${typeName.toolOutput(t)}>(${show(c.output)})`,
      fn: 'jsonSchema',
      typed: true,
    });
  }
  return out;
}

function resourceEntries(c: ResourceContract, show: Show): Entry[] {
  const r = c.ir;
  const out: Entry[] = [];
  if (r.uriTemplate !== undefined) {
    const params = c.params;
    const type = r.source === undefined ? `T.${typeName.resourceParams(r)}` : 'Record<string, unknown>';
    out.push({ doc: `Template variables of resource \`${r.name}\`.`, name: schemaConst.resourceParams(r), expr: `paramsValidator<${type}>(${show(params)})`, fn: 'paramsValidator', typed: r.source === undefined });
  }
  if (c.content.schema !== undefined) {
    out.push({
      doc: `Content schema of resource \`${r.name}\`.`,
      name: schemaConst.resourceContent(r),
      expr: `jsonSchema<T.${typeName.resourceContent(r)}>(${show(c.content.schema)})`,
      fn: 'jsonSchema',
      typed: true,
    });
  }
  return out;
}

function promptEntries(c: PromptContract, show: Show): Entry[] {
  const p = c.ir;
  const args = c.arguments.map(({ complete: _, ...listed }) => listed);
  return [
    {
      doc: `Arguments of prompt \`${p.name}\`.`,
      name: schemaConst.promptArgs(p),
      expr: `promptArgsSchema<T.${typeName.promptArgs(p)}>(${show(args)})`,
      fn: 'promptArgsSchema',
      typed: true,
    },
  ];
}

/** Emits `schemas.gen.ts`. */
export function emitSchemas(ctx: EmitContext): EmittedFile {
  const entriesWith = (show: Show): Entry[] => [
    ...ctx.contract.tools.flatMap((c) => toolEntries(c, show)),
    ...ctx.contract.resources.flatMap((c) => resourceEntries(c, show)),
    ...ctx.contract.prompts.flatMap((c) => promptEntries(c, show)),
  ];
  // First pass: which named schemas the published schemas share (each is declared once, then referenced).
  const values: unknown[] = [];
  entriesWith((value) => (values.push(value), ''));
  const sharedNames = ctx.graph.sharedSchemas();
  const order: object[] = [];
  const seen = new Set<object>();
  for (const v of values) collectShared(v, sharedNames, seen, order);
  const names = new Map<object, string>();
  const taken = new Set<string>(['jsonSchema', 'paramsValidator', 'promptArgsSchema', 'T']);
  const entries = entriesWith(() => '');
  for (const e of entries) taken.add(e.name);
  for (const obj of order) {
    let name = sharedSchemaConst(ctx.graph.typeName(sharedNames.get(obj)!));
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    names.set(obj, name);
  }
  const shared = order.map((obj) => ({ name: names.get(obj)!, doc: `Manifest schema \`${sharedNames.get(obj)!}\`: declared once, shared by every published schema below that references it.`, expr: lit(obj, 0, names, true) }));
  const printed = entriesWith((value) => lit(value, 0, names));
  const content = render('schemas.ts', {
    header: tsHeader(ctx.ir.manifestName),
    runtimeImport: importStatement([...new Set(printed.map((e) => e.fn))].sort(), 'mcp-gen/runtime'),
    typed: printed.some((e) => e.typed),
    shared,
    entries: printed,
  });
  return { path: 'schemas.gen.ts', content: tidy(content), owner: 'generator' };
}

/** The shared objects reachable from `value`, each once, dependencies before the objects using them. */
function collectShared(value: unknown, shared: ReadonlyMap<object, string>, seen: Set<object>, order: object[]): void {
  if (value === null || typeof value !== 'object') return;
  const isShared = shared.has(value);
  if (isShared) {
    if (seen.has(value)) return;
    seen.add(value);
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) collectShared(v, shared, seen, order);
  if (isShared) order.push(value);
}
