/**
 * A running server's catalog → a manifest draft that generates a server publishing the same
 * catalog. Pure: the caller reads the catalog and writes the files. What the manifest format or SDK v2
 * cannot publish is listed in `inexpressible`, each with its reason, and never silently dropped.
 */
import { deriveNames } from '../../ir/names.js';
import type { Catalog } from '../../remote/catalog.js';
import { annotationsBlock, inferSideEffect, TOOL_FIELDS } from './tools.js';

type Obj = Record<string, unknown>;

/** One thing the importer could not express, with where it is and why. */
export interface Inexpressible {
  /** `tools.echo.execution`, `capabilities.tasks`, … */
  readonly at: string;
  readonly reason: string;
}

/** The draft: the manifest as data, the comments above its entries, its side files and what was left out. */
export interface ServerDraft {
  readonly manifest: Obj;
  /** `section.name` → comment lines shown above that entry. */
  readonly comments: ReadonlyMap<string, readonly string[]>;
  /** Relative path (from the manifest) → JSON text: schemas too large to read inline. */
  readonly files: ReadonlyMap<string, string>;
  readonly inexpressible: readonly Inexpressible[];
}

/** Options of {@link buildServerDraft}. */
export interface DraftOptions {
  /** A schema whose JSON is longer than this goes to its own file under `schemas/`. */
  readonly inlineLimit?: number;
  /** Lint codes to waive per entry (`tools.x` → codes), found by a first lint of the draft. */
  readonly waive?: ReadonlyMap<string, readonly string[]>;
}

/** Why a waiver is written: the published contract is kept, the design debt stays visible in CONTRACTS.md. */
export const IMPORT_WAIVER_REASON = 'imported: existing contract';

