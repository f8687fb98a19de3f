/**
 * The one place generated identifiers are derived from manifest names.
 *
 * Rule (documented in docs/manifest.md): split the name on `.`, `-`, `_` and
 * any other non-alphanumeric character; the first part keeps its case with a
 * lower-case first letter, later parts get an upper-case first letter
 * (`tickets.get` → `ticketsGet`, `refunds.create_draft` → `refundsCreateDraft`).
 * A leading digit gets a `_` prefix; a reserved word gets a `_` suffix.
 * The PascalCase type base is the identifier with an upper-case first letter.
 * Two names that map to the same identifier are reported as an error, never
 * renamed silently.
 */

import type { IrNames, IrPrimitive, IrPrompt, IrResource, IrTool } from './types.js';

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally ' +
    'for function if import in instanceof new null return super switch this throw true try typeof var void ' +
    'while with as implements interface let package private protected public static yield any boolean ' +
    'constructor declare get module require number set string symbol type from of await async undefined ' +
    'arguments eval object never unknown bigint'
  ).split(' '),
);

function parts(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter((p) => p.length > 0);
}

/** camelCase identifier for a manifest name. */
export function toIdentifier(name: string): string {
  const ps = parts(name);
  if (ps.length === 0) return '_';
  let id = ps
    .map((p, i) => (i === 0 ? p[0]!.toLowerCase() + p.slice(1) : p[0]!.toUpperCase() + p.slice(1)))
    .join('');
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/** PascalCase type name for a manifest name. */
export function toTypeName(name: string): string {
  const ps = parts(name);
  if (ps.length === 0) return '_';
  let t = ps.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  if (/^[0-9]/.test(t)) t = `_${t}`;
  return t;
}

/**
 * The declaration name of a recursive local definition, `<Type><Slot>` (`CategoryNode` for `$defs/node`
 * of `Category`). A name another declaration exports, or an earlier recursive one took, gets the first
 * free number after it (`CategoryNode2`): two declarations of one name would merge silently (interfaces)
 * or not compile (type aliases). The name joins `taken`, so the caller's order decides, deterministically.
 */
export function recursiveTypeName(owner: string, slot: string, taken: Set<string>): string {
  let name = `${owner}${slot}`;
  for (let i = 2; taken.has(name); i++) name = `${owner}${slot}${i}`;
  taken.add(name);
  return name;
}

/** Type names emitted for one primitive, by role. */
export const typeSuffix = {
  toolInput: 'Input',
  toolOutput: 'Output',
  toolHandler: 'Tool',
  resourceParams: 'Params',
  resourceContent: 'Content',
  resourceHandler: 'Resource',
  promptArgs: 'Args',
  promptHandler: 'Prompt',
} as const;

/** What a type name is built from: a primitive's `typeBase`. */
interface Typed {
  readonly typeBase: string;
}

/** The type names `types.gen.ts` declares for a primitive, by role; every emitter refers to them through these. */
export const typeName = {
  toolInput: (t: Typed) => `${t.typeBase}${typeSuffix.toolInput}`,
  toolOutput: (t: Typed) => `${t.typeBase}${typeSuffix.toolOutput}`,
  toolHandler: (t: Typed) => `${t.typeBase}${typeSuffix.toolHandler}`,
  resourceParams: (r: Typed) => `${r.typeBase}${typeSuffix.resourceParams}`,
  resourceContent: (r: Typed) => `${r.typeBase}${typeSuffix.resourceContent}`,
  resourceHandler: (r: Typed) => `${r.typeBase}${typeSuffix.resourceHandler}`,
  promptArgs: (p: Typed) => `${p.typeBase}${typeSuffix.promptArgs}`,
  promptHandler: (p: Typed) => `${p.typeBase}${typeSuffix.promptHandler}`,
};

/** Names derived for one primitive: the one rule shared by checks and the IR. */
export function deriveNames(name: string): IrNames {
  return { name, id: toIdentifier(name), typeBase: toTypeName(name) };
}

/** The constant names of a primitive's schemas in `schemas.gen.ts`. */
export const schemaConst = {
  toolInput: (t: IrTool) => `${t.id}Input`,
  toolOutput: (t: IrTool) => `${t.id}Output`,
  resourceParams: (r: IrResource) => `${r.id}Params`,
  resourceContent: (r: IrResource) => `${r.id}Content`,
  promptArgs: (p: IrPrompt) => `${p.id}Args`,
};

/** The constant name of a named schema shared by several published schemas in `schemas.gen.ts`. */
export function sharedSchemaConst(typeName: string): string {
  return `${typeName}Schema`;
}

/** The handler file of a primitive, relative to the output folder. */
export function handlerPath(p: IrPrimitive): string {
  return `${handlerFile(p)}.ts`;
}

/** The specifier generated code imports a primitive's handler file by, from the output folder (`./handlers/tools/x.js`). */
export function handlerImportPath(p: IrPrimitive): string {
  return `./${handlerFile(p)}.js`;
}

/** The folder every handler file lives under, relative to the output folder. */
export const HANDLERS_FOLDER = 'handlers/';

const handlerFile = (p: IrPrimitive): string => `${HANDLERS_FOLDER}${p.kind}s/${p.id}`;

/**
 * The declaration slot of a recursive local reference in a compiled type, declared as `<Type><Slot>`:
 * PascalCase of the reference's last segment (`#/$defs/tree_node` → `TreeNode`, `#` → `Self`, a
 * leading digit gets `N`, nothing left gives `Def`). Two references of one schema whose segments give
 * the same slot are told apart deterministically: the second expanded gets `2`, the third `3`.
 */
export function recursionSlotName(ref: string, taken: ReadonlySet<string>): string {
  const last = ref === '#' ? 'Self' : (ref.split('/').pop() ?? 'Def').replace(/~1/g, '/').replace(/~0/g, '~');
  const base = parts(last).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('').replace(/^(\d)/, 'N$1') || 'Def';
  let slot = base;
  for (let i = 2; taken.has(slot); i++) slot = `${base}${i}`;
  return slot;
}

/** The class name of the typed client of a server (`support-desk` → `SupportDeskClient`). */
export function clientClassName(serverName: string): string {
  return `${toTypeName(serverName)}Client`;
}

/**
 * The local name each handler is imported under in `handlers.gen.ts`: its identifier, or the identifier
 * with its kind (`ticketTool`) when two kinds share it or it would shadow the `handlers` export.
 */
export function handlerImportNames(all: readonly IrPrimitive[]): (p: IrPrimitive) => string {
  const label = { tool: 'Tool', resource: 'Resource', prompt: 'Prompt' } as const;
  const counts = new Map<string, number>();
  for (const p of all) counts.set(p.id, (counts.get(p.id) ?? 0) + 1);
  return (p) => (counts.get(p.id)! > 1 || p.id === 'handlers' ? `${p.id}${label[p.kind]}` : p.id);
}

/** What a folder name under `generated/` may be: lowercase letters, digits and single dashes, at most 64. */
export const FOLDER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The output folder derived from `server.name` (any string): lowercased, every run of characters
 * other than a-z and 0-9 becomes one dash, dashes trimmed, cut to 64. `mcp-servers/everything` →
 * `mcp-servers-everything`, `Notion API` → `notion-api`. Empty when nothing is left (then the
 * manifest must set `server.folder`).
 */
export function toFolderName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
}
