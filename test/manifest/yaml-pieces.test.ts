/**
 * Reading a manifest in pieces (top-level keys, primitive entries) gives exactly the value of reading it
 * whole, or declines; checked on random YAML built to sit near every cut: block scalars that keep their
 * trailing lines, comments and blank lines at every indentation, flow collections and quoted strings over
 * several lines, anchors, odd keys, duplicate keys, line ends of both kinds.
 */
import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readInPieces, type YamlMemo } from '../../generator/manifest/yaml-chunks.js';

/** A memo like the incremental cache's: JSON copies by exact text, kept across texts. */
function jsonMemo(): YamlMemo & { hits: number } {
  const kept = new Map<string, string>();
  const memo = {
    hits: 0,
    piece(text: string, read: () => readonly unknown[]) {
      const hit = kept.get(text);
      if (hit !== undefined) return (memo.hits++, JSON.parse(hit) as unknown[]);
      const v = read();
      kept.set(text, JSON.stringify(v));
      return v;
    },
  };
  return memo;
}

const read = (t: string) => load(t);
const whole = (t: string): { value: unknown } | 'throws' => {
  try {
    return { value: load(t) };
  } catch {
    return 'throws';
  }
};

/** Mostly what manifests hold, sometimes what must make the cut decline (or the whole read fail). */
const mostly = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: usual }, { weight: 1, arbitrary: odd });
const key = mostly(fc.constantFrom('a', 'b', 'a.b', 'x_1', 'tools', 'n-2'), fc.constantFrom('"q"', 'null', '? c', '- d', 'a b', '__proto__'));
const scalar = mostly(fc.constantFrom('1', 'text', '"two: words"', "'it''s'", '[1, 2]', '{x: 1}', '~', '', 'true'), fc.constantFrom('&k v', '*k', '"open', '{x: 1,'));
/** Lines of a value under a key at `indent` (block scalars, nested maps, comments, flow over lines). */
const body = (indent: number) => {
  const pad = ' '.repeat(indent + 2);
  return fc.array(
    fc.oneof(
      fc.tuple(key, scalar).map(([k, v]) => `${pad}${k}: ${v}`),
      fc.constantFrom('|', '|+', '|-', '>', '>+').map((h) => `${pad}d: ${h}\n${pad}  line one\n\n${pad}  line two\n`),
      fc.constantFrom('#', '# c', '').map((c) => `${' '.repeat(indent)}${c}`),
      fc.constant(`${pad}f: {x: 1,\n${' '.repeat(indent)}y: 2}`),
      fc.constant(`${pad}s: "first\n${' '.repeat(indent)}  second"`),
      fc.constant(`${pad}- item`),
    ),
    { maxLength: 5 },
  ).map((ls) => ls.join('\n'));
};
const entry = (indent: number) => fc.tuple(key, fc.option(scalar, { nil: undefined }), body(indent)).map(([k, v, b]) => `${' '.repeat(indent)}${k}:${v === undefined ? '' : ` ${v}`}\n${b}`);
const section = fc.oneof(
  entry(0),
  fc.tuple(fc.constantFrom('tools', 'resources', 'prompts', 'schemas'), fc.array(entry(2), { maxLength: 5 }), fc.constantFrom('', ' # list')).map(([k, es, c]) => `${k}:${c}\n${es.join('\n')}`),
  mostly(fc.constantFrom('# top comment', ''), fc.constantFrom('---', '...', '%YAML 1.2', 'plain line', '  indented: 1')),
);
const doc = fc.tuple(fc.array(section, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean()).map(([ss, crlf, end]) => {
  const t = ss.join('\n') + (end ? '\n' : '');
  return crlf ? t.replace(/\n/g, '\r\n') : t;
});

describe('reading a manifest in pieces', () => {
  it('gives the value of reading it whole, or declines, on random YAML', () => {
    const memo = jsonMemo();
    let read_ = 0;
    fc.assert(
      fc.property(doc, (text) => {
        const pieces = (() => {
          try {
            return { value: readInPieces(text, read, memo) };
          } catch {
            return 'throws' as const;
          }
        })();
        expect(pieces).not.toBe('throws');
        if (pieces === 'throws' || pieces.value === undefined) return;
        read_++;
        expect(whole(text)).toEqual({ value: pieces.value });
      }),
      { numRuns: 3000, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    // The cases are not all declined, and the memo answered some pieces.
    expect(read_).toBeGreaterThan(100);
    expect(memo.hits).toBeGreaterThan(0);
  });

  it('reads the entries of a primitive section one by one, so one changed entry is the one piece read again', () => {
    const text = (d: string) => `mcpgen: 1\ntools:\n  a.get:\n    description: ${d}\n  b.set:\n    description: |+\n      kept\n\n  # about c\n  c:\n    x: [1,\n      2]\n`;
    const memo = jsonMemo();
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    expect(readInPieces(text('one'), counting, memo)).toEqual(load(text('one')));
    asked.length = 0;
    expect(readInPieces(text('two'), counting, memo)).toEqual(load(text('two')));
    expect(asked).toEqual(['  a.get:\n    description: two\n']);
  });
});
