import { keyHash } from '../../cache.js';
import type { Carried, LintContext, LintFinding, LintPath, LintRule, PrimitiveRef } from '../types.js';

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

/** Characters of the substrings whose hashes fingerprint a text (see `fingerprints`). */
const GRAM = 16;
/** Consecutive substrings of `GRAM` characters that one window of `MIN_DUPLICATE_CHARS` characters holds. */
const SPAN = MIN_DUPLICATE_CHARS - GRAM + 1;
/** `BASE` to the power `GRAM - 1`, modulo 2^32: what the character leaving a substring weighed. */
const GRAM_OUTGOING = Array.from({ length: GRAM - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);

/**
 * The fingerprints of a normalised text (winnowing): for every window of `MIN_DUPLICATE_CHARS` characters,
 * the least 30-bit hash of the `SPAN` substrings of `GRAM` characters it holds, each value once. Two texts
 * that share a window share that window's fingerprint (the same substrings, so the same least hash), so a
 * text with no fingerprint in common with another kind's texts shares no window with them; about one
 * substring in 33 is a fingerprint, so the texts' fingerprints are few enough to carry from run to run.
 */
export function fingerprints(n: string): number[] {
  if (n.length < MIN_DUPLICATE_CHARS) return [];
  const count = n.length - GRAM + 1;
  const hs = new Int32Array(count);
  let h = 0;
  for (let k = 0; k < GRAM; k++) h = (Math.imul(h, BASE) + n.charCodeAt(k)) | 0;
  hs[0] = h & 0x3fffffff;
  for (let k = GRAM; k < n.length; k++) {
    h = (Math.imul(h - Math.imul(n.charCodeAt(k - GRAM), GRAM_OUTGOING), BASE) + n.charCodeAt(k)) | 0;
    hs[k - GRAM + 1] = h & 0x3fffffff;
  }
  // The least hash of each run of SPAN hashes, with a queue of the positions that may still be one.
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  const out = new Set<number>();
  for (let k = 0; k < count; k++) {
    while (tail > head && hs[queue[tail - 1]!]! >= hs[k]!) tail--;
    queue[tail++] = k;
    if (queue[head]! <= k - SPAN) head++;
    if (k >= SPAN - 1) out.add(hs[queue[head]!]!);
  }
  return [...out];
}

/** Texts this long or longer are known to the carried table by a hash of their text, not by the text. */
const HASHED_TEXT = 1000;
const tableKey = (text: string): string => (text.length < HASHED_TEXT ? `=${text}` : `#${keyHash(text)}`);

/** The fingerprints of every text of the last run, by `tableKey`, when `last` is such a table. */
function lastFingerprints(last: unknown): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (last === null || typeof last !== 'object' || (last as { gram?: unknown }).gram !== GRAM) return out;
  const entries = (last as { texts?: unknown }).texts;
  if (!Array.isArray(entries)) return out;
  for (const e of entries) {
    if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && Array.isArray(e[1]) && e[1].every((v) => Number.isInteger(v))) out.set(e[0], e[1] as number[]);
  }
  return out;
}

/**
 * `duplicatesOf` on every text, comparing only the texts that share a fingerprint with another kind's
 * (hashes collide, so maybe more than those that share a window). A text that shares a window with another
 * kind shares a fingerprint with it (see `fingerprints`), and leaving out texts that share no window with
 * another kind (keeping the others in order) changes no answer: a window whose texts are all of one kind
 * is never reported, and such a text is never the first text of a window another kind shares. With
 * `carried`, a text's fingerprints come from the last run's table when its text is there, and the table of
 * this run's texts is kept for the next.
 */
export function comparedByFingerprints(all: readonly Pick<Text, 'owner' | 'text'>[], carried?: Carried): Map<number, Set<number>> {
  const last = lastFingerprints(carried?.last());
  // Each text once (a catalog may repeat a description many times), in order.
  const table = new Map<string, number[]>();
  const fps = all.map((t) => {
    const key = tableKey(t.text);
    let f = table.get(key) ?? last.get(key);
    if (f === undefined) f = fingerprints(normalise(t.text));
    if (f.length > 0) table.set(key, f);
    return f;
  });
  carried?.keep({ gram: GRAM, texts: [...table] });
  // Each fingerprint: the kinds whose texts have it. The loops index their arrays: a command-line run does
  // not optimize (generator/cli/oneShot.ts), and an iterator there allocates a result object per step.
  const kinds = new Map<number, number>();
  all.forEach((t, i) => {
    const bit = KIND_BIT[t.owner.kind];
    const f = fps[i]!;
    for (let k = 0; k < f.length; k++) kinds.set(f[k]!, (kinds.get(f[k]!) ?? 0) | bit);
  });
  const kept: number[] = [];
  all.forEach((t, i) => {
    const own = KIND_BIT[t.owner.kind];
    if (fps[i]!.some((f) => (kinds.get(f)! & ~own) !== 0)) kept.push(i);
  });
  if (kept.length === 0) return new Map();
  const found = duplicatesOf(kept.map((i) => all[i]!), kept.map((i) => normalise(all[i]!.text)));
  return new Map([...found].map(([copy, homes]) => [kept[copy]!, new Set([...homes].map((h) => kept[h]!))]));
}

function check(ctx: LintContext): LintFinding[] {
  const all = texts(ctx);
  // A function of the texts and where each is, alone: kept across runs, so a change that touches no text
  // (a schema, a prompt's description, a side effect) compares nothing again. A change of one text finds
  // every other text's fingerprints in the table the last run carried.
  const carried = ctx.carried?.('MG715.fingerprints');
  return ctx.remember(`MG715\u0000${JSON.stringify(all)}`, () => findings(all, carried));
}

function findings(all: readonly Text[], carried?: Carried): LintFinding[] {
  return [...comparedByFingerprints(all, carried)].map(([c, hs]) => {
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
