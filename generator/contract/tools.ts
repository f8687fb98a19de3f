/** The contract of a tool: its listing (annotations, published input with control arguments) and its gates. */
import type { IrTool, JsonSchema } from '../ir/types.js';
import { controlArgumentsOf, type ControlArgument } from '../runtime/control.js';
import { baseListing, stewardshipOf } from './base.js';
import { lazily } from './lazy.js';
import type { SchemaGraph } from './schemaGraph.js';
import type { ToolAnnotations, ToolContract } from './types.js';

/**
 * The annotations a tool publishes: the hints `sideEffect`, `idempotency` and `openWorld` derive,
 * overridden by the ones its `annotations:` block writes (checked not to contradict them, MG307);
 * a hint written `~` is left out, and `annotations.title` comes first as the block spells it.
 */
export function deriveAnnotations(t: Pick<IrTool, 'sideEffect' | 'idempotency' | 'openWorld' | 'annotations'>): ToolAnnotations {
  const idempotent = t.sideEffect === 'read' || t.idempotency !== 'none';
  const derived: Record<string, unknown> = {
    ...(t.annotations?.title !== undefined ? { title: t.annotations.title } : {}),
    readOnlyHint: t.sideEffect === 'read',
    ...(t.sideEffect !== 'read' ? { destructiveHint: t.sideEffect === 'irreversible' } : {}),
    ...(idempotent ? { idempotentHint: true } : {}),
    ...(t.openWorld !== undefined ? { openWorldHint: t.openWorld } : {}),
  };
  for (const [hint, value] of Object.entries(t.annotations ?? {})) {
    if (hint === 'title') continue;
    if (value === null) delete derived[hint];
    else derived[hint] = value;
  }
  return derived as unknown as ToolAnnotations;
}

/**
 * The input schema a tool publishes: its declared input plus the control arguments its gates read.
 * Handlers never see them in their input; the runtime takes them out (see runtime/control.ts).
 * An argument the author's schema already declares keeps the author's definition.
 */
export function withControls(input: JsonSchema, controls: readonly ControlArgument[]): JsonSchema {
  if (controls.length === 0 || typeof input !== 'object') return input;
  const properties = { ...((input['properties'] ?? {}) as Record<string, unknown>) };
  const required = [...((input['required'] ?? []) as string[])];
  for (const c of controls) {
    if (c.name in properties) continue;
    properties[c.name] = c.schema;
    if (c.required && !required.includes(c.name)) required.push(c.name);
  }
  return { ...input, properties, required };
}

/**
 * Computes a tool's contract. Its published schemas (`input`, `output` and the listing's `inputSchema`
 * and `outputSchema`) are computed when first read (see lazy.ts), in their places in the key order.
 */
export function toolContract(graph: SchemaGraph, t: IrTool, listed: readonly string[]): ToolContract {
  const input = (): JsonSchema => graph.publish(t.input);
  const output = t.output;
  const controls = controlArgumentsOf(t);
  const annotations = deriveAnnotations(t);
  const listing: Record<string, unknown> = baseListing(t, listed) as unknown as Record<string, unknown>;
  lazily(listing, 'inputSchema', () => withControls(input(), controls));
  if (output !== undefined) lazily(listing, 'outputSchema', () => graph.publish(output));
  // Every hint left out (`~`) and no title: the tool is listed without `annotations`, as many servers are.
  if (Object.keys(annotations).length > 0) listing['annotations'] = annotations;
  if (t._meta !== undefined) listing['_meta'] = t._meta;
  const contract: Record<string, unknown> = { kind: 'tool', name: t.name, ir: t, scopes: t.scopes, ...stewardshipOf(t), listing };
  lazily(contract, 'input', input);
  if (output !== undefined) lazily(contract, 'output', () => graph.publish(output));
  contract['controls'] = controls;
  contract['sideEffect'] = t.sideEffect;
  contract['idempotency'] = t.idempotency;
  contract['approval'] = t.approval;
  if (t.timeoutMs !== undefined) contract['timeoutMs'] = t.timeoutMs;
  return contract as unknown as ToolContract;
}
