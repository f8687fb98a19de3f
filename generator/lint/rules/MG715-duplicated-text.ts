import type { LintContext, LintFinding, LintPath, LintRule, PrimitiveRef } from '../types.js';

/** Texts shorter than this (after normalising whitespace and case) are never reported. */
export const MIN_DUPLICATE_CHARS = 80;
/** Large `source:` files are compared on their first part only. */
const MAX_SOURCE_CHARS = 200_000;

interface Text {
  readonly owner: PrimitiveRef;
  readonly path: LintPath;
  readonly label: string;
  readonly text: string;
}

function texts(ctx: LintContext): Text[] {
  const out: Text[] = [];
  for (const r of ctx.ir.resources) {
    const owner: PrimitiveRef = { kind: 'resources', name: r.name };
    if (r.description) out.push({ owner, path: ['resources', r.name, 'description'], label: `the description of resource \`${r.name}\``, text: r.description });
    if (r.source?.encoding === 'text') out.push({ owner, path: ['resources', r.name, 'source'], label: `resource \`${r.name}\` (${r.source.path})`, text: r.source.content.slice(0, MAX_SOURCE_CHARS) });
  }
  for (const t of ctx.ir.tools) {
    if (t.description) out.push({ owner: { kind: 'tools', name: t.name }, path: ['tools', t.name, 'description'], label: `the description of tool \`${t.name}\``, text: t.description });
  }
  for (const p of ctx.ir.prompts) {
    (p.messages ?? []).forEach((m, i) => {
      if ('text' in m) out.push({ owner: { kind: 'prompts', name: p.name }, path: ['prompts', p.name, 'messages', i, 'text'], label: `a message of prompt \`${p.name}\``, text: m.text });
    });
  }
  return out;
}

const normalise = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The copy to point at: never a resource (the text's proper home), else the later text. */
function copyOf(j: number, i: number, all: readonly Text[]): [home: number, copy: number] {
  return all[i]!.owner.kind === 'resources' ? [i, j] : [j, i];
}

/** For every text that repeats another kind's text: the indexes of the texts it repeats. */
function duplicates(all: readonly Text[]): Map<number, Set<number>> {
  const seen = new Map<string, number>();
  const homes = new Map<number, Set<number>>();
  all.forEach((t, i) => {
    const n = normalise(t.text);
    for (let k = 0; k + MIN_DUPLICATE_CHARS <= n.length; k++) {
      const w = n.slice(k, k + MIN_DUPLICATE_CHARS);
      const j = seen.get(w);
      if (j === undefined) seen.set(w, i);
      else if (all[j]!.owner.kind !== t.owner.kind) {
        const [home, copy] = copyOf(j, i, all);
        homes.set(copy, (homes.get(copy) ?? new Set()).add(home));
      }
    }
  });
  return homes;
}

function check(ctx: LintContext): LintFinding[] {
  const all = texts(ctx);
  return [...duplicates(all)].map(([c, hs]) => {
    const copy = all[c]!;
    const homes = [...hs].sort((a, b) => a - b).map((h) => all[h]!);
    const resource = homes.find((h) => h.owner.kind === 'resources');
    return {
      path: copy.path,
      owner: copy.owner,
      message: `${copy.label} repeats text from ${homes.map((h) => h.label).join(' and ')} (${MIN_DUPLICATE_CHARS}+ identical characters)`,
      hint: resource
        ? `keep the text in resource \`${resource.owner.name}\` only: embed it in prompts (\`resource: ${resource.owner.name}\`) and let tool descriptions say what the tool does in one line`
        : 'keep each text in one place: reusable context in a resource, the workflow in the prompt, and a one-line purpose in the tool description',
    };
  });
}

/** MG715: the same long text in a prompt, a resource and a tool description. */
export const rule: LintRule = {
  code: 'MG715',
  name: 'duplicated-text',
  defaultSeverity: 'warning',
  // Compares the texts of all primitives with each other.
  reads: 'manifest',
  description: `The same text (${MIN_DUPLICATE_CHARS}+ characters, ignoring case and spacing) in two kinds of primitive: a tool description, a resource (description or source) and a prompt message.`,
  check,
};
