/**
 * Emits the handler wiring (`handlers.gen.ts`, regenerated) and one stub per
 * primitive under `handlers/` (the author's: written once, never overwritten).
 */
import { specHash } from '../cache.js';
import type { IrPrimitive, IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { handlerImportNames, handlerImportPath, typeName as typeNames } from '../ir/names.js';
import { type EmitContext, type EmittedFile, handlerPath, hasHandler, render, tidy } from './context.js';
import { layout } from './layout.js';
import { importStatement, jsdoc, key, lit, tsHeader } from './text.js';

function summary(p: IrPrimitive): string[] {
  const lines: string[] = [`${p.kind === 'tool' ? 'Tool' : p.kind === 'resource' ? 'Resource' : 'Prompt'} \`${p.name}\`${p.title ? `: ${p.title}` : ''}.`];
  if (p.description) lines.push(p.description);
  if (p.kind === 'tool') {
    const facts = [`Side effect: ${p.sideEffect}.`];
    if (p.scopes.length) facts.push(`Scopes: ${p.scopes.join(', ')}.`);
    if (p.idempotency === 'required') facts.push('Calls carry an idempotency key.');
    if (p.idempotency === 'natural') facts.push('Idempotent by nature: a repeated call must leave the same state.');
    if (p.approval === 'required') facts.push('Runs only with an approval.');
    lines.push(facts.join(' '));
    if (p.http) lines.push(`Calls \`${p.http.method} ${p.http.path}\` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.`);
    lines.push('Return the structured output, or throw `new ToolError(message)` for a failure the model should see.');
  } else if (p.kind === 'resource') {
    lines.push(`URI: ${p.uri ?? p.uriTemplate} (${p.mimeType}).${p.scopes.length ? ` Scopes: ${p.scopes.join(', ')}.` : ''}`);
    if (p.http) lines.push(`Reads \`GET ${p.http.path}\` upstream through upstream.gen.ts (an upstream 404 is "resource not found"); change it freely.`);
    lines.push('Throw `resourceNotFound()` when the addressed instance does not exist.');
  }
  return lines;
}

/** What the generator needs to create or update one handler file. */
export interface HandlerSpec {
  readonly kind: IrPrimitive['kind'];
  readonly name: string;
  readonly path: string;
  /** The export the server imports. */
  readonly id: string;
  /** The generated type the export is declared with. */
  readonly typeName: string;
  /** The whole stub file, for a new handler. */
  readonly stub: string;
  /** The exported declaration alone, appended when a file lacks it. */
  readonly exportStub: string;
  /** Object members the handler type requires (resources and prompts). */
  readonly members: readonly { readonly name: string; readonly text: string }[];
  /** Keys the `complete` member must have. */
  readonly completeKeys: readonly string[];
  /** The primitive's previous name, when it was renamed. */
  readonly renamedFrom?: string;
}

const notImpl = (p: IrPrimitive): string => `throw notImplemented(${lit(p.kind)}, ${lit(p.name)});`;

/** The body of a tool stub: the upstream call for an `http:` tool, otherwise the not-implemented error. */
function toolBody(t: IrTool): string {
  return t.http !== undefined ? `return upstream.tools.${t.id}(input, ctx);` : notImpl(t);
}

function members(p: IrResource | IrPrompt, type: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  // Declared return types put a schema mismatch on the `return` line (see `Returns` in the runtime).
  const returns = (member: string) => `: Promise<Returns<${member === 'list' ? `NonNullable<${type}['list']>` : `${type}['${member}']`}>>`;
  const complete = p.kind === 'resource' ? p.complete : p.arguments.filter((a) => a.complete).map((a) => a.name);
  const member = (name: string, params: string, body: string) => ({ name, text: render('handler-member.ts', { completeKeys: [], name, params, returns: returns(name), body }).trimEnd() });
  if (p.kind === 'resource') {
    const templated = p.uriTemplate !== undefined;
    const body = p.http !== undefined ? `return upstream.resources.${p.id}(${templated ? 'params, ' : ''}ctx);` : notImpl(p);
    out.push(member('read', templated ? 'params, ctx' : 'ctx', body));
    if (p.list) out.push(member('list', 'ctx', notImpl(p)));
  } else if (p.messages === undefined) {
    out.push(member('get', 'args, ctx', notImpl(p)));
  }
  if (complete.length > 0) out.push({ name: 'complete', text: render('handler-member.ts', { completeKeys: complete.map(key) }).trimEnd() });
  return out;
}

function handlerSpec(p: IrPrimitive): HandlerSpec {
  const typeName = p.kind === 'tool' ? typeNames.toolHandler(p) : p.kind === 'resource' ? typeNames.resourceHandler(p) : typeNames.promptHandler(p);
  const doc = jsdoc(summary(p));
  const m = p.kind === 'tool' ? [] : members(p, typeName);
  const exportStub = tidy(
    p.kind === 'tool'
      ? render('handler-tool.ts', { doc, id: p.id, type: typeName, body: toolBody(p) })
      : render('handler-object.ts', { doc, id: p.id, type: typeName, members: m.map((x) => x.text) }),
  );
  const completeKeys = p.kind === 'resource' ? [...p.complete] : p.kind === 'prompt' ? p.arguments.filter((a) => a.complete).map((a) => a.name) : [];
  return {
    kind: p.kind,
    name: p.name,
    path: handlerPath(p),
    id: p.id,
    typeName,
    stub: tidy(render('handler-file.ts', { type: typeName, exportStub: exportStub.trimEnd(), stubbed: exportStub.includes('notImplemented('), upstream: exportStub.includes('upstream.') })),
    exportStub,
    members: m,
    completeKeys,
    ...(p.renamedFrom !== undefined ? { renamedFrom: p.renamedFrom } : {}),
  };
}


/** What a spec is made of but its texts: read off the IR entry, without rendering anything. */
type SpecFacts = Pick<HandlerSpec, 'kind' | 'name' | 'path' | 'id' | 'typeName' | 'completeKeys' | 'renamedFrom'> & { readonly members: readonly string[] };

function specFacts(p: IrPrimitive): SpecFacts {
  const typeName = p.kind === 'tool' ? typeNames.toolHandler(p) : p.kind === 'resource' ? typeNames.resourceHandler(p) : typeNames.promptHandler(p);
  const completeKeys = p.kind === 'resource' ? [...p.complete] : p.kind === 'prompt' ? p.arguments.filter((a) => a.complete).map((a) => a.name) : [];
  // The members `members` renders, by name.
  const members = p.kind === 'tool' ? [] : [...(p.kind === 'resource' ? ['read', ...(p.list ? ['list'] : [])] : p.messages === undefined ? ['get'] : []), ...(completeKeys.length > 0 ? ['complete'] : [])];
  return { kind: p.kind, name: p.name, path: handlerPath(p), id: p.id, typeName, completeKeys, members, ...(p.renamedFrom !== undefined ? { renamedFrom: p.renamedFrom } : {}) };
}

/**
 * A spec from its facts: the texts (stub, export, members' texts) are rendered on first use, which a
 * handler file kept as it is never asks for.
 */
function lazySpec(facts: SpecFacts, p: IrPrimitive): HandlerSpec {
  let full: HandlerSpec | undefined;
  const whole = () => (full ??= handlerSpec(p));
  // The fields in the order `handlerSpec` gives them, so that the spec's JSON (`specHash`) is the same.
  return {
    kind: facts.kind,
    name: facts.name,
    path: facts.path,
    id: facts.id,
    typeName: facts.typeName,
    get stub() {
      return whole().stub;
    },
    get exportStub() {
      return whole().exportStub;
    },
    members: facts.members.map((name, i) => ({
      name,
      get text() {
        return whole().members[i]!.text;
      },
    })),
    completeKeys: facts.completeKeys,
    ...(facts.renamedFrom !== undefined ? { renamedFrom: facts.renamedFrom } : {}),
  };
}

/** A handler file as emitted: its content is the stub, read only for a file to create. */
export interface HandlerFile extends EmittedFile {
  readonly handler: HandlerSpec;
  /** `specHash` of the spec (which renders its texts). */
  readonly specHash: string;
  /**
   * With the incremental cache, the key of the IR entry the spec follows from: a file the last run
   * reconciled with a spec of the same key is reconciled with the same spec (see `DiskRecord.handlers`).
   */
  readonly specKey?: string;
}

/**
 * The handler file of every primitive that needs one, with its spec. A spec reads its primitive's IR entry
 * alone: its texts, and its hash, are rendered only when asked for.
 */
function handlerFiles(ctx: EmitContext): HandlerFile[] {
  const all: IrPrimitive[] = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts];
  return all.filter(hasHandler).map((p) => {
    // The facts are a few names read off the IR entry: cheaper worked out again than read from the cache.
    const handler = lazySpec(specFacts(p), p);
    const key = ctx.fragments.entry(p);
    let hash: string | undefined;
    return {
      path: handler.path,
      get content() {
        return handler.stub;
      },
      owner: 'author' as const,
      handler,
      get specHash() {
        return (hash ??= specHash(handler));
      },
      ...(key ? { specKey: key.slice(0, 22) } : {}),
    };
  });
}

