/**
 * Reading a manifest in pieces (top-level keys, primitive entries) gives exactly the value of reading it
 * whole, or declines; checked on random YAML built to sit near every cut: block scalars that keep their
 * trailing lines, comments and blank lines at every indentation, flow collections and quoted strings over
 * several lines, anchors, odd keys, duplicate keys, line ends of both kinds.
 */
import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readInPieces, type LazyEntries, type YamlMemo } from '../../generator/manifest/yaml-chunks.js';

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

/** The lines of an entry under a section: mostly what manifests hold, sometimes what stops the cut or the read. */
const entryBody = fc
  .array(mostly(fc.constantFrom('    d: one', '    d: |\n      line one\n\n      line two\n', '    # c', '', '    s: "first\n      second"', '    f: [1,\n      2]', '    n: ~'), fc.constantFrom('    - item', '  # shallow', '    d: *k', '    x: 1\n    x: 2')), { minLength: 1, maxLength: 4 })
  .map((ls) => ls.join('\n'));

/** Manifests made mostly of sections of primitives, whose entries a chooser may leave unread. */
const primitivesDoc = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom('tools', 'resources', 'prompts'), { minLength: 1 }),
    fc.array(fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'a.b', 'x_1', 'n-2'), entryBody), { minLength: 1, maxLength: 4, selector: ([k]) => k }), { minLength: 3, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([sections, entries, end]) => `server:\n  name: x\n${sections.map((k, i) => `${k}:\n${entries[i]!.map(([e, b]) => `  ${e}:\n${b}`).join('\n')}`).join('\n')}${end ? '\n' : ''}`);

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

  it('gives the same value with entries left unread until got, on random YAML', () => {
    const memo = jsonMemo();
    let deferred = 0;
    fc.assert(
      fc.property(fc.oneof(doc, primitivesDoc), fc.nat(), (text, seed) => {
        // Entries the memo read before may be left unread: a chooser like EntryMemo's, deferring some of them.
        const seen = jsonMemo();
        const eager = (() => {
          try {
            return readInPieces(text, read, seen);
          } catch {
            return 'throws' as const;
          }
        })();
        if (eager === 'throws' || eager === undefined) return;
        let i = seed;
        const lazy: LazyEntries = { choose: () => () => (i++ % 2 === 0 ? (deferred++, true) : false) };
        const value = readInPieces(text, read, memo, lazy);
        expect(value).toEqual(eager);
        expect(whole(text)).toEqual({ value });
      }),
      { numRuns: 3000, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    expect(deferred).toBeGreaterThan(100);
  });

  it('reads an entry left unread only when it is got, and once', () => {
    const text = 'mcpgen: 1\nserver:\n  name: x\ntools:\n  a.get:\n    description: one\n  b.set:\n    description: two\n';
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    const rest: Record<string, unknown>[] = [];
    const lazy: LazyEntries = { choose: (r) => (rest.push({ ...r }), (section, name) => section === 'tools' && name === 'b.set') };
    const value = readInPieces(text, counting, jsonMemo(), lazy) as { tools: Record<string, unknown> };
    // The chooser saw every top-level value but the sections of primitives.
    expect(rest).toEqual([{ mcpgen: 1, server: { name: 'x' } }]);
    expect(asked.some((t) => t.includes('b.set'))).toBe(false);
    expect(Object.keys(value.tools)).toEqual(['a.get', 'b.set']);
    expect(value.tools['b.set']).toEqual({ description: 'two' });
    expect(value.tools['b.set']).toBe(value.tools['b.set']);
    expect(asked.filter((t) => t.includes('b.set'))).toEqual(['  b.set:\n    description: two\n']);
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
