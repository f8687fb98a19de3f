/**
 * MG715 compares only the texts that share a fingerprint with another kind (winnowing, `fingerprints`),
 * taking the fingerprints of unchanged texts from the table the last run carried; the answer must be what
 * comparing every window of every text gives, on texts that share long runs within a kind, across kinds,
 * several times, at their ends and in the middle, with and without a table, and after edits.
 */
import { describe, expect, it } from 'vitest';
import { MIN_DUPLICATE_CHARS, comparedByFingerprints, duplicatesOf, fingerprints, normalise, rule } from '../../generator/lint/rules/MG715-duplicated-text.js';
import type { Carried, LintContext } from '../../generator/lint/types.js';
import type { PrimitiveRef } from '../../generator/lint/types.js';

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS: PrimitiveRef['kind'][] = ['tools', 'resources', 'prompts'];
const WORDS = ['Look', 'up', 'one', 'item', 'of', 'the', 'collection', 'by', 'id.', 'Read', 'only.', 'Not', 'for', 'searching', 'ÄÖ', 'İstanbul', '  ', '\n'];

function texts(next: () => number): { owner: PrimitiveRef; text: string }[] {
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const phrase = (n: number) => Array.from({ length: n }, word).join(' ');
  // Long runs that several texts share: one long enough to be reported, some just short of it.
  const runs = Array.from({ length: 4 }, () => phrase(12 + Math.floor(next() * 20)));
  const count = 2 + Math.floor(next() * 30);
  return Array.from({ length: count }, (_, i) => {
    const kind = next() < 0.6 ? 'tools' : KINDS[Math.floor(next() * 3)]!;
    const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => (next() < 0.5 ? runs[Math.floor(next() * runs.length)]! : phrase(Math.floor(next() * 25))));
    return { owner: { kind, name: `p${i}` }, text: parts.join(next() < 0.5 ? ' ' : '\n') };
  });
}

const plain = (m: Map<number, Set<number>>): [number, number[]][] => [...m].map(([c, hs]) => [c, [...hs]]);

/** A table carried between runs, as the cache carries it (through JSON). */
function carrier(): Carried & { table: unknown } {
  const c = {
    table: undefined as unknown,
    last: () => (c.table === undefined ? undefined : JSON.parse(JSON.stringify(c.table))),
    keep: (value: unknown) => void (c.table = JSON.parse(JSON.stringify(value))),
  };
  return c;
}

/** `all` with one text edited, removed or added (by `next`), as one change of a manifest does. */
function edited(all: { owner: PrimitiveRef; text: string }[], next: () => number): { owner: PrimitiveRef; text: string }[] {
  const out = [...all];
  const at = Math.floor(next() * out.length);
  // A list of one text only grows.
  const r = out.length < 2 ? 0.7 : next();
  if (r < 0.4) out[at] = { ...out[at]!, text: `${out[at]!.text} ${r < 0.2 ? 'edited' : out[Math.floor(next() * out.length)]!.text}` };
  else if (r < 0.6) out.splice(at, 1);
  else if (r < 0.8) out.splice(at, 0, { ...out[Math.floor(next() * out.length)]!, owner: { kind: KINDS[Math.floor(next() * 3)]!, name: 'added' } });
  else out[at] = { ...out[at]!, owner: { ...out[at]!.owner, kind: KINDS[Math.floor(next() * 3)]! } };
  return out;
}