/** The handler spec of every primitive that needs a handler (see `handlerFiles`). */
export function handlerSpecs(ctx: EmitContext): HandlerSpec[] {
  return handlerFiles(ctx).map((f) => f.handler);
}

/** The stub file of every primitive that needs a handler (author-owned). */
export function emitHandlerStubs(ctx: EmitContext): HandlerFile[] {
  return handlerFiles(ctx);
}

/**
 * Emits `handlers.gen.ts`, which imports every handler file and assembles `Handlers`. It reads the kind
 * and name of every primitive with a handler (its identifier and path follow from them), and is laid out
 * again only when one changes.
 */
export function emitHandlerIndex(ctx: EmitContext): EmittedFile {
  const { tools, resources, prompts } = ctx.ir;
  const inputs = JSON.stringify([tools.map((t) => t.name), resources.filter(hasHandler).map((r) => r.name), prompts.filter(hasHandler).map((p) => p.name)]);
  return layout(ctx, 'handlers.gen.ts', inputs, handlerIndex);
}

/**
 * The content of `handlers.gen.ts`. Its imports and each kind's members are lists of the file
 * (emit/lists.ts): a primitive's line is rendered from the primitive and the name it is imported under
 * (which other primitives' identifiers decide), so adding or removing a primitive renders its lines only.
 */
