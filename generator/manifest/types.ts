/**
 * The manifest as plain data once its shape has been validated against
 * schema/manifest.schema.json (optional keys stay optional; values have their
 * declared types). Checks and the IR builder read this, never YAML nodes.
 */
import type { JsonSchema } from '../ir/types.js';

/** `server:`. */
/** One `icons:` entry (MCP `Icon`), published as written. */
export interface RawIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** `server.capabilities:`: what is declared beyond what the primitives imply. */
export interface RawCapabilities {
  tools?: { listChanged?: boolean | null };
  resources?: { listChanged?: boolean | null; subscribe?: boolean };
  prompts?: { listChanged?: boolean | null };
  completions?: boolean;
}

export interface RawServer {
  name: string;
  version: string;
  folder?: string;
  websiteUrl?: string;
  icons?: RawIcon[];
  capabilities?: RawCapabilities;
  title?: string;
  description?: string;
  instructions?: string;
  logging?: boolean;
  scopes?: Record<string, string>;
  /** The default cache policy of listings, discovery and reads. */
  cache?: RawCachePolicy;
}

/** A `cache:` block: the 2026-07-28 cache hints of reads and listings. */
export interface RawCachePolicy {
  ttlMs?: number;
  scope?: 'public' | 'private';
}

/** A primitive's `lint:`: rules that do not apply to it, each with its reason. */
export interface RawPrimitiveLint {
  disable?: Record<string, string>;
}

/** The top-level `lint:`: severities per rule and budgets (see generator/lint). */
export interface RawLintConfig {
  budget?: { contextBudgetTokens?: number };
  rules?: Record<string, 'off' | 'hint' | 'warning' | 'error'>;
}

/** What every primitive may declare, whatever its kind (`buildBase` in ir/build.ts reads it). */
export interface RawCommon {
  title?: string;
  description?: string;
  controller?: 'model' | 'application' | 'user';
  scopes?: string[];
  renamedFrom?: string;
  lint?: RawPrimitiveLint;
  icons?: RawIcon[];
  _meta?: Record<string, unknown>;
  /** The user outcome, one line (contract cards). */
  outcome?: string;
  /** Who owns the data or operation (contract cards). */
  owner?: string;
}

/** A tool's `annotations:`: hints written explicitly (published as written). */
export interface RawToolAnnotations {
  title?: string;
  readOnlyHint?: boolean | null;
  destructiveHint?: boolean | null;
  idempotentHint?: boolean | null;
  openWorldHint?: boolean | null;
}

/** One entry under `tools:`. */
export interface RawTool extends RawCommon {
  sideEffect: 'read' | 'write' | 'irreversible';
  openWorld?: boolean;
  idempotency?: 'required' | 'natural' | 'none';
  approval?: 'required' | 'none';
  input?: JsonSchema;
  output?: JsonSchema;
  examples?: { input: unknown; output?: unknown }[];
  timeoutMs?: number;
  annotations?: RawToolAnnotations;
  http?: RawToolHttp;
}

/** A tool's or resource's `http:`: the upstream request its scaffolded handler makes. */
export interface RawHttp {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  response?: 'json' | 'text' | 'binary' | 'none';
  credentials?: string[];
}

/** A tool's `http:`, with the input properties that become query, header and body. */
export interface RawToolHttp extends RawHttp {
  method: NonNullable<RawHttp['method']>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  body?: string;
  bodyType?: 'json' | 'form' | 'multipart' | 'binary' | 'text';
  contentType?: string;
  wrap?: string;
}

/** One credential under `upstream.credentials`. */
export interface RawCredential {
  in: 'header' | 'query' | 'cookie';
  name: string;
  scheme?: 'bearer' | 'basic';
  env: string;
}

/** The top-level `upstream:`: the HTTP API the handlers call. */
export interface RawUpstream {
  baseUrl?: string;
  baseUrlEnv: string;
  timeoutMs?: number;
  credentials?: Record<string, RawCredential>;
}

/** One entry under `resources:`. */
export interface RawResource extends RawCommon {
  sideEffect?: string;
  uri?: string;
  uriTemplate?: string;
  mimeType: string;
  revision?: string;
  size?: number;
  annotations?: { audience?: ('user' | 'assistant')[]; priority?: number; lastModified?: string };
  source?: string;
  params?: Record<string, JsonSchema>;
  schema?: JsonSchema;
  complete?: string[];
  list?: boolean;
  subscribe?: boolean;
  http?: RawHttp;
  classification?: 'public' | 'internal' | 'confidential' | 'restricted';
  audience?: string[];
  maxBytes?: number;
  cache?: RawCachePolicy;
}

/** One entry under a prompt's `arguments:`. */
/** One entry under `prompts:`. */
export interface RawPromptArgument {
  description?: string;
  required?: boolean;
  schema?: JsonSchema;
  complete?: boolean;
}

/** One item of a prompt's `messages:`. */
export interface RawPromptMessage {
  role: 'user' | 'assistant';
  text?: string;
  resource?: string;
}

export interface RawPrompt extends RawCommon {
  sideEffect?: string;
  arguments?: Record<string, RawPromptArgument>;
  messages?: RawPromptMessage[];
}

// --- scenarios (end-to-end flows run as contract tests that write evidence packs) ---

/** A scenario's `assert:`: on an earlier step's result, or on final state through a read. */
export interface RawScenarioAssert {
  result?: string;
  read?: string;
  path?: string;
  equals?: unknown;
  contains?: string;
  isError?: boolean;
  because?: string;
}

/** One step of a scenario: exactly one of `prompt`, `read`, `call`, `assert`. */
export interface RawScenarioStep {
  id?: string;
  prompt?: string;
  arguments?: Record<string, string>;
  read?: string;
  revision?: string;
  call?: string;
  input?: Record<string, unknown>;
  confirm?: 'accept' | 'decline';
  expect?: 'ok' | 'error';
  assert?: RawScenarioAssert;
}

/** One entry under `scenarios:`. */
export interface RawScenario {
  description?: string;
  steps: RawScenarioStep[];
}

// --- end scenarios ---

/** The whole manifest, format version 1. */
export interface RawManifest {
  mcpgen: 1;
  server: RawServer;
  schemas?: Record<string, JsonSchema>;
  tools?: Record<string, RawTool>;
  resources?: Record<string, RawResource>;
  prompts?: Record<string, RawPrompt>;
  scenarios?: Record<string, RawScenario>;
  upstream?: RawUpstream;
  lint?: RawLintConfig;
}
