/** Emits `types.gen.ts`: a TypeScript type for every schema, and the handler contracts. */
import { type GenerationCache, jsonExact } from '../cache.js';
import type { Contract } from '../contract/types.js';
import type { Ir, IrPrimitive, IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import { recursiveTypeName, typeName } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, resourceHasHandler, promptHasHandler } from './context.js';
import { layoutAsync, sharedKey } from './layout.js';
import { importStatement, jsdoc, key, tsHeader } from './text.js';
import { layoutTypes } from './type-printer.js';
import { PLACEHOLDER } from './type-compiler.js';
import { valueKey } from './value-key.js';

/** The body json-schema-to-typescript compiles for a prepared schema: its root's prose left out (see `compiled`). */
function bodyOf(prepared: JsonSchema): object {
  const body = typeof prepared === 'boolean' ? { tsType: prepared ? 'unknown' : 'never' } : { ...prepared };
  delete (body as Record<string, unknown>)['description'];
  // A root title would name the compiled declaration itself; the declaration takes the manifest's name.
  delete (body as Record<string, unknown>)['title'];
  return body;
}

/**
 * The compiled declaration of one prepared schema body under the placeholder name, compiled once per
 * distinct body in a run (the key tells apart `.inf` from `~`, `-0` from `0`: see `valueKey`).
 */
function compiled(ctx: EmitContext, prepared: JsonSchema): Promise<string> {
  const body = bodyOf(prepared);
  const key = valueKey(body);
  if (key === undefined) return ctx.types.compile(body);
  let code = ctx.typeBodies.get(key);
  if (code === undefined) {
    code = ctx.types.compile(body);
    ctx.typeBodies.set(key, code);
  }
  return code;
}

/** The key of a type declaration's fragment (see `typeFor`): everything it reads. */
const typeKey = (shared: string, name: string, schema: JsonSchema, doc: readonly (string | undefined)[], names: ReadonlyMap<string, string>): unknown[] =>
  ['type', shared, name, schema, doc.map((d) => d ?? null), [...names]];

/**
 * One exported type for a schema, with a JSDoc block of our own above it, followed by one declaration
 * per recursive local definition it refers to (`<Name><Def>`, kept distinct from every name in `taken`). It
 * reads the schema, the named schemas (through the graph), the doc lines and the names its recursive
 * definitions take: a run with the incremental cache reuses it while they are unchanged.
 */
function typeFor(ctx: EmitContext, taken: Taken, name: string, schema: JsonSchema, doc: readonly (string | undefined)[], uses?: string[]): Promise<Item> {
  // Named before any await: emitTypes starts every typeFor in manifest order, so the numbering is stable.
  const forTypes = ctx.graph.forTypes(schema, PLACEHOLDER);
  const names = new Map([...forTypes.declarations.keys()].map((slot) => [slot, taken.name(name, slot)]));
  const key = typeKey(ctx.fragments.shared, name, schema, doc, names);
  // The unit this declaration is part of records where it is kept (`Made.uses`): kept while the unit is copied.
  const h = uses === undefined ? undefined : ctx.fragments.keyHash(key);
  if (h !== undefined) uses!.push(h);
  return ctx.fragments.getAsync(key, () => compileType(ctx, name, names, forTypes, doc));
}

