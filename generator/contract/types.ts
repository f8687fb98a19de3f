/**
 * The contract: everything a client can observe of a server, computed once from the IR by
 * `buildContract`. The server registers these listings, the lock records them, the cards describe
 * them, the client is typed from them and `diff` compares them. The contract suites check the
 * server against the manifest's declared values instead, so a wrong derivation here fails them.
 */
import type { ControlArgument } from '../runtime/control.js';
import type { IrIcon, IrPrompt, IrPromptMessage, IrResource, IrTool, JsonSchema, SideEffect } from '../ir/types.js';
import type { SchemaGraph } from './schemaGraph.js';
import type { CacheHint, ListCacheHints } from './cache.js';
import type { Stewardship } from './base.js';

/** What every listing entry shows of the primitive base (see `baseListing`). */
export interface BaseListing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly IrIcon[];
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** The part of a contract every kind shares: which primitive, who may use it. */
export interface PrimitiveContract<K extends string, P> extends Stewardship {
  readonly kind: K;
  /** The MCP name (`tickets.get`). */
  readonly name: string;
  /** The IR primitive it was computed from (names, location, examples, handler facts). */
  readonly ir: P;
  readonly scopes: readonly string[];
}

/**
 * Tool annotations as published: the explicit `annotations:` block (title and hints as written),
 * completed by the hints `sideEffect`, `idempotency` and `openWorld` derive.
 */
export interface ToolAnnotations {
  readonly title?: string;
  /** Absent only when the block writes `readOnlyHint: ~`. */
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A tool's entry in `tools/list`. */
export interface ToolListing extends BaseListing {
  /** The input schema as published: the declared input plus the tool's control arguments. */
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  /** Absent when every hint is left out and there is no title. */
  readonly annotations?: ToolAnnotations;
}

/** A tool: what `tools/list` shows, what a call is validated against and the gates it passes. */
export interface ToolContract extends PrimitiveContract<'tool', IrTool> {
  readonly listing: ToolListing;
  /** The declared input, self-contained: what the handler's input is validated against. */
  readonly input: JsonSchema;
  readonly output?: JsonSchema;
  /** The control arguments a call carries besides the input, in publication order. */
  readonly controls: readonly ControlArgument[];
  readonly sideEffect: SideEffect;
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
  readonly timeoutMs?: number;
}

/** A resource's entry in `resources/list` (fixed URI) or `resources/templates/list` (template). */
export interface ResourceListing extends BaseListing {
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly mimeType: string;
  readonly size?: number;
  readonly annotations?: IrResource['annotations'];
}

/** How a resource's content travels. */
export interface ContentRules {
  readonly mimeType: string;
  /** Served as `text` (otherwise as a base64 `blob`). */
  readonly textual: boolean;
  /** JSON content: handler values are serialized with `JSON.stringify` and clients decode them. */
  readonly json: boolean;
  /** The schema JSON content satisfies, self-contained. */
  readonly schema?: JsonSchema;
}

/** A resource: its listing, its template variables and its content rules. */
export interface ResourceContract extends PrimitiveContract<'resource', IrResource> {
  readonly listing: ResourceListing;
  /** A self-contained schema per template variable, in template order. */
  readonly params: Readonly<Record<string, JsonSchema>>;
  readonly content: ContentRules;
  readonly list: boolean;
  readonly subscribe: boolean;
  readonly complete: readonly string[];
  /** `sha256:` of an embedded `source:` file. */
  readonly sourceHash?: string;
  /** The 2026-07-28 hints of every read (before the runtime's `authorize` rule, see contract/cache.ts). */
  readonly cache: CacheHint;
  readonly classification?: IrResource['classification'];
  readonly audience?: readonly string[];
  /** Size budget of one read, in bytes. */
  readonly maxBytes?: number;
  /** What each contents entry of a read carries in its `_meta`: the declared revision and lastModified. */
  readonly contentMeta?: Readonly<Record<string, string>>;
}

/** One prompt argument as the contract has it (the listing shows name, description and required). */
export interface PromptArgumentContract {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  /** Self-contained schema; values arrive as strings and are converted before validation. */
  readonly schema: JsonSchema;
  readonly complete: boolean;
}

/** A prompt's entry in `prompts/list`. */
export interface PromptListing extends BaseListing {
  /** Absent when the manifest has no `arguments:` key. */
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
}

/** A prompt: its listing, its argument schemas and its static messages. */
export interface PromptContract extends PrimitiveContract<'prompt', IrPrompt> {
  readonly listing: PromptListing;
  readonly arguments: readonly PromptArgumentContract[];
  readonly messages?: readonly IrPromptMessage[];
}

/** What `initialize` shows of the server. */
export interface ServerContract {
  readonly info: {
    readonly name: string;
    readonly version: string;
    readonly title?: string;
    readonly description?: string;
    readonly websiteUrl?: string;
    readonly icons?: readonly IrIcon[];
  };
  readonly instructions?: string;
  /** The capabilities the server object is created with. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Every capability clients see, completions included (installed with the completion handlers). */
  readonly declaredCapabilities: Readonly<Record<string, unknown>>;
  /** The 2026-07-28 cache hints of discovery and of each listing. */
  readonly cacheHints: ListCacheHints;
}

/** The whole observable contract of one server; arrays keep manifest order. */
export interface Contract {
  readonly server: ServerContract;
  readonly tools: readonly ToolContract[];
  readonly resources: readonly ResourceContract[];
  readonly prompts: readonly PromptContract[];
  /** The base fields every listing shows as declared (see `LISTED_BASE_FIELDS`): names only, for the suites. */
  readonly listedBaseFields: readonly string[];
  /** The named schemas behind every published schema (shared declarations, type names). */
  readonly graph: SchemaGraph;
}
