/**
 * Emits `schemas.gen.ts`: every published schema as a module-level constant
 * wrapped in a lazily compiling validator, so a thousand tools cost nothing at
 * start-up and nothing is ever compiled per request.
 */
import type { PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { schemaConst, sharedSchemaConst, typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render } from './context.js';
import { layout } from './layout.js';
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

type AnyContract = ToolContract | ResourceContract | PromptContract;

function entriesOf(c: AnyContract, show: Show): Entry[] {
  return c.kind === 'tool' ? toolEntries(c, show) : c.kind === 'resource' ? resourceEntries(c, show) : promptEntries(c, show);
}

/** What the file needs of a primitive before printing it: its constants' names, and the shared schemas its schemas use (dependencies first). */
interface Outline {
  readonly names: readonly string[];
  readonly shared: readonly string[];
}

/** What the file's imports need of a primitive's printed constants. */
interface Printed {
  readonly fns: readonly Entry['fn'][];
  readonly typed: boolean;
}

/**
 * A primitive's outline, kept by its IR entry and the server-wide inputs: which shared bodies its published
 * schemas hold follows from them.
 */
function outline(ctx: EmitContext, c: AnyContract, sharedNames: ReadonlyMap<object, string>): Outline {
  const compute = (): Outline => {
    const values: unknown[] = [];
    const names = entriesOf(c, (value) => (values.push(value), '')).map((e) => e.name);
    const order: object[] = [];
    const seen = new Set<object>();
    for (const v of values) collectShared(v, sharedNames, seen, order);
    return { names, shared: order.map((o) => sharedNames.get(o)!) };
  };
  return ctx.fragments.summary('schemas.outline', c.ir, compute) ?? compute();
}

/**
 * Every primitive's constants printed, a list of the file (emit/lists.ts): a primitive's are reused from
 * the old file while its IR entry, the server-wide inputs and the constant names of the shared schemas
 * they refer to are unchanged. Returns the list and what the imports need of each.
 */
function printed(ctx: EmitContext, all: readonly AnyContract[], outlines: readonly Outline[], consts: ReadonlyMap<string, string>, names: ReadonlyMap<object, string>): { entries: string; printed: (Printed | undefined)[] } {
  const list = ctx.fragments.list<Printed>('entries', '\n');
  all.forEach((c, i) => {
    list.add(ctx.fragments.key('schemas.printed', c.ir, JSON.stringify(outlines[i]!.shared.map((n) => consts.get(n)!))), () => {
      const entries = entriesOf(c, (value) => lit(value, 0, names));
      const text = entries.length === 0 ? '' : render('schemas-entries.ts', { entries }).slice(0, -1);
      return { text, meta: { fns: entries.map((e) => e.fn), typed: entries.some((e) => e.typed) } };
    });
  });
  return { entries: list.done(), printed: list.metas() };
}

/** The shared schemas' declarations, each after a blank line: a block kept while their order and names are. */
function sharedDeclarations(ctx: EmitContext, order: readonly string[], consts: ReadonlyMap<string, string>, bodies: ReadonlyMap<string, object>, names: ReadonlyMap<object, string>): string {
  return ctx.fragments.block('schemas.shared', JSON.stringify(order.map((schema) => [schema, consts.get(schema)!])), () => {
    const doc = (schema: string) => `Manifest schema \`${schema}\`: declared once, shared by every published schema below that references it.`;
    return order.map((schema) => `\n/** ${doc(schema)} */\nconst ${consts.get(schema)!} = ${lit(bodies.get(schema)!, 0, names, true)};`).join('\n');
  }, ['']);
}

/**
 * Emits `schemas.gen.ts`. The named schemas the published schemas share are declared once, in the order
 * they first appear (each primitive's outline lists its own in that order), then referenced by name.
 */
export function emitSchemas(ctx: EmitContext): EmittedFile {
  // It prints schemas and names, never a primitive's description or title.
  return layout(ctx, 'schemas.gen.ts', ctx.fragments.forms(), schemasFile);
}

/** The content of `schemas.gen.ts`. */
function schemasFile(ctx: EmitContext): string {
  const all: AnyContract[] = [...ctx.contract.tools, ...ctx.contract.resources, ...ctx.contract.prompts];
  const sharedNames = ctx.graph.sharedSchemas();
  const bodies = new Map([...sharedNames].map(([obj, name]) => [name, obj]));
  const outlines = all.map((c) => outline(ctx, c, sharedNames));
  const order = [...new Set(outlines.flatMap((o) => o.shared))];
  const taken = new Set<string>(['jsonSchema', 'paramsValidator', 'promptArgsSchema', 'T', ...outlines.flatMap((o) => o.names)]);
  const consts = new Map<string, string>();
  const names = new Map<object, string>();
  for (const schema of order) {
    let name = sharedSchemaConst(ctx.graph.typeName(schema));
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    consts.set(schema, name);
    names.set(bodies.get(schema)!, name);
  }
  const { entries, printed: each } = printed(ctx, all, outlines, consts, names);
  const content = render('schemas.ts', {
    header: tsHeader(ctx.ir.manifestName),
    runtimeImport: importStatement([...new Set(each.flatMap((p) => p?.fns ?? []))].sort(), 'mcp-gen/runtime'),
    typed: each.some((p) => p?.typed === true),
    shared: order.length === 0 ? '' : sharedDeclarations(ctx, order, consts, bodies, names),
    entries,
  });
  return ctx.text.tidy(content);
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
