/**
 * Types shared by generated code: the static spec of each primitive (written
 * by the generator next to each registration) and the handler signatures the
 * generated `types.gen.ts` builds on.
 */
import type { CallToolResult, ContentBlock, InputRequiredResult, PromptMessage } from '@modelcontextprotocol/server';
import type { HandlerContext } from './context.js';
import type { JsonStandardSchema } from './schema/jsonSchema.js';
import type { ParamsValidator } from './schema/params.js';
import type { PromptArgsSchema } from './schema/promptArgs.js';

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** Static facts about one tool, from the manifest. */
export interface ToolSpec {
  readonly name: string;
  /** True when the tool declares `output`: the handler returns the structured value. */
  readonly output: boolean;
  readonly timeoutMs?: number;
  readonly scopes: readonly string[];
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
  /** The handler's input schema, checked after the scope gate (the SDK gets a pass-through, see `gated`). */
  readonly input?: JsonStandardSchema<unknown>;
  /** The output schema, checked before a result is stored for idempotent replay. */
  readonly outputSchema?: JsonStandardSchema<unknown>;
}

/** Static facts about one resource (fixed or template), from the manifest. */
export interface ResourceSpec {
  readonly name: string;
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly mimeType: string;
  /** Served as `text` (true) or as a base64 `blob` (false). */
  readonly textual: boolean;
  /** Non-string handler results are serialized with `JSON.stringify`. */
  readonly json: boolean;
  /** The manifest's `schema:`; content is validated against it on every read. */
  readonly content?: JsonStandardSchema<unknown>;
  /** Template variables' validator (template resources only). */
  readonly params?: ParamsValidator<unknown>;
  readonly scopes: readonly string[];
  /** Size budget of one read in bytes (UTF-8 text, decoded blob); a read over it is refused. */
  readonly maxBytes?: number;
  /** The 2026-07-28 cache hint of reads, as the manifest declares it (see `readCacheHint`). */
  readonly cache?: ResourceCache;
  /** `_meta` of every contents entry: the declared revision and lastModified. */
  readonly meta?: Readonly<Record<string, string>>;
  /** Data classification, passed to the `authorize` hook. */
  readonly classification?: 'public' | 'internal' | 'confidential' | 'restricted';
  /** Who may receive the content, passed to the `authorize` hook. */
  readonly audience?: readonly string[];
}

/** The 2026-07-28 cache fields of a cacheable result. */
export interface ResourceCache {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** Static facts about one prompt, from the manifest. */
export interface PromptSpec {
  readonly name: string;
  /** Prompt arguments are validated after the scope gate (the SDK gets a pass-through, see `gated`). */
  readonly args?: PromptArgsSchema<unknown>;
  readonly scopes: readonly string[];
}

/** A tool handler: validated input in, output (or a {@link ToolReturn}) out. */
/**
 * What a handler function resolves to. A stub declares `Promise<Returns<TicketsGetTool>>` as its return type,
 * so after a schema change the compiler reports each `return` that no longer fits, on its own line, instead
 * of one nested message at the declaration.
 */
export type Returns<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

export type ToolHandler<I, O = ToolReturn> = (input: I, ctx: HandlerContext) => Awaitable<O>;

/** What a tool without `output` may return: text, content blocks, or a whole result. */
export type ToolReturn = string | readonly ContentBlock[] | CallToolResult | InputRequiredResult;

/** What a resource handler returns: text, a JSON value (when the resource is JSON) or bytes (binary resources). */
export type ResourceValue = string | Uint8Array | unknown;

/** Handler of a fixed-URI resource. */
export interface FixedResourceHandler<C = ResourceValue> {
  read(ctx: HandlerContext): Awaitable<C>;
}

/** One concrete instance of a template resource, for `resources/list`. */
export interface ResourceListing<P> {
  readonly params: P;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
}

/** Completers keyed by argument or template variable name (passed on to `installCompletions`). */
export type Completers<A> = { readonly [K in keyof A & string]?: Completer<A> };

/** Handler of a template resource. `list` exists when the manifest says `list: true`, `complete` when it lists `complete:` variables. */
export interface TemplateResourceHandler<P, C = ResourceValue> {
  read(params: P, ctx: HandlerContext): Awaitable<C>;
  list?(ctx: HandlerContext): Awaitable<readonly ResourceListing<P>[]>;
  readonly complete?: Completers<P>;
}

/** Suggests values for one argument or template variable (at most 100 are sent). */
export type Completer<A = Record<string, string>> = (
  value: string,
  context: { readonly arguments: Partial<Record<keyof A & string, string>> },
  ctx: HandlerContext,
) => Awaitable<readonly string[]>;

/** A text message in shorthand form. */
export interface PromptTextMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/**
 * What a prompt handler returns: one user message, a list of messages, a whole result, or an
 * `inputRequired(...)` result asking the client for input first (2026-07-28).
 */
export type PromptReturn =
  | string
  | readonly (PromptTextMessage | PromptMessage)[]
  | { readonly description?: string; readonly messages: readonly (PromptTextMessage | PromptMessage)[] }
  | InputRequiredResult;

/** Handler of a prompt without a static template (`complete` when arguments say `complete: true`). */
export interface PromptHandler<A> {
  get(args: A, ctx: HandlerContext): Awaitable<PromptReturn>;
  readonly complete?: Completers<A>;
}
