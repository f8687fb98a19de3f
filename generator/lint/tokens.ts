/**
 * The context cost of a primitive as the catalog puts it before a model: its name, title and description
 * and its schemas with named references inlined, at about 4 characters a token. MG723 sums it over the
 * tools; the contract cards print it for every primitive, so both always agree.
 */
import type { IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import { inlineNamed } from './schema-walk.js';

/** The named schemas by key, as `inlineNamed` follows them. */
export type NamedSchemas = ReadonlyMap<string, JsonSchema>;

/** Tokens of some text and schemas: characters (schemas as compact JSON, named references inlined) / 4, rounded up. */
export function contextTokens(texts: readonly (string | undefined)[], schemas: readonly unknown[], named: NamedSchemas): number {
  let chars = 0;
  for (const t of texts) chars += t?.length ?? 0;
  for (const s of schemas) chars += JSON.stringify(inlineNamed(s, named)).length;
  return Math.ceil(chars / 4);
}

/** A tool: name, title, description and input schema (what MG723 budgets). */
export function toolTokens(t: IrTool, named: NamedSchemas): number {
  return contextTokens([t.name, t.title, t.description], [t.input], named);
}

/** A resource: name, title, description, URI or template and template variable schemas (its listing). */
export function resourceTokens(r: IrResource, named: NamedSchemas): number {
  return contextTokens([r.name, r.title, r.description, r.uri ?? r.uriTemplate], r.params.map((p) => p.schema), named);
}

/** A prompt: name, title, description and argument schemas and descriptions (its listing). */
export function promptTokens(p: IrPrompt, named: NamedSchemas): number {
  return contextTokens([p.name, p.title, p.description, ...p.arguments.flatMap((a) => [a.name, a.description])], p.arguments.map((a) => a.schema), named);
}