/** The compiled and laid-out declarations of one schema prepared for the compiler (`forTypes`). */
async function compileType(ctx: EmitContext, name: string, names: ReadonlyMap<string, string>, forTypes: ReturnType<EmitContext['graph']['forTypes']>, doc: readonly (string | undefined)[]): Promise<Item> {
  const { schema: prepared, declarations } = forTypes;
  // `<Placeholder><Def>` names a recursive definition; the bare placeholder is the declaration itself.
  const slots = [...names].map(([slot, as]): [string, string] => [`${PLACEHOLDER}${slot}`, as]);
  const laid = (code: string, as: string) => layoutTypes(code, new Map([...slots, [PLACEHOLDER, as]]));
  const parts = [laid(await compiled(ctx, prepared), name)];
  for (const [slot, body] of declarations) {
    parts.push(`${jsdoc([`Recursive definition \`${slot}\` of \`${name}\`.`])}${laid(await compiled(ctx, body), names.get(slot)!)}`);
  }
  return { kind: 'compiled', doc: jsdoc(doc), code: parts.join('\n\n') };
}

/**
 * The names recursive definitions take, after every name types.gen.ts declares or imports (worked out on
 * the first such definition: most runs name none).
 */
class Taken {
  private names: Set<string> | undefined;
  /** How many recursive definitions were named so far. */
  count = 0;

  constructor(private readonly ctx: EmitContext) {}

  /** A name for definition `slot` of the type `owner`, distinct from every name taken. */
  name(owner: string, slot: string): string {
    this.count++;
    return recursiveTypeName(owner, slot, (this.names ??= exportedNames(this.ctx)));
  }
}

/** Every name types.gen.ts declares or imports before any recursive definition is named. */
function exportedNames(ctx: EmitContext): Set<string> {
  const { schemas, tools, resources, prompts } = ctx.ir;
  return new Set([
    ...schemas.map((s) => s.typeName),
    ...tools.flatMap((t) => [typeName.toolInput(t), typeName.toolOutput(t), typeName.toolHandler(t)]),
    ...resources.flatMap((r) => [typeName.resourceParams(r), typeName.resourceContent(r), typeName.resourceHandler(r)]),
    ...prompts.flatMap((p) => [typeName.promptArgs(p), typeName.promptHandler(p)]),
    'Handlers',
    ...runtimeTypes(ctx),
  ]);
}

function alias(name: string, type: string, doc: readonly (string | undefined)[]): Item {
  return { kind: 'alias', doc: jsdoc(doc), name, type };
}

/** A handler interface: its methods, then its completers, laid out by templates/types.ts.hbs. */
function handlerInterface(name: string, doc: readonly (string | undefined)[], methods: readonly Method[], completers?: Completers): Item {
  return { kind: 'handlers', doc: jsdoc(doc), name, methods, completers: completers === undefined ? [] : [completers] };
}

const method = (doc: string, signature: string): Method => ({ doc: jsdoc([doc]), signature });

/** One declaration of types.gen.ts, as the template's partial of that kind prints it. */
type Item =
  | { readonly kind: 'compiled'; readonly doc: string; readonly code: string }
  | { readonly kind: 'alias'; readonly doc: string; readonly name: string; readonly type: string }
  | { readonly kind: 'handlers'; readonly doc: string; readonly name: string; readonly methods: readonly Method[]; readonly completers: readonly Completers[] };
interface Method {
  readonly doc: string;
  readonly signature: string;
}
interface Completers {
  readonly doc: string;
  readonly keys: readonly string[];
  readonly type: string;
}

function describe(p: { title?: string; description?: string }): string | undefined {
  if (p.title && p.description) return `${p.title}: ${p.description}`;
  return p.title ?? p.description;
}

/** A type `types.gen.ts` compiles for a schema of a primitive: its name, the schema and its doc lines. */
interface Target {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly doc: readonly (string | undefined)[];
}

function toolTargets(t: IrTool): Target[] {
  return [
    { name: `${typeName.toolInput(t)}`, schema: t.input, doc: [`Input of tool \`${t.name}\`.`, schemaDescription(t.input)] },
    ...(t.output !== undefined ? [{ name: `${typeName.toolOutput(t)}`, schema: t.output, doc: [`Structured output of tool \`${t.name}\`.`, schemaDescription(t.output)] }] : []),
  ];
}

async function toolTypes(ctx: EmitContext, taken: Taken, t: IrTool, uses: string[]): Promise<Item[]> {
  const output = `${typeName.toolOutput(t)}`;
  const out = await Promise.all(toolTargets(t).map((x) => typeFor(ctx, taken, x.name, x.schema, x.doc, uses)));
  out.push(
    alias(`${typeName.toolHandler(t)}`, `ToolHandler<${typeName.toolInput(t)}, ${t.output !== undefined ? output : 'ToolReturn'}>`, [
      `Handler for tool \`${t.name}\` (side effect: ${t.sideEffect}).`,
      describe(t),
    ]),
  );
  return out;
}

function paramsSchema(r: IrResource): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(r.params.map((p) => [p.name, p.schema])),
    required: r.params.map((p) => p.name),
    additionalProperties: false,
  };
}

