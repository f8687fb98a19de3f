/** The contract of a prompt: its listing and argument schemas, built once for server, lock and client. */
import type { IrPrompt } from '../ir/types.js';
import { baseListing, stewardshipOf } from './base.js';
import { lazily } from './lazy.js';
import type { SchemaGraph } from './schemaGraph.js';
import type { PromptContract } from './types.js';

/** Computes a prompt's contract; its arguments' published schemas when first read (see lazy.ts). */
export function promptContract(graph: SchemaGraph, p: IrPrompt, listed: readonly string[]): PromptContract {
  const args = p.arguments.map((a) => {
    const arg: Record<string, unknown> = { name: a.name, ...(a.description !== undefined ? { description: a.description } : {}), required: a.required };
    lazily(arg, 'schema', () => graph.publish(a.schema));
    arg['complete'] = a.complete;
    return arg as unknown as PromptContract['arguments'][number];
  });
  return {
    kind: 'prompt',
    name: p.name,
    ir: p,
    scopes: p.scopes,
    ...stewardshipOf(p),
    listing: {
      ...baseListing(p, listed),
      ...(p.listsArguments ? { arguments: args.map(({ name, description, required }) => ({ name, ...(description !== undefined ? { description } : {}), required })) } : {}),
      ...(p._meta !== undefined ? { _meta: p._meta } : {}),
    },
    arguments: args,
    ...(p.messages !== undefined ? { messages: p.messages } : {}),
  };
}
