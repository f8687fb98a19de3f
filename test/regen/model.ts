/**
 * An abstract manifest for the regeneration property test: tools with object
 * input/output schemas, fixed and templated resources, prompts with and
 * without messages and completions. fast-check draws the first version
 * (shrinkable); `render` turns any version into a manifest file.
 */
import fc from 'fast-check';
import { toIdentifier, toTypeName } from '../../generator/ir/names.js';

/** The type of one schema property. */
export type PType =
  | { readonly t: 'string' }
  | { readonly t: 'integer' }
  | { readonly t: 'boolean' }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  | { readonly t: 'array'; readonly items: PType }
  | { readonly t: 'object'; readonly obj: Obj };

export interface Prop {
  readonly name: string;
  readonly type: PType;
  readonly required: boolean;
}

/** An object schema; `closed` means `additionalProperties: false`. */
export interface Obj {
  readonly props: readonly Prop[];
  readonly closed: boolean;
}

export interface Tool {
  readonly kind: 'tool';
  readonly name: string;
  readonly sideEffect: 'read' | 'write' | 'irreversible';
  readonly input?: Obj;
  readonly output?: Obj;
  readonly renamedFrom?: string;
}

export interface Resource {
  readonly kind: 'resource';
  readonly name: string;
  /** Template variables; none for a fixed URI. */
  readonly vars: readonly string[];
  readonly list: boolean;
  readonly complete: readonly string[];
  readonly renamedFrom?: string;
}

export interface PromptArg {
  readonly name: string;
  readonly required: boolean;
  readonly complete: boolean;
  readonly type: 'string' | 'integer' | 'boolean';
}

export interface Prompt {
  readonly kind: 'prompt';
  readonly name: string;
  readonly args: readonly PromptArg[];
  readonly messages: boolean;
  readonly renamedFrom?: string;
}

export type Primitive = Tool | Resource | Prompt;

export interface Model {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly prompts: readonly Prompt[];
}

export const WORDS = ['ticket', 'order', 'user', 'note', 'item', 'refund', 'slot', 'book', 'file', 'page', 'task', 'event', 'queue', 'metric', 'report', 'invoice', 'search', 'create', 'update', 'close', 'send', 'sync', 'fetch', 'tag', 'label', 'get', 'delete', 'list', 'default', 'class'];
export const PROP_NAMES = ['id', 'name', 'count', 'enabled', 'status', 'tags', 'meta', 'first-name', 'limit', 'query', 'note', 'level', 'dryRun', 'page_size', 'when', 'x'];
export const ENUM_VALUES = ['low', 'mid', 'high', 'open', 'closed', 'draft', 'a-b', 'zed'];
export const VAR_NAMES = ['id', 'day', 'owner', 'slug'];

/** A primitive name: one or two words joined by `.`, `_` or `-`. */
export const nameArb = fc
  .tuple(fc.constantFrom(...WORDS), fc.option(fc.tuple(fc.constantFrom('.', '_', '-'), fc.constantFrom(...WORDS)), { nil: undefined }))
  .map(([a, rest]) => (rest ? `${a}${rest[0]}${rest[1]}` : a));

const leafArb: fc.Arbitrary<PType> = fc.oneof(
  fc.constant({ t: 'string' as const }),
  fc.constant({ t: 'integer' as const }),
  fc.constant({ t: 'boolean' as const }),
  fc.uniqueArray(fc.constantFrom(...ENUM_VALUES), { minLength: 1, maxLength: 3 }).map((values) => ({ t: 'enum' as const, values })),
);

export function typeArb(depth: number): fc.Arbitrary<PType> {
  const array = leafArb.map((items) => ({ t: 'array' as const, items }));
  return depth <= 0 ? fc.oneof({ weight: 4, arbitrary: leafArb }, { weight: 1, arbitrary: array }) : fc.oneof({ weight: 4, arbitrary: leafArb }, { weight: 1, arbitrary: array }, { weight: 1, arbitrary: objArb(depth - 1).map((obj) => ({ t: 'object' as const, obj })) });
}

export function objArb(depth: number): fc.Arbitrary<Obj> {
  return fc.record({
    props: fc.uniqueArray(fc.record({ name: fc.constantFrom(...PROP_NAMES), type: typeArb(depth), required: fc.boolean() }), { selector: (p) => p.name, maxLength: 4 }),
    closed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  });
}

const toolArb: fc.Arbitrary<Tool> = fc.record(
  {
    kind: fc.constant('tool' as const),
    name: nameArb,
    sideEffect: fc.constantFrom('read' as const, 'write' as const, 'irreversible' as const),
    input: objArb(2),
    output: objArb(1),
  },
  { requiredKeys: ['kind', 'name', 'sideEffect'] },
);

const resourceArb: fc.Arbitrary<Resource> = fc
  .record({ name: nameArb, vars: fc.uniqueArray(fc.constantFrom(...VAR_NAMES), { maxLength: 2 }), list: fc.boolean(), completeMask: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }) })
  .map(({ name, vars, list, completeMask }) => ({ kind: 'resource' as const, name, vars, list: vars.length > 0 && list, complete: vars.filter((_, i) => completeMask[i]) }));

