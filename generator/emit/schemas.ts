/**
 * Emits `schemas.gen.ts`: every published schema as a module-level constant
 * wrapped in a lazily compiling validator, so a thousand tools cost nothing at
 * start-up and nothing is ever compiled per request.
 */
import type { IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import { typeSuffix } from '../ir/names.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { lit, tsHeader } from './text.js';

/** The constant names used for a primitive's schemas in `schemas.gen.ts`. */
export const schemaConst = {
  toolInput: (t: IrTool) => `${t.id}Input`,
  toolOutput: (t: IrTool) => `${t.id}Output`,
  resourceParams: (r: IrResource) => `${r.id}Params`,
  resourceContent: (r: IrResource) => `${r.id}Content`,
  promptArgs: (p: IrPrompt) => `${p.id}Args`,
};

interface Entry {
  readonly doc: string;
  readonly name: string;
  readonly expr: string;
}

/** The runtime's names for the control arguments (see `IDEMPOTENCY_FIELD` / `APPROVAL_FIELD` in the runtime). */
export const controlField = { idempotency: 'idempotencyKey', approval: 'approvalReceipt' } as const;

/**
 * The input schema a tool publishes: its manifest input plus the control arguments the gates read
 * (`idempotencyKey`, required, for `idempotency: required`; `approvalReceipt`, optional, for
 * `approval: required`). Handlers never see them in their input; the runtime strips them.
 */
export function publishedToolInput(ctx: EmitContext, t: IrTool): JsonSchema {
  const input = ctx.graph.publish(t.input);
  if ((t.idempotency !== 'required' && t.approval !== 'required') || typeof input !== 'object') return input;
  const obj = input as Record<string, unknown>;
  const properties = { ...((obj['properties'] ?? {}) as Record<string, unknown>) };
  const required = [...((obj['required'] ?? []) as string[])];
  if (t.idempotency === 'required' && !(controlField.idempotency in properties)) {
    properties[controlField.idempotency] = {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[!-~]+$',
      description: 'Unique key of this operation. Retrying with the same key and the same input returns the first result without repeating the effect; a new operation needs a new key.',
    };
    if (!required.includes(controlField.idempotency)) required.push(controlField.idempotency);
  }
  if (t.approval === 'required' && !(controlField.approval in properties)) {
    properties[controlField.approval] = {
      type: 'string',
      minLength: 1,
      description: 'Approval receipt for this exact call, issued by the approval system. Without it, the server asks the user to confirm through the client.',
    };
  }
  return { ...obj, properties, required };
}

function toolEntries(ctx: EmitContext, t: IrTool): Entry[] {
  const input = ctx.graph.publish(t.input);
  const published = publishedToolInput(ctx, t);
  const advertised = published === input ? '' : `, { advertised: ${lit(published)} }`;
  const out: Entry[] = [
    {
      doc: `Input schema of tool \`${t.name}\`${advertised ? ' (validated as declared; published with the control arguments of its gates)' : ''}.`,
      name: schemaConst.toolInput(t),
      expr: `jsonSchema<T.${t.typeBase}${typeSuffix.toolInput}>(${lit(input)}${advertised})`,
    },
  ];
  if (t.output !== undefined) {
    out.push({
      doc: `Output schema of tool \`${t.name}\`.`,
      name: schemaConst.toolOutput(t),
      expr: `jsonSchema<T.${t.typeBase}${typeSuffix.toolOutput}>(${lit(ctx.graph.publish(t.output))})`,
    });
  }
  return out;
}

function resourceEntries(ctx: EmitContext, r: IrResource): Entry[] {
  const out: Entry[] = [];
  if (r.uriTemplate !== undefined) {
    const params = Object.fromEntries(r.params.map((p) => [p.name, ctx.graph.publish(p.schema)]));
    const type = r.source === undefined ? `T.${r.typeBase}${typeSuffix.resourceParams}` : 'Record<string, unknown>';
    out.push({ doc: `Template variables of resource \`${r.name}\`.`, name: schemaConst.resourceParams(r), expr: `paramsValidator<${type}>(${lit(params)})` });
  }
  if (r.schema !== undefined) {
    out.push({
      doc: `Content schema of resource \`${r.name}\`.`,
      name: schemaConst.resourceContent(r),
      expr: `jsonSchema<T.${r.typeBase}${typeSuffix.resourceContent}>(${lit(ctx.graph.publish(r.schema))})`,
    });
  }
  return out;
}

function promptEntries(ctx: EmitContext, p: IrPrompt): Entry[] {
  const args = p.arguments.map((a) => ({
    name: a.name,
    ...(a.description !== undefined ? { description: a.description } : {}),
    required: a.required,
    schema: ctx.graph.publish(a.schema),
  }));
  return [
    {
      doc: `Arguments of prompt \`${p.name}\`.`,
      name: schemaConst.promptArgs(p),
      expr: `promptArgsSchema<T.${p.typeBase}${typeSuffix.promptArgs}>(${lit(args)})`,
    },
  ];
}

/** Emits `schemas.gen.ts`. */
export function emitSchemas(ctx: EmitContext): EmittedFile {
  const entries = [
    ...ctx.ir.tools.flatMap((t) => toolEntries(ctx, t)),
    ...ctx.ir.resources.flatMap((r) => resourceEntries(ctx, r)),
    ...ctx.ir.prompts.flatMap((p) => promptEntries(ctx, p)),
  ];
  const content = render('schemas.ts', { header: tsHeader(ctx.ir.manifestName), entries });
  return { path: 'schemas.gen.ts', content: tidy(content), owner: 'generator' };
}