/** The content type of a resource without a content schema, from the contract's content rules. */
function plainContentType(ctx: EmitContext, r: IrResource): string {
  const rules = ctx.contract.resources.find((c) => c.ir === r)!.content;
  return rules.textual ? (rules.json ? 'unknown' : 'string') : 'Uint8Array';
}

/** The types of a resource's schemas: its template's variables, and its content when it has a schema. */
function resourceTargets(r: IrResource): Target[] {
  if (!resourceHasHandler(r)) return [];
  const params = r.uriTemplate !== undefined ? [{ name: `${typeName.resourceParams(r)}`, schema: paramsSchema(r), doc: [`Variables of resource template \`${r.uriTemplate}\` (resource \`${r.name}\`).`] }] : [];
  return [...params, ...(r.schema !== undefined ? [{ name: `${typeName.resourceContent(r)}`, schema: r.schema, doc: contentDoc(r) }] : [])];
}

const contentDoc = (r: IrResource): string[] => [`Content of resource \`${r.name}\` (${r.mimeType}).`];

async function resourceTypes(ctx: EmitContext, taken: Taken, r: IrResource, uses: string[]): Promise<Item[]> {
  if (!resourceHasHandler(r)) return [];
  const params = `${typeName.resourceParams(r)}`;
  const content = `${typeName.resourceContent(r)}`;
  const templated = r.uriTemplate !== undefined;
  const out = await Promise.all([
    ...resourceTargets(r).map((x) => typeFor(ctx, taken, x.name, x.schema, x.doc, uses)),
    ...(r.schema === undefined ? [alias(content, plainContentType(ctx, r), contentDoc(r))] : []),
  ]);
  const methods = [
    templated
      ? method('Reads one instance; `params` are decoded and validated.', `read(params: ${params}, ctx: HandlerContext): Awaitable<${content}>`)
      : method('Reads the resource.', `read(ctx: HandlerContext): Awaitable<${content}>`),
    ...(r.list ? [method('Lists concrete instances for `resources/list`.', `list(ctx: HandlerContext): Awaitable<readonly ResourceListing<${params}>[]>`)] : []),
  ];
  const completers = r.complete.length > 0 ? { doc: jsdoc(['Completion for template variables.']), keys: r.complete.map(key), type: params } : undefined;
  out.push(handlerInterface(`${typeName.resourceHandler(r)}`, [`Handlers for resource \`${r.name}\` (${r.uri ?? r.uriTemplate}).`, describe(r)], methods, completers));
  return out;
}

function argsSchema(p: IrPrompt): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      p.arguments.map((a) => [a.name, a.description && typeof a.schema === 'object' ? { ...a.schema, description: a.description } : a.schema]),
    ),
    required: p.arguments.filter((a) => a.required).map((a) => a.name),
    additionalProperties: false,
  };
}

function promptTargets(p: IrPrompt): Target[] {
  return [{ name: `${typeName.promptArgs(p)}`, schema: argsSchema(p), doc: [`Arguments of prompt \`${p.name}\`, converted from strings to their declared types.`] }];
}

async function promptTypes(ctx: EmitContext, taken: Taken, p: IrPrompt, uses: string[]): Promise<Item[]> {
  const args = `${typeName.promptArgs(p)}`;
  const [target] = promptTargets(p);
  const out = [await typeFor(ctx, taken, target!.name, target!.schema, target!.doc, uses)];
  if (!promptHasHandler(p)) return out;
  const methods = p.messages === undefined ? [method('Builds the messages from validated arguments.', `get(args: ${args}, ctx: HandlerContext): Awaitable<PromptReturn>`)] : [];
  const completing = p.arguments.filter((a) => a.complete);
  const completers = completing.length > 0 ? { doc: jsdoc(['Completion for arguments.']), keys: completing.map((a) => key(a.name)), type: args } : undefined;
  out.push(handlerInterface(`${typeName.promptHandler(p)}`, [`Handlers for prompt \`${p.name}\`.`, describe(p)], methods, completers));
  return out;
}

