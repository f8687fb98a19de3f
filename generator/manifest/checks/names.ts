import { deriveNames, toTypeName, typeSuffix } from '../../ir/names.js';
import type { ManifestPath, Position } from '../source-map.js';
import { SECTIONS, type Check, type CheckContext, type Entry, type EntrySummary, type Section } from './context.js';

/** Type names the emitters export themselves. */
const RESERVED_TYPES = ['Handlers', 'HandlerContext', 'ServerOptions'];

const KINDS: Readonly<Record<Section, { readonly kind: string; readonly suffixes: readonly string[] }>> = {
  tools: { kind: 'tool', suffixes: [typeSuffix.toolInput, typeSuffix.toolOutput, typeSuffix.toolHandler] },
  resources: { kind: 'resource', suffixes: [typeSuffix.resourceParams, typeSuffix.resourceContent, typeSuffix.resourceHandler] },
  prompts: { kind: 'prompt', suffixes: [typeSuffix.promptArgs, typeSuffix.promptHandler] },
};

/**
 * The specification puts no character rule on resource, template or prompt names and only SHOULDs
 * on tool names (lint rule MG727), so the one refusal is an empty name.
 */
function checkMcpName(ctx: CheckContext, e: Entry): void {
  if (e.name.length === 0) ctx.r.error('MG203', [e.section, e.name], `a ${KINDS[e.section].kind} name must not be empty`, 'give it a name, e.g. `tickets.get` or `Refund policy`', 'key');
}

/** Identifier and type-name uniqueness, and `renamedFrom`, across the entries of each kind. */
function checkAcross(ctx: CheckContext, entries: readonly EntrySummary[]): void {
  // Primitives already reported for an identifier collision: their type names clash too, saying so again is noise.
  const collided = new Set<string>();
  for (const section of SECTIONS) {
    const { kind } = KINDS[section];
    const mine = entries.filter((e) => e.section === section);
    for (const n of checkIdentifiers(ctx, kind, section, mine)) collided.add(`${kind} \`${n}\``);
    const names = new Set(mine.map((e) => e.name));
    for (const e of mine) {
      if (e.renamedFrom !== undefined && names.has(e.renamedFrom)) {
        ctx.r.error('MG207', [section, e.name, 'renamedFrom'], `\`renamedFrom: ${e.renamedFrom}\` names a ${kind} that still exists`,
          `remove \`renamedFrom\`, or remove/rename the ${kind} \`${e.renamedFrom}\``);
      }
    }
  }
  checkTypeNames(ctx, entries, collided);
}

/** Reports identifier collisions; returns the names reported. */
function checkIdentifiers(ctx: CheckContext, kind: string, section: Section, entries: readonly EntrySummary[]): string[] {
  const reported: string[] = [];
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  for (const { name, id } of entries) {
    const first = exact.get(id);
    const firstFolded = folded.get(id.toLowerCase());
    if (first !== undefined) {
      ctx.r.error('MG204', [section, name], `${kind} \`${name}\` derives identifier \`${id}\`, already used by ${kind} \`${first}\``,
        'rename one of them so their identifiers differ (separators `.`, `-`, `_` are ignored when deriving identifiers)', 'key');
    } else if (firstFolded !== undefined) {
      ctx.r.error('MG205', [section, name],
        `${kind} \`${name}\` derives identifier \`${id}\`, which differs only in case from \`${deriveNames(firstFolded).id}\` (${kind} \`${firstFolded}\`)`,
        'handler files are named after identifiers and collide on case-insensitive file systems; rename one of them', 'key');
    }
    if (first !== undefined || firstFolded !== undefined) reported.push(name);
    if (!exact.has(id)) exact.set(id, name);
    if (!folded.has(id.toLowerCase())) folded.set(id.toLowerCase(), name);
  }
  return reported;
}

interface TypeDecl {
  readonly typeName: string;
  readonly what: string;
  readonly path: ManifestPath;
  readonly at: Position;
}

function checkTypeNames(ctx: CheckContext, entries: readonly EntrySummary[], collided: ReadonlySet<string>): void {
  if (allUnique(ctx, entries)) return;
  const pending: Omit<TypeDecl, 'at'>[] = [];
  const add = (typeName: string, what: string, path: ManifestPath): void => {
    pending.push({ typeName, what, path });
  };
  for (const name of Object.keys(ctx.m.schemas ?? {})) add(toTypeName(name), `schema \`${name}\``, ['schemas', name]);
  for (const section of SECTIONS) {
    const { kind, suffixes } = KINDS[section];
    for (const e of entries) {
      if (e.section !== section) continue;
      for (const s of suffixes) add(e.typeBase + s, `${kind} \`${e.name}\``, [section, e.name]);
    }
  }
  // Positions (a second, position-keeping parse) are needed only to order the reports of a clash.
  const counts = new Map<string, number>();
  for (const d of pending) counts.set(d.typeName, (counts.get(d.typeName) ?? 0) + 1);
  if (pending.every((d) => counts.get(d.typeName) === 1 && !RESERVED_TYPES.includes(d.typeName))) return;
  const decls: TypeDecl[] = pending.map((d) => ({ ...d, at: ctx.map.locate(d.path, 'key') }));
  decls.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
  const seen = new Map<string, TypeDecl>();
  // One report per declaration: a primitive exports several types, they would all clash together.
  const reported = new Set<string>();
  for (const d of decls) {
    const first = seen.get(d.typeName);
    if (!first) seen.set(d.typeName, d);
    if (reported.has(d.what) || collided.has(d.what)) continue;
    if (RESERVED_TYPES.includes(d.typeName)) {
      ctx.r.error('MG206', d.path, `${d.what} would export type \`${d.typeName}\`, a name the generated code reserves`,
        `rename it; reserved type names: ${RESERVED_TYPES.join(', ')}`, 'key');
    } else if (first && first.what !== d.what) {
      ctx.r.error('MG206', d.path, `${d.what} would export type \`${d.typeName}\`, already exported for ${first.what}`,
        'rename one of them; every exported type name must be unique across the manifest', 'key');
    } else continue;
    reported.add(d.what);
  }
}

/**
 * True when every type name the manifest exports (`checkTypeNames` lists the same ones) is unique and none
 * is reserved: the common case, answered from the names alone, without the declarations' texts and paths.
 */
function allUnique(ctx: CheckContext, entries: readonly EntrySummary[]): boolean {
  const names = new Set<string>();
  const fresh = (typeName: string): boolean => {
    if (names.has(typeName) || RESERVED_TYPES.includes(typeName)) return false;
    names.add(typeName);
    return true;
  };
  for (const name of Object.keys(ctx.m.schemas ?? {})) if (!fresh(toTypeName(name))) return false;
  for (const section of SECTIONS) {
    const { suffixes } = KINDS[section];
    for (const e of entries) {
      if (e.section !== section) continue;
      for (const s of suffixes) if (!fresh(e.typeBase + s)) return false;
    }
  }
  return true;
}

/** MCP name rules, identifier and type-name uniqueness, and `renamedFrom`. */
export const checkNames: Check = { entry: checkMcpName, whole: checkAcross };
