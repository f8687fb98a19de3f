/**
 * The rollback row's "depends on it" lists come from an index of the words in every text; they must be
 * exactly what testing every text against every name says (the rule the index replaces, restated here).
 */
import { describe, expect, it } from 'vitest';
import { MentionIndex, rollback } from '../../generator/emit/card-fields.js';
import type { Ir, IrPrompt, IrResource, IrTool } from '../../generator/ir/types.js';

type P = IrTool | IrResource | IrPrompt;

/** A seeded generator, so a failure names the seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (text: string | undefined, word: string) => text !== undefined && new RegExp(`(?<![A-Za-z0-9_])${escape(word)}(?![A-Za-z0-9_])`).test(text);

/** The rule, one regular expression per text and name, in the order the card prints it. */
function expected(ir: Ir, p: P): string {
  const word = p.kind === 'resource' ? (p.uri ?? p.uriTemplate!) : p.name;
  const texts = (q: P) => [q.description ?? '', ...(q.kind === 'prompt' ? (q.messages ?? []).flatMap((m) => ('text' in m ? [m.text] : [])) : [])];
  const said = (q: P) => q !== p && texts(q).some((t) => mentions(t, word));
  const embeds = (q: IrPrompt) => p.kind === 'resource' && (q.messages ?? []).some((m) => 'resource' in m && m.resource === p.name);
  const out: string[] = [];
  const embedding = ir.prompts.filter(embeds);
  if (embedding.length) out.push(`prompts that embed it: ${embedding.map((q) => `\`${q.name}\``).join(', ')}`);
  const tools = ir.tools.filter(said);
  const prompts = ir.prompts.filter((q) => said(q) && !embeds(q));
  if (tools.length) out.push(`tools that mention it: ${tools.map((q) => `\`${q.name}\``).join(', ')}`);
  if (prompts.length) out.push(`prompts that mention it: ${prompts.map((q) => `\`${q.name}\``).join(', ')}`);
  if (mentions(ir.server.instructions, word)) out.push('the server instructions mention it');
  return out.length ? `depends on it: ${out.join('; ')}` : 'nothing declared depends on it';
}

/** A small random server whose names share parts, so texts mention names, parts of names and longer names. */
function randomIr(next: () => number): Ir {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const parts = ['a', 'b', 'ab', 'x1', '_'];
  const name = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(parts)).join(pick(['', '.', '-', '_', '/']));
  const names = Array.from({ length: 12 }, name);
  const uris = ['docs://a', 'docs://a/b', 'file:///x1', '/ab', '-a', 'a.b', 'ab{x}'];
  const text = () => Array.from({ length: Math.floor(next() * 8) }, () => pick([...names, ...uris, ' ', '.', ',', '(', 'z', '-', '_', 'ab'])).join(pick(['', ' ']));
  const tools = Array.from({ length: 6 }, (_, i) => ({ kind: 'tool', name: `${names[i]}${i}`, description: text() }) as unknown as IrTool);
  const resources = Array.from({ length: 4 }, (_, i) => ({ kind: 'resource', name: `r${i}`, ...(i % 2 ? { uri: pick(uris) } : { uriTemplate: pick(uris) }), description: text() }) as unknown as IrResource);
  const prompts = Array.from({ length: 5 }, (_, i) => ({
    kind: 'prompt',
    name: names[6 + i] ?? `p${i}`,
    description: next() < 0.2 ? undefined : text(),
    messages: next() < 0.3 ? undefined : [{ role: 'user', text: text() }, ...(next() < 0.5 ? [{ role: 'user', resource: `r${Math.floor(next() * 4)}` }] : [])],
  }) as unknown as IrPrompt);
  return { tools, resources, prompts, server: { instructions: next() < 0.5 ? text() : undefined } } as unknown as Ir;
}

describe('the rollback row', () => {
  it('lists exactly the primitives and instructions that mention a primitive, on random servers', () => {
    let compared = 0, nonEmpty = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const ir = randomIr(rng(seed));
      const index = new MentionIndex(ir);
      for (const p of [...ir.tools, ...ir.resources, ...ir.prompts]) {
        const row = rollback(ir, p, index);
        expect(row.slice(row.indexOf('; ') + 2), `seed ${seed}, ${p.kind} ${p.name}`).toBe(expected(ir, p));
        compared++;
        if (row.includes('mention')) nonEmpty++;
      }
    }
    // The random servers do exercise mentions (the comparison is not only of empty lists).
    expect(nonEmpty).toBeGreaterThan(compared / 4);
  });
  it('tests a name only against the texts holding its rarest run of word characters', () => {
    // Every description says "tickets", the first run of every name: testing against the texts holding that run would be every text.
    const tools = Array.from({ length: 40 }, (_, i) => ({ kind: 'tool', name: `tickets.get_r${i}`, description: `Works on tickets. Then call tickets.get_r${(i + 1) % 40}.` }) as unknown as IrTool);
    const ir = { tools, resources: [], prompts: [], server: {} } as unknown as Ir;
    const index = new MentionIndex(ir);
    expect(index.candidates('tickets.get_r3').map((q) => q.name)).toEqual(['tickets.get_r2']);
    expect(index.candidates('tickets.none')).toEqual([]);
    expect(rollback(ir, tools[3]!, index)).toContain('tools that mention it: `tickets.get_r2`');
  });
});
