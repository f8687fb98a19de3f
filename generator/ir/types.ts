/**
 * The intermediate representation: a readonly model of one server, built once
 * from a validated manifest. Emitters read only this, never YAML.
 *
 * Schemas keep the manifest's own references: `{ "$ref": "#/schemas/Name" }`
 * points at a named schema; external files and same-file pointers have already
 * been inlined by the loader.
 */
import type { ScenarioAssert, ScenarioStep } from '../runtime/scenario-steps.js';

/** A JSON Schema document (2020-12 by default). */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

/** Where a primitive or field was declared in the manifest. */
export interface IrLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export type SideEffect = 'read' | 'write' | 'irreversible';
export type PrimitiveKind = 'tool' | 'resource' | 'prompt';

/** Names derived once for every primitive (see `names.ts`). */
export interface IrNames {
  /** The MCP name exactly as declared (`tickets.get`). */
  readonly name: string;
  /** camelCase identifier, unique per kind (`ticketsGet`): object keys, exports and handler file names. */
  readonly id: string;
  /** PascalCase base for type names (`TicketsGet`). */
  readonly typeBase: string;
}

export interface IrScope {
  readonly name: string;
  readonly description: string;
}

/** An icon (MCP `Icon`), as declared. */
export interface IrIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** Capabilities declared explicitly (`server.capabilities`), merged over those the primitives imply. */
export interface IrCapabilities {
  readonly tools?: { readonly listChanged?: boolean | null };
  readonly resources?: { readonly listChanged?: boolean | null; readonly subscribe?: boolean };
  readonly prompts?: { readonly listChanged?: boolean | null };
  readonly completions?: boolean;
}

export interface IrServer {
  /** `serverInfo.name` exactly as declared: any non-empty string. */
  readonly name: string;
  /** The output folder name under `generated/`: `server.folder`, or derived from `name` (see names.ts). */
  readonly folder: string;
  readonly version: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly IrIcon[];
  readonly capabilities: IrCapabilities;
  readonly title?: string;
  readonly description?: string;
  readonly instructions?: string;
  /** Declares the `logging` capability, so `ctx.log` reaches clients. */
  readonly logging: boolean;
  readonly scopes: readonly IrScope[];
  /** `server.cache` as declared: the default cache policy (the contract phase applies the defaults). */
  readonly cache?: IrCachePolicy;
}

/** A `cache:` block as declared: either field may be absent. */
export interface IrCachePolicy {
  readonly ttlMs?: number;
  readonly scope?: 'public' | 'private';
}

/** How sensitive a resource's content is, least to most. */
export const CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export interface IrNamedSchema {
  /** The key under `schemas:` (`Ticket`). */
  readonly name: string;
  /** The exported TypeScript type name (`Ticket`). */
  readonly typeName: string;
  readonly schema: JsonSchema;
  readonly location: IrLocation;
}

export interface IrToolExample {
  readonly input: unknown;
  readonly output?: unknown;
}

/**
 * What every primitive declares, whatever its kind: its names, its wording, who may use it and where it
 * was declared. A field every primitive gains goes here (and in `buildBase`), not in each kind.
 */
export interface IrPrimitiveBase extends IrNames {
  readonly kind: PrimitiveKind;
  readonly title?: string;
  readonly description?: string;
  readonly scopes: readonly string[];
  readonly renamedFrom?: string;
  /** Lint rules waived for this primitive, in manifest order; absent when none. Shown in contract cards. */
  readonly lintWaivers?: readonly IrLintWaiver[];
  readonly location: IrLocation;
  readonly icons?: readonly IrIcon[];
  /** Published as the listing entry's `_meta`, unchanged. */
  readonly _meta?: Readonly<Record<string, unknown>>;
  /** The user outcome, one line: contract cards (not published to clients). */
  readonly outcome?: string;
  /** Who owns the data or operation: contract cards (not published to clients). */
  readonly owner?: string;
}

/** A tool's explicit `annotations:` (hints written by the author; derived ones are added in the contract). */
export interface IrToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean | null;
  readonly destructiveHint?: boolean | null;
  readonly idempotentHint?: boolean | null;
  readonly openWorldHint?: boolean | null;
}

export interface IrTool extends IrPrimitiveBase {
  readonly kind: 'tool';
  readonly sideEffect: SideEffect;
  readonly openWorld?: boolean;
  /** `required`: calls carry a key; `natural`: idempotent by nature (no key); `none`. */
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
  /** The input schema; always `type: object` at the root. */
  readonly input: JsonSchema;
  readonly output?: JsonSchema;
  readonly examples: readonly IrToolExample[];
  readonly timeoutMs?: number;
  /** Explicit annotations, as written; absent when the tool has none. */
  readonly annotations?: IrToolAnnotations;
  /** The upstream request the scaffolded handler makes (`http:`). */
  readonly http?: IrToolHttp;
}

