import { buildScenarios } from './scenarios.js';
import type { RawCommon, RawHttp, RawManifest, RawPrompt, RawResource, RawTool, RawToolHttp, RawUpstream } from '../manifest/types.js';
import { parseUriTemplate } from '../manifest/uri-template.js';
import { isTextualMime } from '../manifest/mime.js';
import { deriveNames, toFolderName, toTypeName } from './names.js';
import { DEFAULT_ARGUMENT_SCHEMA, EMPTY_INPUT } from './defaults.js';
import { restoredEntry } from './kept.js';
import type {
  Ir,
  IrHttp,
  IrLocation,
  IrPrimitiveBase,
  IrPrompt,
  IrPromptArgument,
  IrResource,
  IrResourceSource,
  IrTool,
  IrToolHttp,
  IrUpstream,
  IrLintWaiver,
  IrPrimitive,
  JsonSchema,
} from './types.js';

/** What the IR builder needs besides the manifest: positions, source order and read `source:` files. */
export interface BuildInput {
  /** The validated manifest with file `$ref`s inlined. */
  readonly manifest: RawManifest;
  /** The manifest's file name (no folder). */
  readonly manifestName: string;
  /** Location of the key at a manifest path. */
  readonly locate: (path: readonly (string | number)[]) => IrLocation;
  /** Mapping keys at a path in source order (plain objects reorder integer-like keys). */
  readonly keyOrder: (path: readonly (string | number)[]) => string[];
  /** Resource name → its `source:` file. */
  readonly sources: ReadonlyMap<string, IrResourceSource>;
  /** The resource serving a URI, as the checks found it (see manifest/checks/scenarios.ts `resourceMatcher`). */
  readonly resourceOf?: (uri: string) => { readonly name: string } | undefined;
  /** The incremental cache's entries (see manifest/entries.ts): IR entries an earlier run built from the same text. */
  readonly memo?: IrMemo;
}

/** What the incremental cache gives the builder, and is told of what it builds. */
export interface IrMemo {
  /** The kept form (ir/kept.ts) of an entry's IR that an earlier run built from the same inputs, or undefined. */
  kept(section: string, name: string): unknown;
  /** Notes an entry's IR, restored or built now. */
  built(section: string, name: string, entry: IrPrimitive): void;
}

export { EMPTY_INPUT };

/** Spreads `{ [key]: value }` only when the value is defined, so the IR carries no `undefined` keys. */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Entries of a record in source order; `section` is a dotted path to it. */
function ordered<T>(input: BuildInput, section: string, rec: Record<string, T> | undefined): [string, T][] {
  if (!rec) return [];
  return input.keyOrder(section.split('.')).filter((k) => Object.hasOwn(rec, k)).map((k) => [k, rec[k]!]);
}

/**
 * The IR of a section's entries in source order: each restored from the memo when an earlier run kept it,
 * else built from its manifest entry (read only then).
 */
function primitives<T extends IrPrimitive, R>(input: BuildInput, section: string, rec: Record<string, R> | undefined, build: (input: BuildInput, name: string, raw: R) => T): T[] {
  if (!rec) return [];
  return input.keyOrder([section]).filter((k) => Object.hasOwn(rec, k)).map((name) => {
    const kept = input.memo?.kept(section, name);
    const entry = kept !== undefined ? (restoredEntry(kept, input.locate([section, name])) as T) : build(input, name, rec[name]!);
    input.memo?.built(section, name, entry);
    return entry;
  });
}

/** The primitive's `lint.disable` entries in source order, or nothing when it has none. */
function waivers(input: BuildInput, path: string[], disable: Record<string, string> | undefined): { lintWaivers?: IrLintWaiver[] } {
  if (!disable) return {};
  const codes = input.keyOrder([...path, 'lint', 'disable']).filter((c) => Object.hasOwn(disable, c));
  const list = codes.map((code) => ({ code, reason: disable[code]!.trim() }));
  return list.length ? { lintWaivers: list } : {};
}

/**
 * The fields every primitive has, whatever its kind (see `IrPrimitiveBase`): a field all three kinds
 * gain is read here once.
 */
function buildBase<K extends IrPrimitiveBase['kind']>(input: BuildInput, kind: K, name: string, p: RawCommon): IrPrimitiveBase & { readonly kind: K } {
  const section = `${kind}s`;
  return {
    kind,
    ...deriveNames(name),
    ...opt('title', p.title),
    ...opt('description', p.description),
    scopes: p.scopes ?? [],
    ...opt('renamedFrom', p.renamedFrom),
    ...waivers(input, [section, name], p.lint?.disable),
    location: input.locate([section, name]),
    ...opt('icons', p.icons),
    ...opt('_meta', p._meta),
    ...opt('outcome', p.outcome?.trim()),
    ...opt('owner', p.owner?.trim()),
  };
}


function buildHttp(h: RawHttp): IrHttp {
  return { method: h.method ?? 'GET', path: h.path, response: h.response ?? 'json', credentials: h.credentials ?? [] };
}

