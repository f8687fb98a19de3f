import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PieceList } from '../../generator/emit/lists.js';
import { Parts } from '../../generator/write/parts.js';
import { listKeys, placeList } from '../../generator/write/splice-lists.js';

/** Text of the old file: ASCII, accented letters, a character outside the BMP, and one that a lone surrogate stands for. */
const char = fc.constantFrom('a', 'b', ' ', '\n', '{', 'é', 'Ã', '\u0080', '😀', '\uFFFD', '\uD800');
const oldText = fc.array(char, { maxLength: 300, size: 'max' }).map((cs) => cs.join(''));

type Step = { readonly kind: 'copy'; readonly at: number; readonly length: number } | { readonly kind: 'same' | 'latin1'; readonly length: number } | { readonly kind: 'text'; readonly text: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), length: fc.nat({ max: 120 }) }),
  // Literal text that is (or starts as) what the old file holds right after the run: short and long.
  fc.record({ kind: fc.constant('same' as const), length: fc.nat({ max: 200 }) }),
  // Or its bytes read one character each: the same characters as the bytes where they are all ASCII, and other bytes.
  fc.record({ kind: fc.constant('latin1' as const), length: fc.nat({ max: 200 }) }),
  fc.record({ kind: fc.constant('text' as const), text: fc.array(char, { maxLength: 150, size: 'large' }).map((cs) => cs.join('')) }),
);

describe('Parts', () => {
  it('puts together exactly the bytes it is given, whatever the literal texts and the old bytes', () => {
    fc.assert(
      fc.property(oldText, fc.array(step, { maxLength: 30 }), (oldString, steps) => {
        const old = Buffer.from(oldString, 'utf8');
        const parts = new Parts(old);
        const expected: Buffer[] = [];
        let end = -1;
        for (const s of steps) {
          if (s.kind === 'copy') {
            if (old.length === 0) continue;
            const at = s.at % old.length;
            const length = Math.min(s.length, old.length - at);
            parts.copy(at, length);
            expected.push(old.subarray(at, at + length));
            end = at + length;
          } else {
            // The old file's text after the run, decoded (a cut character decodes otherwise): not always its bytes.
            const text = s.kind === 'text' ? s.text : end < 0 ? '' : old.toString(s.kind === 'same' ? 'utf8' : 'latin1', end, Math.min(old.length, end + s.length));
            parts.text(text);
            expected.push(Buffer.from(text, 'utf8'));
            end = -1;
          }
        }
        parts.close();
        expect(Buffer.concat(parts.parts).equals(Buffer.concat(expected))).toBe(true);
        expect(parts.size).toBe(Buffer.concat(expected).length);
      }),
      { numRuns: 2000, seed: 42 },
    );
  });

  it('takes a literal text of any length that the old file holds right after the run into the run', () => {
    const head = 'export const server = {\n';
    for (const literal of ['  ', `  // ${'é and a long comment, '.repeat(20)}\n`]) {
      const old = Buffer.from(`${head}${literal}tail\n`, 'utf8');
      const parts = new Parts(old);
      parts.copy(0, Buffer.byteLength(head));
      parts.text(literal);
      parts.copy(Buffer.byteLength(head + literal), 5);
      parts.close();
      // One slice of the old file: nothing encoded or copied for the literal text.
      expect(parts.parts).toHaveLength(1);
      expect(Buffer.concat(parts.parts).equals(old)).toBe(true);
    }
  });
});

describe('placeList', () => {
  // Units of the last run's list (keys unique, some texts empty), and this run's: some of those, in any order, and new ones.
  const unitText = fc.oneof(fc.constant(''), fc.array(char, { minLength: 1, maxLength: 12 }).map((cs) => cs.join('')));
  const lists = fc.record({
    sep: fc.constantFrom('\n', ', ', '\n\n', ''),
    old: fc.uniqueArray(fc.tuple(fc.constantFrom(...'abcdefghij'), unitText), { selector: ([k]) => k, maxLength: 10 }),
    now: fc.uniqueArray(fc.tuple(fc.constantFrom(...'abcdefghijxyz'), unitText), { selector: ([k]) => k, maxLength: 12 }),
  });

  it('puts the units in, old ones from the old file, with exactly the separators a list without the cache has', () => {
    fc.assert(
      fc.property(lists, ({ sep, old, now }) => {
        const oldTexts = new Map(old);
        const prefix = 'const list = [\n';
        const body = old.map(([, t]) => t).filter((t) => t !== '').join(sep);
        const bytes = Buffer.from(`${prefix}${body}\n];\n`, 'utf8');
        const record = { keys: old.map(([k]) => k).join('\n'), lens: old.map(([, t]) => Buffer.byteLength(t, 'utf8')) };
        const list = new PieceList('units', sep, record, 'marker');
        // A unit the last run had is taken from the old file, whatever this run would render for it.
        for (const [k, t] of now) list.add(k, () => ({ text: oldTexts.get(k) ?? t }));
        list.done();
        const parts = new Parts(bytes);
        const placed = placeList(list, listKeys(list).keys, '', parts, { bytes, at: [Buffer.byteLength(prefix), Buffer.byteLength(body), 'h'] });
        parts.close();
        expect(placed).toBeDefined();
        const expected = now.map(([k, t]) => oldTexts.get(k) ?? t).filter((t) => t !== '').join(sep);
        expect(Buffer.concat(parts.parts).equals(Buffer.from(expected, 'utf8'))).toBe(true);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});