export interface IrResourceAnnotations {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

/** A `source:` file read at generation time and served without a handler. */
export interface IrResourceSource {
  /** The path as written in the manifest (relative to the manifest's folder). */
  readonly path: string;
  /** The file's content: UTF-8 text when `encoding` is `text`, base64 otherwise. */
  readonly content: string;
  readonly encoding: 'text' | 'base64';
}

export interface IrResource extends IrPrimitiveBase {
  readonly kind: 'resource';
  readonly mimeType: string;
  /** True when the MIME type is served as `text` (otherwise as a base64 `blob`). */
  readonly textual: boolean;
  readonly revision?: string;
  /** Published `size` in bytes. */
  readonly size?: number;
  readonly annotations?: IrResourceAnnotations;
  /** Exactly one of `uri` and `uriTemplate` is set. */
  readonly uri?: string;
  readonly uriTemplate?: string;
  /** Template variables in order of first appearance (empty for a fixed URI). */
  readonly variables: readonly string[];
  /** A schema per template variable, in `variables` order. */
  readonly params: readonly { readonly name: string; readonly schema: JsonSchema }[];
  /** Shape of JSON content, validated on read. */
  readonly schema?: JsonSchema;
  /** Template variables that get completion handlers. */
  readonly complete: readonly string[];
  readonly list: boolean;
  readonly subscribe: boolean;
  readonly source?: IrResourceSource;
  /** The upstream GET the scaffolded handler makes (`http:`). */
  readonly http?: IrHttp;
  readonly classification?: Classification;
  /** Who may receive the content (passed to the `authorize` hook). */
  readonly audience?: readonly string[];
  /** Size budget of one read, in bytes (UTF-8 text, decoded blob). */
  readonly maxBytes?: number;
  /** The resource's own `cache:`, as declared. */
  readonly cache?: IrCachePolicy;
}

export interface IrPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  /** The declared schema; values arrive as strings and are converted to its type before validation. */
  readonly schema: JsonSchema;
  readonly complete: boolean;
}

export type IrPromptMessage =
  | { readonly role: 'user' | 'assistant'; readonly text: string }
  | { readonly role: 'user' | 'assistant'; readonly resource: string };

export interface IrPrompt extends IrPrimitiveBase {
  readonly kind: 'prompt';
  readonly arguments: readonly IrPromptArgument[];
  /** False when the manifest has no `arguments:` key: the listing then has no `arguments` field. */
  readonly listsArguments: boolean;
  /** Static message template; absent means a handler builds the messages. */
  readonly messages?: readonly IrPromptMessage[];
}

export type IrPrimitive = IrTool | IrResource | IrPrompt;

/** A lint rule the manifest turned off for one primitive (`lint.disable`), with the author's reason. */
export interface IrLintWaiver {
  /** The lint code, `MG7xx`. */
  readonly code: string;
  readonly reason: string;
}

/** An upstream request: method, path template, what the response body is, which credentials go with it. */
export interface IrHttp {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  readonly path: string;
  readonly response: 'json' | 'text' | 'binary' | 'none';
  readonly credentials: readonly string[];
}

/** A tool's upstream request: input property → query parameter / header name, the body property, the output wrapper. */
export interface IrToolHttp extends IrHttp {
  readonly query: readonly { readonly property: string; readonly name: string }[];
  readonly headers: readonly { readonly property: string; readonly name: string }[];
  readonly cookies: readonly { readonly property: string; readonly name: string }[];
  readonly body?: string;
  /** How the body is encoded; absent means JSON. */
  readonly bodyType?: 'form' | 'multipart' | 'binary' | 'text';
  readonly contentType?: string;
  readonly wrap?: string;
}

/** A credential the upstream client sends (from launch options or the environment, never from arguments). */
export interface IrCredential {
  readonly name: string;
  readonly in: 'header' | 'query' | 'cookie';
  readonly param: string;
  readonly scheme?: 'bearer' | 'basic';
  readonly env: string;
}

/** The top-level `upstream:`. */
export interface IrUpstream {
  readonly baseUrl?: string;
  readonly baseUrlEnv: string;
  readonly timeoutMs: number;
  readonly credentials: readonly IrCredential[];
}

/** The whole server, ready to emit. Arrays keep manifest order. */
// --- scenarios ---

/** An assertion of a scenario (the runtime's type, which `mcp-gen/testing` runs). */
export type IrScenarioAssert = ScenarioAssert;

/** One step of a scenario, as the runner takes it (`mcp-gen/testing`'s `ScenarioStep`). */
export type IrScenarioStep = ScenarioStep;

/** A named flow (`scenarios:`), run as a contract test that writes an evidence pack. */
export interface IrScenario {
  readonly name: string;
  readonly description?: string;
  readonly steps: readonly IrScenarioStep[];
  readonly location: IrLocation;
}

// --- end scenarios ---

export interface Ir {
  /** The manifest's file name (no folder), named in generated headers. */
  readonly manifestName: string;
  readonly server: IrServer;
  readonly schemas: readonly IrNamedSchema[];
  readonly tools: readonly IrTool[];
  readonly resources: readonly IrResource[];
  readonly prompts: readonly IrPrompt[];
  /** Declared scenarios, in manifest order (absent: none). */
  readonly scenarios?: readonly IrScenario[];
  /** The HTTP API handlers call, when the manifest has `upstream:`. */
  readonly upstream?: IrUpstream;
}
