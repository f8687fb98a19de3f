/**
 * Whole locks compared: which primitives were added, removed, renamed or
 * changed, and the server-wide cache hints; findings come from the named rules (rules.ts).
 */
import { classify } from './rules.js';
import { SECTIONS, type Change, type DiffResult, type Finding, type Lock, type Renames, type Severity } from './types.js';

const finding = (path: string, change: string, severity: Severity, detail: string): Finding => ({ path, change, severity, detail });

/**
 * Every change from `baseline` to `current`. A current primitive whose
 * `renamedFrom` names a baseline primitive that is gone is one rename
 * (breaking: clients call it by its old name), compared field by field with
 * its old contract — not a removal plus an addition.
 */
export function compareLocks(baseline: Lock, current: Lock, renames: Renames): DiffResult {
  const all: Change[] = [];
  for (const kind of ['tool', 'resource', 'prompt'] as const) {
    const section = SECTIONS[kind];
    const before = baseline[section];
    const after = current[section];
    const tag = (name: string) => (f: Finding): Change => ({ kind, name, ...f, path: f.path === '' ? `${section}.${name}` : `${section}.${name}.${f.path}` });
    const consumed = new Set<string>();
    for (const name of Object.keys(after).sort()) {
      const old = renames[kind].get(name);
      const from = Object.hasOwn(before, name) ? name : old !== undefined && Object.hasOwn(before, old) && !Object.hasOwn(after, old) ? old : undefined;
      if (from === undefined) {
        all.push(tag(name)(finding('', 'added', 'compatible', 'added')));
        continue;
      }
      consumed.add(from);
      if (from !== name) all.push(tag(name)(finding('', 'renamed', 'breaking', `renamed from ${from}; clients that use ${from} break`)));
      if (before[from]!.hash !== after[name]!.hash || from !== name) all.push(...classify(kind, before[from]!.contract, after[name]!.contract).map(tag(name)));
    }
    for (const name of Object.keys(before).sort()) {
      if (!Object.hasOwn(after, name) && !consumed.has(name)) all.push(tag(name)(finding('', 'removed', 'breaking', 'removed')));
    }
  }
  all.push(...serverChanges(baseline, current));
  return { breaking: all.filter((c) => c.severity === 'breaking'), compatible: all.filter((c) => c.severity === 'compatible') };
}

/**
 * The server-wide part of the lock: the cache hints of discovery and the listings, located from the lock's
 * top level (`cacheHints.tools/list.cacheScope`). A baseline that predates them is not compared.
 */
function serverChanges(baseline: Lock, current: Lock): Change[] {
  if (baseline.cacheHints === undefined || current.cacheHints === undefined) return [];
  const name = current.server?.name ?? baseline.server?.name ?? 'server';
  return classify('server', { cacheHints: baseline.cacheHints }, { cacheHints: current.cacheHints }).map((f): Change => ({ kind: 'server', name, ...f }));
}
