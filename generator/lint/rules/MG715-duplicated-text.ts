import type { LintContext, LintFinding, LintPath, LintRule, PrimitiveRef } from '../types.js';

/** Texts shorter than this (after normalising whitespace and case) are never reported. */
export const MIN_DUPLICATE_CHARS = 80;
/** Large `source:` files are compared on their first part only. */
const MAX_SOURCE_CHARS = 200_000;

/** A text compared: where it is (its path and label are made only for a text reported, see `placeOf`). */
interface Text {
  readonly owner: PrimitiveRef;
  /** The field holding it: a description, a resource's source, or the index of a prompt message. */
  readonly field: 'description' | 'source' | number;
  readonly text: string;
  /** A resource source's file. */
  readonly file?: string;
}

function texts(ctx: LintContext): Text[] {
  const out: Text[] = [];
  for (const r of ctx.ir.resources) {
    const owner: PrimitiveRef = { kind: 'resources', name: r.name };
    if (r.description) out.push({ owner, field: 'description', text: r.description });
    if (r.source?.encoding === 'text') out.push({ owner, field: 'source', text: r.source.content.slice(0, MAX_SOURCE_CHARS), file: r.source.path });
  }
  for (const t of ctx.ir.tools) {
    if (t.description) out.push({ owner: { kind: 'tools', name: t.name }, field: 'description', text: t.description });
  }
  for (const p of ctx.ir.prompts) {
    (p.messages ?? []).forEach((m, i) => {
      if ('text' in m) out.push({ owner: { kind: 'prompts', name: p.name }, field: i, text: m.text });
    });
  }
  return out;
}

/** A reported text's path and how findings name it. */
function placeOf(t: Text): { readonly path: LintPath; readonly label: string } {
  const { kind, name } = t.owner;
  if (typeof t.field === 'number') return { path: ['prompts', name, 'messages', t.field, 'text'], label: `a message of prompt \`${name}\`` };
  if (t.field === 'source') return { path: ['resources', name, 'source'], label: `resource \`${name}\` (${t.file})` };
  return { path: [kind, name, 'description'], label: `the description of ${kind === 'tools' ? 'tool' : 'resource'} \`${name}\`` };
}