const promptArb: fc.Arbitrary<Prompt> = fc.record({
  kind: fc.constant('prompt' as const),
  name: nameArb,
  args: fc
    .uniqueArray(fc.record({ name: fc.constantFrom(...PROP_NAMES.filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))), required: fc.boolean(), complete: fc.boolean(), type: fc.constantFrom('string' as const, 'integer' as const, 'boolean' as const) }), { selector: (a) => a.name, maxLength: 3 })
    .map((args) => args.map((a) => ({ ...a, complete: a.complete && a.type === 'string' }))),
  messages: fc.boolean(),
});

/** A whole first manifest version: 1–4 tools, 0–3 resources, 0–3 prompts; identifiers unique per kind. */
export const modelArb: fc.Arbitrary<Model> = fc.record({
  tools: fc.uniqueArray(toolArb, { minLength: 1, maxLength: 4, selector: (t) => toIdentifier(t.name) }),
  resources: fc.uniqueArray(resourceArb, { maxLength: 3, selector: (r) => toIdentifier(r.name) }),
  prompts: fc.uniqueArray(promptArb, { maxLength: 3, selector: (p) => toIdentifier(p.name) }),
});

export const idOf = (name: string): string => toIdentifier(name);
export const typeBaseOf = (name: string): string => toTypeName(name);

/** The handler type name of a primitive (`<Base>Tool`, `<Base>Resource`, `<Base>Prompt`). */
export function handlerTypeOf(p: Primitive): string {
  return `${typeBaseOf(p.name)}${p.kind === 'tool' ? 'Tool' : p.kind === 'resource' ? 'Resource' : 'Prompt'}`;
}

/** Whether the primitive has a handler file (mirrors generator/emit/context.ts). */
export function needsHandler(p: Primitive): boolean {
  if (p.kind === 'prompt') return !p.messages || p.args.some((a) => a.complete);
  return true;
}

export function handlerPathOf(p: Primitive): string {
  return `handlers/${p.kind}s/${idOf(p.name)}.ts`;
}

function schemaOf(t: PType): unknown {
  switch (t.t) {
    case 'string':
    case 'integer':
    case 'boolean':
      return { type: t.t };
    case 'enum':
      return { enum: [...t.values] };
    case 'array':
      return { type: 'array', items: schemaOf(t.items) };
    case 'object':
      return objSchema(t.obj);
  }
}

export function objSchema(o: Obj): unknown {
  const required = o.props.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(o.props.map((p) => [p.name, schemaOf(p.type)])),
    ...(required.length ? { required } : {}),
    ...(o.closed ? { additionalProperties: false } : {}),
  };
}

const uriSlug = (name: string): string => name.replace(/[^a-z0-9]+/gi, '-');
const LINT_OFF = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`MG${701 + i}`, 'off']));

/** The manifest of a model version (JSON, which is YAML). */
export function render(m: Model): string {
  const manifest = {
    mcpgen: 1,
    server: { name: 'regen', version: '0.1.0' },
    tools: Object.fromEntries(
      m.tools.map((t) => [
        t.name,
        {
          sideEffect: t.sideEffect,
          ...(t.renamedFrom !== undefined ? { renamedFrom: t.renamedFrom } : {}),
          ...(t.input ? { input: objSchema(t.input) } : {}),
          ...(t.output ? { output: objSchema(t.output) } : {}),
        },
      ]),
    ),
    ...(m.resources.length
      ? {
          resources: Object.fromEntries(
            m.resources.map((r) => [
              r.name,
              {
                ...(r.renamedFrom !== undefined ? { renamedFrom: r.renamedFrom } : {}),
                ...(r.vars.length
                  ? {
                      uriTemplate: `regen://${uriSlug(r.name)}/${r.vars.map((v) => `{${v}}`).join('/')}`,
                      mimeType: 'application/json',
                      params: Object.fromEntries(r.vars.map((v) => [v, { type: 'string' }])),
                      ...(r.list ? { list: true } : {}),
                      ...(r.complete.length ? { complete: [...r.complete] } : {}),
                    }
                  : { uri: `regen://${uriSlug(r.name)}`, mimeType: 'text/plain' }),
              },
            ]),
          ),
        }
      : {}),
    ...(m.prompts.length
      ? {
          prompts: Object.fromEntries(
            m.prompts.map((p) => [
              p.name,
              {
                ...(p.renamedFrom !== undefined ? { renamedFrom: p.renamedFrom } : {}),
                arguments: Object.fromEntries(
                  p.args.map((a) => [a.name, { description: `The ${a.name}.`, required: a.required, ...(a.type !== 'string' ? { schema: { type: a.type } } : {}), ...(a.complete ? { complete: true } : {}) }]),
                ),
                ...(p.messages ? { messages: [{ role: 'user', text: p.args.length ? `About {{${p.args[0]!.name}}}.` : 'Hello.' }] } : {}),
              },
            ]),
          ),
        }
      : {}),
    lint: { rules: LINT_OFF },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
