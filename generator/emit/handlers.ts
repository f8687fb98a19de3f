/**
 * Emits the handler wiring (`handlers.gen.ts`, regenerated) and one stub per
 * primitive under `handlers/` (the author's: written once, never overwritten).
 */
import type { IrPrimitive, IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { typeSuffix } from '../ir/names.js';
import { type EmitContext, type EmittedFile, handlerPath, hasHandler, render, tidy } from './context.js';
import { jsdoc, key, lit, tsHeader } from './text.js';

const KIND_LABEL = { tool: 'Tool', resource: 'Resource', prompt: 'Prompt' } as const;

function summary(p: IrPrimitive): string[] {
  const lines: string[] = [`${p.kind === 'tool' ? 'Tool' : p.kind === 'resource' ? 'Resource' : 'Prompt'} \`${p.name}\`${p.title ? `: ${p.title}` : ''}.`];
  if (p.description) lines.push(p.description);
  if (p.kind === 'tool') {
    const facts = [`Side effect: ${p.sideEffect}.`];
    if (p.scopes.length) facts.push(`Scopes: ${p.scopes.join(', ')}.`);
    if (p.idempotency === 'required') facts.push('Calls carry an idempotency key.');
    if (p.approval === 'required') facts.push('Runs only with an approval.');
    lines.push(facts.join(' '));
    lines.push('Return the structured output, or throw `new ToolError(message)` for a failure the model should see.');
  } else if (p.kind === 'resource') {
    lines.push(`URI: ${p.uri ?? p.uriTemplate} (${p.mimeType}).${p.scopes.length ? ` Scopes: ${p.scopes.join(', ')}.` : ''}`);
    lines.push('Throw `resourceNotFound()` when the addressed instance does not exist.');
  }
  return lines;
}

function toolStub(t: IrTool): string {
  return render('handler-tool.ts', {
    doc: jsdoc(summary(t)),
    id: t.id,
    type: `${t.typeBase}${typeSuffix.toolHandler}`,
    name: lit(t.name),
  });
}

function resourceStub(r: IrResource): string {
  return render('handler-resource.ts', {
    doc: jsdoc(summary(r)),
    id: r.id,
    type: `${r.typeBase}${typeSuffix.resourceHandler}`,
    name: lit(r.name),
    templated: r.uriTemplate !== undefined,
    list: r.list,
    complete: r.complete.map((v) => key(v)),
  });
}

function promptStub(p: IrPrompt): string {
  return render('handler-prompt.ts', {
    doc: jsdoc(summary(p)),
    id: p.id,
    type: `${p.typeBase}${typeSuffix.promptHandler}`,
    name: lit(p.name),
    get: p.messages === undefined,
    complete: p.arguments.filter((a) => a.complete).map((a) => key(a.name)),
  });
}

/** The stub file of every primitive that needs a handler (author-owned). */
export function emitHandlerStubs(ctx: EmitContext): EmittedFile[] {
  const all: IrPrimitive[] = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts];
  return all.filter(hasHandler).map((p) => ({
    path: handlerPath(p),
    content: tidy(p.kind === 'tool' ? toolStub(p) : p.kind === 'resource' ? resourceStub(p) : promptStub(p)),
    owner: 'author' as const,
  }));
}

/** Emits `handlers.gen.ts`, which imports every handler file and assembles `Handlers`. */
export function emitHandlerIndex(ctx: EmitContext): EmittedFile {
  const all: IrPrimitive[] = [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts].filter(hasHandler);
  const counts = new Map<string, number>();
  for (const p of all) counts.set(p.id, (counts.get(p.id) ?? 0) + 1);
  const local = (p: IrPrimitive): string => (counts.get(p.id)! > 1 || p.id === 'handlers' ? `${p.id}${KIND_LABEL[p.kind]}` : p.id);
  const imports = all.map((p) => {
    const alias = local(p) === p.id ? p.id : `${p.id} as ${local(p)}`;
    return `import { ${alias} } from './${handlerPath(p).replace(/\.ts$/, '.js')}';`;
  });
  const group = (kind: IrPrimitive['kind']): string[] =>
    all.filter((p) => p.kind === kind).map((p) => (local(p) === p.id ? `    ${p.id},` : `    ${p.id}: ${local(p)},`));
  const content = render('handlers-index.ts', {
    header: tsHeader(ctx.ir.manifestName),
    imports,
    tools: group('tool'),
    resources: group('resource'),
    prompts: group('prompt'),
  });
  return { path: 'handlers.gen.ts', content: tidy(content), owner: 'generator' };
}

/** Emits `main.gen.ts`, the entry point: stdio by default, Streamable HTTP with `--http`. */
export function emitMain(ctx: EmitContext): EmittedFile {
  const content = render('main.ts', { header: tsHeader(ctx.ir.manifestName) });
  return { path: 'main.gen.ts', content: tidy(content), owner: 'generator' };
}