/** A text as compared: lower case, each run of white space one space, trimmed. */
export const normalise = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The copy to point at: never a resource (the text's proper home), else the later text. */
function copyOf(j: number, i: number, all: readonly Pick<Text, 'owner'>[]): [home: number, copy: number] {
  return all[i]!.owner.kind === 'resources' ? [i, j] : [j, i];
}

/**
 * For every text that repeats another kind's text: the indexes of the texts it repeats, by comparing every
 * window of `MIN_DUPLICATE_CHARS` characters of every text (normalised; `norm[i]` is `normalise(all[i].text)`).
 */
export function duplicatesOf(all: readonly Pick<Text, 'owner'>[], norm: readonly string[]): Map<number, Set<number>> {
  const seen = new Map<string, number>();
  const homes = new Map<number, Set<number>>();
  all.forEach((t, i) => {
    const n = norm[i]!;
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

const KIND_BIT: Readonly<Record<PrimitiveRef['kind'], number>> = { tools: 1, resources: 2, prompts: 4 };
const BASE = 31;
/** `BASE` to the power `MIN_DUPLICATE_CHARS - 1`, modulo 2^32: what the character leaving a window weighed. */
const OUTGOING = Array.from({ length: MIN_DUPLICATE_CHARS - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);

/** A 30-bit hash of every window of `MIN_DUPLICATE_CHARS` characters of `n`, in order (a rolling hash). */
function windows(n: string): Int32Array {
  if (n.length < MIN_DUPLICATE_CHARS) return new Int32Array(0);
  const out = new Int32Array(n.length - MIN_DUPLICATE_CHARS + 1);
  let h = 0;
  for (let k = 0; k < MIN_DUPLICATE_CHARS; k++) h = (Math.imul(h, BASE) + n.charCodeAt(k)) | 0;
  out[0] = h & 0x3fffffff;
  for (let k = MIN_DUPLICATE_CHARS; k < n.length; k++) {
    h = (Math.imul(h - Math.imul(n.charCodeAt(k - MIN_DUPLICATE_CHARS), OUTGOING), BASE) + n.charCodeAt(k)) | 0;
    out[k - MIN_DUPLICATE_CHARS + 1] = h & 0x3fffffff;
  }
  return out;
}

/**
 * `duplicatesOf`, comparing only the texts that may share a window with a text of another kind. A window
 * whose texts are all of one kind is never reported, and a text that shares no window with another kind
 * is never the first text of a window some other kind shares, so leaving such texts out (keeping the
 * others in order) changes no answer. Which texts may is found by hashing windows: equal windows hash
 * alike, so a text sharing a window with another kind is always kept, and a collision only keeps one more.
 * The texts of the kind with the most characters are looked up, never added, in the other kinds' windows.
 * The loops over windows index their arrays: a command-line run does not optimize (generator/cli/oneShot.ts),
 * and an iterator there allocates a result object per window.
 */
export function duplicates(all: readonly Pick<Text, 'owner'>[], norm: readonly string[]): Map<number, Set<number>> {
  const size = { tools: 0, resources: 0, prompts: 0 };
  all.forEach((t, i) => (size[t.owner.kind] += norm[i]!.length));
  const big = (Object.keys(size) as PrimitiveRef['kind'][]).reduce((a, b) => (size[b] > size[a] ? b : a));
  // Each window of the other kinds: the kinds it appears in, and 8 once a text of the big kind has it too.
  const hashes = norm.map(windows);
  const kinds = new Map<number, number>();
  all.forEach((t, i) => {
    if (t.owner.kind === big) return;
    const bit = KIND_BIT[t.owner.kind];
    const hs = hashes[i]!;
    for (let k = 0; k < hs.length; k++) kinds.set(hs[k]!, (kinds.get(hs[k]!) ?? 0) | bit);
  });
  const kept: number[] = [];
  const keep = new Uint8Array(all.length);
  if (kinds.size > 0) {
    all.forEach((t, i) => {
      if (t.owner.kind !== big) return;
      const hs = hashes[i]!;
      for (let k = 0; k < hs.length; k++) {
        const h = hs[k]!;
        const m = kinds.get(h);
        if (m === undefined) continue;
        keep[i] = 1;
        if ((m & 8) === 0) kinds.set(h, m | 8);
      }
    });
    all.forEach((t, i) => {
      if (t.owner.kind === big) return;
      const own = KIND_BIT[t.owner.kind];
      const hs = hashes[i]!;
      for (let k = 0; k < hs.length; k++) if ((kinds.get(hs[k]!)! & ~own) !== 0) keep[i] = 1;
    });
  }
  all.forEach((_, i) => keep[i] === 1 && kept.push(i));
  const found = duplicatesOf(kept.map((i) => all[i]!), kept.map((i) => norm[i]!));
  return new Map([...found].map(([copy, homes]) => [kept[copy]!, new Set([...homes].map((h) => kept[h]!))]));
}

function check(ctx: LintContext): LintFinding[] {
  const all = texts(ctx);
  // A function of the texts and where each is, alone: kept across runs, so a change that touches no text
  // (a schema, a prompt's description, a side effect) compares nothing again.
  return ctx.remember(`MG715\u0000${JSON.stringify(all)}`, () => findings(all));
}

function findings(all: readonly Text[]): LintFinding[] {
  return [...duplicates(all, all.map((t) => normalise(t.text)))].map(([c, hs]) => {
    const copy = { ...all[c]!, ...placeOf(all[c]!) };
    const homes = [...hs].sort((a, b) => a - b).map((h) => ({ ...all[h]!, ...placeOf(all[h]!) }));
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