describe('MG715 on the texts that may share a window with another kind', () => {
  it('finds what comparing every window finds, on random texts', () => {
    let reported = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const all = texts(random(seed));
      const norm = all.map((t) => normalise(t.text));
      const whole = duplicatesOf(all, norm);
      reported += whole.size;
      expect(plain(comparedByFingerprints(all)), `seed ${seed}`).toEqual(plain(whole));
    }
    // The texts are built so that many repeat another kind's text.
    expect(reported).toBeGreaterThan(400);
  });

  it('finds it again after each edit with the table the last run carried', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const next = random(seed);
      const carried = carrier();
      let all = texts(next);
      for (let run = 0; run < 6; run++) {
        const whole = duplicatesOf(all, all.map((t) => normalise(t.text)));
        expect(plain(comparedByFingerprints(all, carried)), `seed ${seed}, run ${run}`).toEqual(plain(whole));
        all = edited(all, next);
      }
    }
  });

  it('shares a fingerprint wherever two texts share a window, whatever surrounds it', () => {
    const next = random(7);
    const chars = 'abcdefghij klmnopqrstuvwxyz0123456789';
    const text = (n: number) => Array.from({ length: n }, () => chars[Math.floor(next() * chars.length)]!).join('');
    for (let i = 0; i < 300; i++) {
      const shared = text(MIN_DUPLICATE_CHARS + Math.floor(next() * 3));
      const a = fingerprints(`${text(Math.floor(next() * 120))}${shared}${text(Math.floor(next() * 120))}`);
      const b = fingerprints(`${text(Math.floor(next() * 120))}${shared}${text(Math.floor(next() * 120))}`);
      expect(a.some((f) => b.includes(f)), `case ${i}`).toBe(true);
    }
    // About one substring in 33 is a fingerprint: few enough to carry.
    const long = fingerprints(text(3300));
    expect(long.length).toBeGreaterThan(50);
    expect(long.length).toBeLessThan(200);
  });

  it('answers from the carried table for the texts it holds, and ignores a table of another form', () => {
    const run = 'refunds are paid within fourteen days to the card used, once the returned item is checked';
    const all = [
      { owner: { kind: 'resources', name: 'policy' } as PrimitiveRef, text: run },
      { owner: { kind: 'tools', name: 'refund' } as PrimitiveRef, text: `Refund an order. ${run}` },
    ];
    expect(comparedByFingerprints(all).size).toBe(1);
    // A table that says the tool's text has no fingerprint in common with the resource's: it is believed.
    const lying = carrier();
    lying.table = { gram: 16, texts: [[`=${all[1]!.text}`, [1]]] };
    expect(comparedByFingerprints(all, lying).size).toBe(0);
    // The table kept for the next run lists both texts, the resource's with its own fingerprints.
    expect((lying.table as { texts: [string, number[]][] }).texts).toEqual([[`=${run}`, fingerprints(normalise(run))], [`=${all[1]!.text}`, [1]]]);
    // A text repeated by many primitives is listed once.
    const repeated = carrier();
    comparedByFingerprints([...all, ...all, { ...all[1]!, owner: { kind: 'prompts', name: 'again' } }], repeated);
    expect((repeated.table as { texts: [string, number[]][] }).texts.map(([key]) => key)).toEqual([`=${run}`, `=${all[1]!.text}`]);
    for (const table of [{ gram: 15, texts: [[`=${all[1]!.text}`, [1]]] }, { gram: 16, texts: [[`=${all[1]!.text}`, ['1']]] }, { gram: 16 }, 'x', null]) {
      const other = carrier();
      other.table = table;
      expect(comparedByFingerprints(all, other).size, JSON.stringify(table)).toBe(1);
    }
  });

  it('keeps the order of the first text of a window when its kind is not the biggest', () => {
    const run = 'x'.repeat(MIN_DUPLICATE_CHARS);
    const all = [
      { owner: { kind: 'prompts', name: 'a' } as PrimitiveRef, text: run },
      { owner: { kind: 'tools', name: 'b' } as PrimitiveRef, text: `${run} ${'tool text '.repeat(40)}` },
      { owner: { kind: 'tools', name: 'c' } as PrimitiveRef, text: run },
      { owner: { kind: 'resources', name: 'd' } as PrimitiveRef, text: run },
    ];
    const norm = all.map((t) => normalise(t.text));
    expect(plain(comparedByFingerprints(all))).toEqual(plain(duplicatesOf(all, norm)));
    expect(comparedByFingerprints(all).size).toBe(3);
  });

  it('names a resource source by its file, a prompt message by its prompt, and points at the copy', () => {
    const policy = 'Refunds are paid within fourteen days to the card used, once the returned item has been received and checked.';
    const ir = {
      resources: [{ name: 'policy', source: { encoding: 'text', path: 'docs/policy.md', content: `# Policy\n\n${policy}\n` } }],
      tools: [{ name: 'orders.refund', description: `Refund an order. ${policy}` }],
      prompts: [{ name: 'refund', messages: [{ role: 'user', text: 'Hello.' }, { role: 'user', text: policy.toUpperCase() }] }],
    };
    const found = rule.check({ ir, remember: (_key: string, compute: () => unknown) => compute() } as unknown as LintContext);
    expect(found.map((f) => [f.path, f.owner, f.message])).toEqual([
      [['tools', 'orders.refund', 'description'], { kind: 'tools', name: 'orders.refund' }, `the description of tool \`orders.refund\` repeats text from resource \`policy\` (docs/policy.md) (${MIN_DUPLICATE_CHARS}+ identical characters)`],
      [['prompts', 'refund', 'messages', 1, 'text'], { kind: 'prompts', name: 'refund' }, `a message of prompt \`refund\` repeats text from resource \`policy\` (docs/policy.md) (${MIN_DUPLICATE_CHARS}+ identical characters)`],
    ]);
  });

  it('is remembered under the texts and where each is: compared again only when one of them changes', () => {
    const policy = 'Refunds are paid within fourteen days to the card used, once the returned item has been received and checked.';
    const kept = new Map<string, unknown>();
    let compared = 0;
    const remember = (key: string, compute: () => unknown) => {
      if (!kept.has(key)) (compared++, kept.set(key, JSON.parse(JSON.stringify(compute()))));
      return JSON.parse(JSON.stringify(kept.get(key)));
    };
    const check = (ir: object) => rule.check({ ir, remember } as unknown as LintContext).map((f) => f.message);
    const ir = (description: string, path = 'docs/policy.md', sideEffect = 'read') => ({
      resources: [{ name: 'policy', source: { encoding: 'text', path, content: policy } }],
      tools: [{ name: 'orders.refund', description, sideEffect, input: { type: 'object' } }],
      prompts: [],
    });
    const first = check(ir(`Refund an order. ${policy}`));
    expect(first).toHaveLength(1);
    // What the rule does not read (a side effect, a schema) changes nothing it compares.
    expect(check({ ...ir(`Refund an order. ${policy}`, 'docs/policy.md', 'write'), schemas: [{ name: 'X', schema: {} }] })).toEqual(first);
    expect(compared).toBe(1);
    // A text, or where a text is (a finding names the file), is compared again.
    expect(check(ir('Refund an order.'))).toEqual([]);
    expect(check(ir(`Refund an order. ${policy}`, 'docs/refunds.md'))).toEqual([first[0]!.replace('docs/policy.md', 'docs/refunds.md')]);
    expect(compared).toBe(3);
  });
});