/** `text` with `pad` before each line, as Handlebars indents a standalone partial (a last empty line stays empty). */
const indented = (text: string, pad: string): string => text.split('\n').map((l, i, all) => (i === all.length - 1 && l === '' ? l : pad + l)).join('\n');

/**
 * One group of the `Handlers` interface (a kind's handlers), as a template would lay it out: each
 * handler's member a unit of a list of the file (emit/lists.ts), rendered alone from its primitive (its
 * identifier and type name follow from its kind and name), so adding or removing a primitive renders that
 * member only. A unit is its member's lines, each indented as the template's partial indents them.
 */
function handlerGroup(ctx: EmitContext, name: string, entries: readonly IrPrimitive[], type: (p: IrPrimitive) => string, label: string): string {
  const list = ctx.fragments.list(`handlers.${name}`, '');
  for (const p of entries) {
    list.add(ctx.fragments.key('types.handler', p, ''), () => ({ text: indented(`${jsdoc([`${label} \`${p.name}\`.`])}readonly ${p.id}: ${type(p)};\n`, '    ') }));
  }
  return `  readonly ${name}: {\n${list.done()}  };\n`;
}

function schemaDescription(s: JsonSchema): string | undefined {
  return typeof s === 'object' && typeof s['description'] === 'string' ? s['description'] : undefined;
}


/** The runtime types the handler contracts name, sorted (HandlerContext is always re-exported). */
function runtimeTypes(ctx: EmitContext): string[] {
  const { tools, resources, prompts } = ctx.ir;
  const handled = resources.filter(resourceHasHandler);
  const getters = prompts.filter((p) => promptHasHandler(p) && p.messages === undefined);
  const used: [string, boolean][] = [
    ['Awaitable', handled.length > 0 || getters.length > 0],
    ['Completer', handled.some((r) => r.complete.length > 0) || prompts.some((p) => p.arguments.some((a) => a.complete))],
    ['HandlerContext', true],
    ['PromptReturn', getters.length > 0],
    ['ResourceListing', handled.some((r) => r.list)],
    ['ToolHandler', tools.length > 0],
    ['ToolReturn', tools.some((t) => t.output === undefined)],
  ];
  return used.filter(([, yes]) => yes).map(([name]) => name);
}

/** Declarations as types-items.ts.hbs lays them out, each after a blank line. */
const itemsText = (items: readonly Item[]): string => (items.length === 0 ? '' : render('types-items.ts', { items }));

/**
 * A section's declarations for its template line (which ends the last one): one primitive's declarations
 * after another, a list of the file (emit/lists.ts), reused from the old file while its IR entry and the
 * server-wide inputs (named schemas and their type names) are unchanged. A primitive whose schemas have
 * recursive definitions names them after the names others took (`taken`): its text is never kept.
 */
async function section<P extends IrPrimitive>(ctx: EmitContext, kind: string, title: string, entries: readonly P[], taken: Taken, make: (p: P, uses: string[]) => Promise<Item[]>): Promise<{ title: string; items: string }> {
  const list = ctx.fragments.list(`types.${kind}s`, '');
  for (const p of entries) {
    list.add(ctx.fragments.key(`types.${kind}`, p, ''), () => {
      // Recursive definitions are named synchronously, as every `typeFor` starts: `taken` counts them right here.
      const before = taken.count;
      const uses: string[] = [];
      const items = make(p, uses);
      const keep = taken.count === before;
      return items.then((all) => ({ text: itemsText(all), ...(keep ? { uses } : { keep: false as const }) }));
    });
  }
  return { title, items: ctx.text.chop(await list.doneAsync()) };
}

/** The `Handlers` interface: every handler the server needs, grouped by primitive kind (see `handlerGroup`). */
function handlersInterface(ctx: EmitContext): string {
  const { tools, resources, prompts } = ctx.ir;
  return [
    '/** Every handler the server needs, grouped by primitive kind. */\nexport interface Handlers {\n',
    handlerGroup(ctx, 'tools', tools, (t) => typeName.toolHandler(t as IrTool), 'Tool'),
    handlerGroup(ctx, 'resources', resources.filter(resourceHasHandler), (r) => typeName.resourceHandler(r as IrResource), 'Resource'),
    handlerGroup(ctx, 'prompts', prompts.filter(promptHasHandler), (p) => typeName.promptHandler(p as IrPrompt), 'Prompt'),
    '}',
  ].join('');
}

/** Emits `types.gen.ts`: it reads every primitive. */
export function emitTypes(ctx: EmitContext): Promise<EmittedFile> {
  return layoutAsync(ctx, 'types.gen.ts', ctx.fragments.entries(), typesFile);
}

/** The declarations of the named schemas, reused while they are (they are among the server-wide inputs). */
function namedTypes(ctx: EmitContext, taken: Taken): Promise<string> {
  return ctx.fragments.blockText('types.named', '', () => {
    const before = taken.count;
    const items = Promise.all(
      ctx.ir.schemas.map((s) => {
        const title = typeof s.schema === 'object' && typeof s.schema['title'] === 'string' ? s.schema['title'] : undefined;
        return typeFor(ctx, taken, s.typeName, s.schema, [`Schema \`${s.name}\`${title && title !== s.name ? ` (${title})` : ''}.`, schemaDescription(s.schema)]);
      }),
    );
    return { text: items.then(itemsText), keep: taken.count === before };
  });
}