function buildToolHttp(h: RawToolHttp): IrToolHttp {
  const pairs = (rec: Record<string, string> | undefined) => Object.entries(rec ?? {}).map(([property, name]) => ({ property, name }));
  const bodyType = h.bodyType === 'json' ? undefined : h.bodyType;
  return {
    ...buildHttp(h), query: pairs(h.query), headers: pairs(h.headers), cookies: pairs(h.cookies),
    ...opt('body', h.body), ...opt('bodyType', bodyType), ...opt('contentType', h.contentType), ...opt('wrap', h.wrap),
  };
}

function buildUpstream(input: BuildInput, u: RawUpstream): IrUpstream {
  return {
    ...opt('baseUrl', u.baseUrl),
    baseUrlEnv: u.baseUrlEnv,
    timeoutMs: u.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    credentials: ordered(input, 'upstream.credentials', u.credentials).map(([name, c]) => ({ name, in: c.in, param: c.name, ...opt('scheme', c.scheme), env: c.env })),
  };
}

/** How long the upstream client waits for one response when `upstream.timeoutMs` is absent. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

function buildTool(input: BuildInput, name: string, t: RawTool): IrTool {
  return {
    ...buildBase(input, 'tool', name, t),
    sideEffect: t.sideEffect,
    ...opt('openWorld', t.openWorld),
    idempotency: t.idempotency ?? 'none',
    approval: t.approval ?? 'none',
    input: t.input ?? EMPTY_INPUT,
    ...opt('output', t.output),
    examples: (t.examples ?? []).map((e) => ({ input: e.input, ...opt('output', e.output) })),
    ...opt('timeoutMs', t.timeoutMs),
    ...opt('annotations', t.annotations),
    ...opt('http', t.http && buildToolHttp(t.http)),
  };
}

function buildResource(input: BuildInput, name: string, r: RawResource): IrResource {
  const variables = r.uriTemplate !== undefined ? [...parseUriTemplate(r.uriTemplate).variables] : [];
  return {
    ...buildBase(input, 'resource', name, r),
    mimeType: r.mimeType,
    textual: isTextualMime(r.mimeType),
    ...opt('revision', r.revision),
    ...opt('size', r.size),
    ...opt('annotations', r.annotations),
    ...opt('uri', r.uri),
    ...opt('uriTemplate', r.uriTemplate),
    variables,
    params: variables.map((v) => ({ name: v, schema: r.params?.[v] ?? DEFAULT_ARGUMENT_SCHEMA })),
    ...opt('schema', r.schema),
    complete: r.complete ?? [],
    list: r.list ?? false,
    subscribe: r.subscribe ?? false,
    ...opt('source', input.sources.get(name)),
    ...opt('http', r.http && buildHttp(r.http)),
    ...opt('classification', r.classification),
    ...opt('audience', r.audience),
    ...opt('maxBytes', r.maxBytes),
    ...opt('cache', r.cache),
  };
}

function buildPrompt(input: BuildInput, name: string, p: RawPrompt): IrPrompt {
  const argNames = p.arguments ? input.keyOrder(['prompts', name, 'arguments']) : [];
  const args: IrPromptArgument[] = argNames.map((a) => {
    const arg = p.arguments![a]!;
    return {
      name: a,
      ...opt('description', arg.description),
      required: arg.required ?? false,
      schema: arg.schema ?? DEFAULT_ARGUMENT_SCHEMA,
      complete: arg.complete ?? false,
    };
  });
  return {
    ...buildBase(input, 'prompt', name, p),
    arguments: args,
    listsArguments: p.arguments !== undefined,
    ...opt(
      'messages',
      p.messages?.map((m) => (m.text !== undefined ? { role: m.role, text: m.text } : { role: m.role, resource: m.resource! })),
    ),
  };
}

/**
 * Builds the readonly IR from a manifest that passed every check: names
 * derived once, defaults applied, primitives in manifest order.
 */
export function buildIr(input: BuildInput): Ir {
  const m = input.manifest;
  return {
    manifestName: input.manifestName,
    server: {
      name: m.server.name,
      folder: m.server.folder ?? toFolderName(m.server.name),
      version: m.server.version,
      ...opt('websiteUrl', m.server.websiteUrl),
      ...opt('icons', m.server.icons),
      capabilities: m.server.capabilities ?? {},
      ...opt('title', m.server.title),
      ...opt('description', m.server.description),
      ...opt('instructions', m.server.instructions),
      logging: m.server.logging === true,
      scopes: ordered(input, 'server.scopes', m.server.scopes).map(([name, description]) => ({ name, description })),
      ...opt('cache', m.server.cache),
    },
    schemas: ordered(input, 'schemas', m.schemas).map(([name, schema]) => ({
      name,
      typeName: toTypeName(name),
      schema,
      location: input.locate(['schemas', name]),
    })),
    tools: primitives(input, 'tools', m.tools, buildTool),
    resources: primitives(input, 'resources', m.resources, buildResource),
    prompts: primitives(input, 'prompts', m.prompts, buildPrompt),
    ...opt('scenarios', m.scenarios && buildScenarios(input, m)),
    ...opt('upstream', m.upstream && buildUpstream(input, m.upstream)),
  };
}
