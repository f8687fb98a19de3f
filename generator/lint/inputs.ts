/**
 * The subschemas of every tool input, walked once per lint run and shared by the rules that need them,
 * with the owning tool attached so its waivers apply even when the node sits
 * in a shared named schema.
 */
import type { IrTool } from '../ir/types.js';
import { walkSchema, type SchemaNode } from './schema-walk.js';
import type { LintContext, PrimitiveRef } from './types.js';

/** One input subschema and the tool that publishes it. */
export interface InputNode extends SchemaNode {
  readonly tool: IrTool;
  readonly owner: PrimitiveRef;
}

/** Every subschema of every tool input, tools in manifest order (walked once per lint run, kept in its context). */
export function inputNodes(ctx: LintContext): readonly InputNode[] {
  return (ctx.memo.inputNodes ??= ctx.ir.tools.flatMap((tool) =>
    walkSchema(tool.input, ['tools', tool.name, 'input'], ctx.named).map((n) => ({ ...n, tool, owner: { kind: 'tools', name: tool.name } as const })),
  ));
}

/** How to name a node in a message: its property name, or its place under the nearest property. */
export function nodeLabel(n: InputNode): string {
  const tool = `\`${n.tool.name}\``;
  if (n.property !== undefined) return `input \`${n.property}\` of ${tool}`;
  const i = n.path.lastIndexOf('properties');
  if (i >= 0 && i + 1 < n.path.length) return `\`${n.path.slice(i + 2).join('.')}\` of input \`${String(n.path[i + 1])}\` of ${tool}`;
  if (n.path[0] === 'tools' && n.path.length === 3) return `the input of ${tool}`;
  return `\`${n.path.join('.')}\` in the input of ${tool}`;
}