const SERVER_INFO_FIELDS = new Set(['name', 'version', 'title', 'description', 'websiteUrl', 'icons']);
const RESOURCE_FIELDS = new Set(['name', 'uri', 'uriTemplate', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta']);
const PROMPT_FIELDS = new Set(['name', 'title', 'description', 'arguments', 'icons', '_meta']);
const ARGUMENT_FIELDS = new Set(['name', 'description', 'required']);
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Builds the draft of one server. */
export function buildServerDraft(catalog: Catalog, options: DraftOptions = {}): ServerDraft {
  const b = new DraftBuilder(options);
  const manifest: Obj = { mcpgen: 1, server: b.server(catalog) };
  const tools = b.section('tools', catalog.tools, (t, key) => b.tool(t, key));
  const resources = b.section('resources', [...catalog.resources, ...catalog.resourceTemplates], (r, key) => b.resource(r, key));
  const prompts = b.section('prompts', catalog.prompts, (p, key) => b.prompt(p, key));
  if (Object.keys(tools).length) manifest['tools'] = tools;
  if (Object.keys(resources).length) manifest['resources'] = resources;
  if (Object.keys(prompts).length) manifest['prompts'] = prompts;
  return { manifest, comments: b.comments, files: b.files, inexpressible: b.inexpressible };
}

class DraftBuilder {
  readonly comments = new Map<string, string[]>();
  readonly files = new Map<string, string>();
  readonly inexpressible: Inexpressible[] = [];

  constructor(private readonly options: DraftOptions) {}

  private leftOut(at: string, reason: string): void {
    this.inexpressible.push({ at, reason });
  }

  private note(key: string, line: string): void {
    this.comments.set(key, [...(this.comments.get(key) ?? []), line]);
  }

  server(c: Catalog): Obj {
    const info = c.serverInfo;
    for (const k of Object.keys(info)) if (!SERVER_INFO_FIELDS.has(k)) this.leftOut(`serverInfo.${k}`, 'the manifest has no field for it');
    const caps = c.capabilities;
    const out: Obj = { name: String(info['name'] ?? ''), version: String(info['version'] ?? '0.0.0') };
    for (const k of ['title', 'description', 'websiteUrl', 'icons'] as const) if (info[k] !== undefined) out[k] = info[k];
    if (c.instructions !== undefined) out['instructions'] = c.instructions;
    if (caps['logging'] !== undefined) out['logging'] = true;
    const declared = this.capabilities(c);
    if (Object.keys(declared).length) out['capabilities'] = declared;
    return out;
  }

  /** Capabilities the primitives would not imply on their own: `listChanged`, kinds without primitives, completions. */
  private capabilities(c: Catalog): Obj {
    const caps = c.capabilities;
    const out: Obj = {};
    const kinds: [string, boolean][] = [['tools', c.tools.length > 0], ['resources', c.resources.length + c.resourceTemplates.length > 0], ['prompts', c.prompts.length > 0]];
    for (const [kind, has] of kinds) {
      const cap = caps[kind] as Obj | undefined;
      if (cap === undefined) continue;
      const entry: Obj = {};
      // Absent is not false on the wire: `~` publishes the kind without the field.
      if (cap['listChanged'] === true) entry['listChanged'] = true;
      else if (cap['listChanged'] === undefined) entry['listChanged'] = null;
      if (kind === 'resources' && typeof cap['subscribe'] === 'boolean') entry['subscribe'] = cap['subscribe'];
      for (const k of Object.keys(cap)) if (k !== 'listChanged' && !(kind === 'resources' && k === 'subscribe')) this.leftOut(`capabilities.${kind}.${k}`, 'SDK v2 servers cannot declare it');
      if (Object.keys(entry).length || !has) out[kind] = entry;
    }
    if (caps['completions'] !== undefined) out['completions'] = true;
    for (const k of Object.keys(caps)) {
      if (['tools', 'resources', 'prompts', 'completions', 'logging'].includes(k)) continue;
      this.leftOut(`capabilities.${k}`, k === 'tasks' ? 'SDK v2 serves no tasks (SEP-2663), so it cannot declare the capability' : 'the manifest has no field for it');
    }
    return out;
  }

  /** Entries of one section keyed by name; a name or identifier already taken is reported, not renamed. */
  section(section: string, items: readonly Obj[], build: (item: Obj, key: string) => Obj | undefined): Obj {
    const out: Obj = {};
    const ids = new Map<string, string>();
    for (const item of items) {
      const name = String(item['name'] ?? '');
      const key = `${section}.${name}`;
      const id = deriveNames(name).id;
      if (name === '' || Object.hasOwn(out, name) || ids.has(id.toLowerCase())) {
        const other = ids.get(id.toLowerCase());
        this.leftOut(key, name === '' ? 'an empty name' : Object.hasOwn(out, name) ? 'a second entry with the same name' : `its identifier \`${id}\` collides with \`${other}\` (handler files and exports are named after it)`);
        continue;
      }
      const entry = build(item, key);
      if (entry === undefined) continue;
      const codes = this.options.waive?.get(key);
      if (codes?.length) entry['lint'] = { disable: Object.fromEntries(codes.map((c) => [c, IMPORT_WAIVER_REASON])) };
      out[name] = entry;
      ids.set(id.toLowerCase(), name);
    }
    return out;
  }

  private schema(value: unknown, file: string): unknown {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    if (text.length <= (this.options.inlineLimit ?? 1500)) return value;
    this.files.set(file, text);
    return { $ref: `./${file}` };
  }

  tool(t: Obj, key: string): Obj | undefined {
    for (const k of Object.keys(t)) {
      if (!TOOL_FIELDS.has(k)) this.leftOut(`${key}.${k}`, k === 'execution' ? 'SDK v2 cannot publish `execution` (it serves no tasks)' : 'the manifest has no field for it');
    }
    const input = t['inputSchema'] as Obj | undefined;
    if (input === undefined || typeof input !== 'object' || input['type'] !== 'object') {
      this.leftOut(key, 'its inputSchema does not say `type: object` at the root, which SDK v2 adds to every published input');
      return undefined;
    }
    const inferred = inferSideEffect(t['annotations'] as Obj | undefined);
    const { block, unknown } = annotationsBlock(t['annotations'] as Obj | undefined, inferred);
    const published = t['annotations'];
    if (published !== null && typeof published === 'object' && Object.keys(published).length === 0) {
      this.leftOut(`${key}.annotations`, 'published empty ({}); a tool with no hint and no title is listed without `annotations`');
    }
    for (const u of unknown) this.leftOut(`${key}.annotations.${u}`, 'not a hint the specification defines with a boolean value');
    this.note(key, `sideEffect: ${inferred.sideEffect}${inferred.idempotency ? ', idempotency: natural' : ''}, inferred ${inferred.reason}`);
    const id = deriveNames(String(t['name'])).id;
    return {
      ...(t['title'] !== undefined ? { title: t['title'] } : {}),
      ...(t['description'] !== undefined ? { description: t['description'] } : {}),
      sideEffect: inferred.sideEffect,
      ...(inferred.idempotency ? { idempotency: inferred.idempotency } : {}),
      ...(block ? { annotations: block } : {}),
      ...(t['icons'] !== undefined ? { icons: t['icons'] } : {}),
      ...(t['_meta'] !== undefined ? { _meta: t['_meta'] } : {}),
      input: this.schema(input, `schemas/${id}.input.schema.json`),
      ...(t['outputSchema'] !== undefined ? { output: this.schema(t['outputSchema'], `schemas/${id}.output.schema.json`) } : {}),
    };
  }

  resource(r: Obj, key: string): Obj | undefined {
    for (const k of Object.keys(r)) if (!RESOURCE_FIELDS.has(k)) this.leftOut(`${key}.${k}`, 'the manifest has no field for it');
    if (typeof r['mimeType'] !== 'string') {
      this.leftOut(key, 'it publishes no mimeType, which the manifest requires (the generated listing would gain one)');
      return undefined;
    }
    const template = typeof r['uriTemplate'] === 'string' ? r['uriTemplate'] : undefined;
    const variables = template ? [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1]!.split(',').map((v) => v.replace(/[*]|:\d+$/g, '').trim())) : [];
    return {
      ...(template !== undefined ? { uriTemplate: template } : { uri: r['uri'] }),
      ...(r['title'] !== undefined ? { title: r['title'] } : {}),
      ...(r['description'] !== undefined ? { description: r['description'] } : {}),
      mimeType: r['mimeType'],
      ...(r['size'] !== undefined ? { size: r['size'] } : {}),
      ...(r['annotations'] !== undefined ? { annotations: r['annotations'] } : {}),
      ...(r['icons'] !== undefined ? { icons: r['icons'] } : {}),
      ...(r['_meta'] !== undefined ? { _meta: r['_meta'] } : {}),
      ...(variables.length ? { params: Object.fromEntries([...new Set(variables)].map((v) => [v, { type: 'string' }])) } : {}),
    };
  }

  prompt(p: Obj, key: string): Obj | undefined {
    for (const k of Object.keys(p)) if (!PROMPT_FIELDS.has(k)) this.leftOut(`${key}.${k}`, 'the manifest has no field for it');
    const args = p['arguments'] as Obj[] | undefined;
    const out: Obj = {
      ...(p['title'] !== undefined ? { title: p['title'] } : {}),
      ...(p['description'] !== undefined ? { description: p['description'] } : {}),
      ...(p['icons'] !== undefined ? { icons: p['icons'] } : {}),
      ...(p['_meta'] !== undefined ? { _meta: p['_meta'] } : {}),
    };
    if (args === undefined) return out;
    const list: Obj = {};
    for (const a of args) {
      const name = String(a['name'] ?? '');
      if (!ARGUMENT_NAME.test(name)) {
        this.leftOut(`${key}.arguments.${name}`, 'prompt argument names must be identifiers (they become typed properties)');
        continue;
      }
      for (const k of Object.keys(a)) if (!ARGUMENT_FIELDS.has(k)) this.leftOut(`${key}.arguments.${name}.${k}`, k === 'title' ? 'SDK v2 drops a prompt argument\'s title from the listing' : 'the manifest has no field for it');
      if (typeof a['required'] !== 'boolean') this.leftOut(`${key}.arguments.${name}.required`, 'absent in the original; the generated listing always states it (false)');
      list[name] = { ...(a['description'] !== undefined ? { description: a['description'] } : {}), required: a['required'] === true };
    }
    return { ...out, arguments: list };
  }
}