/** The content of `types.gen.ts`. */
async function typesFile(ctx: EmitContext): Promise<string> {
  const taken = new Taken(ctx);
  // Every schema is handed to the compiler before any answer is awaited (see type-compiler.ts).
  const sections = await Promise.all([
    namedTypes(ctx, taken).then((text) => ({ title: 'Named schemas', items: ctx.text.chop(text) })),
    section(ctx, 'tool', 'Tools', ctx.ir.tools, taken, (t, uses) => toolTypes(ctx, taken, t, uses)),
    section(ctx, 'resource', 'Resources', ctx.ir.resources, taken, (r, uses) => resourceTypes(ctx, taken, r, uses)),
    section(ctx, 'prompt', 'Prompts', ctx.ir.prompts, taken, (p, uses) => promptTypes(ctx, taken, p, uses)),
  ]);
  const content = render('types.ts', {
    header: tsHeader(ctx.ir.manifestName),
    runtimeImport: importStatement(runtimeTypes(ctx), 'mcp-gen/runtime', true),
    sections: sections.filter((s) => s.items.length > 0),
    handlers: handlersInterface(ctx),
  });
  return ctx.text.tidy(content);
}

/** The types a primitive's schemas compile to (`toolTargets` and the like). */
function targetsOf(p: IrPrimitive): Target[] {
  return p.kind === 'tool' ? toolTargets(p) : p.kind === 'resource' ? resourceTargets(p) : promptTargets(p);
}

/**
 * How many schemas emitting the types of `primitives` will compile, counted up to one more than `atMost`:
 * the bodies of their type declarations that the cache does not hold (the key `typeFor` looks up) and
 * holds no compiled code for (the key `createContext` looks up). The pipeline asks before emission, for the
 * entries the front built this run, so that for many the type compiler's worker starts loading while the
 * run lints and lays out. A type with recursive definitions is keyed by names taken across the file: only
 * its bodies are looked up (at worst the count is too high). Reads the cache without keeping anything for
 * the next run.
 */
export function typesToCompile(ir: Ir, contract: Contract, cache: GenerationCache, primitives: readonly IrPrimitive[], atMost: number): number {
  const missing = new Set<string>();
  const shared = primitives.length === 0 ? undefined : sharedKey(ir, contract);
  for (const p of primitives) {
    for (const t of targetsOf(p)) {
      const prepared = contract.graph.forTypes(t.schema, PLACEHOLDER);
      if (prepared.declarations.size === 0) {
        const key = typeKey(shared!, t.name, t.schema, t.doc, new Map());
        if (jsonExact(key) && cache.holdsFragment(JSON.stringify(key))) continue;
      }
      for (const body of [prepared.schema, ...prepared.declarations.values()].map(bodyOf)) {
        const text = jsonExact(body) ? JSON.stringify(body) : undefined;
        if (text !== undefined && cache.holdsType(text)) continue;
        missing.add(text ?? `unkeyed ${missing.size}`);
        if (missing.size > atMost) return missing.size;
      }
    }
  }
  return missing.size;
}