function handlerIndex(ctx: EmitContext): string {
  const all: IrPrimitive[] = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts].filter(hasHandler);
  const local = handlerImportNames(all);
  /** The lines of `entries` (one unit each), each ended by a line break; empty when there are none. */
  const lines = (name: string, entries: readonly IrPrimitive[], line: (p: IrPrimitive) => string): string => {
    const list = ctx.fragments.list(name, '\n');
    for (const p of entries) list.add(ctx.fragments.key(name, p, local(p)), () => ({ text: line(p) }));
    const text = list.done();
    return list.empty ? '' : `${text}\n`;
  };
  const imports = lines('handlers.imports', all, (p) => importStatement([local(p) === p.id ? p.id : `${p.id} as ${local(p)}`], handlerImportPath(p)));
  /** A kind's members: shorthand when the local name is the identifier. */
  const group = (kind: IrPrimitive['kind']) => lines(`handlers.${kind}s`, all.filter((p) => p.kind === kind), (p) => (local(p) === p.id ? `    ${p.id},` : `    ${p.id}: ${local(p)},`));
  return ctx.text.tidy(
    [
      `${tsHeader(ctx.ir.manifestName)}\n`,
      '// Collects the handler files under handlers/ (yours to edit) into the object the server is built from.\n',
      imports,
      "import type { Handlers } from './types.gen.js';\n",
      '\n',
      '/** Every handler of the server, as written in handlers/. */\n',
      'export const handlers: Handlers = {\n',
      `  tools: {\n${group('tool')}  },\n`,
      `  resources: {\n${group('resource')}  },\n`,
      `  prompts: {\n${group('prompt')}  },\n`,
      '};\n',
    ].join(''),
  );
}

/** Emits `main.gen.ts`, the entry point: stdio by default, Streamable HTTP with `--http`. */
export function emitMain(ctx: EmitContext): EmittedFile {
  const content = render('main.ts', { header: tsHeader(ctx.ir.manifestName) });
  return { path: 'main.gen.ts', content: tidy(content), owner: 'generator' };
}
