/**
 * Reading a manifest in pieces (top-level keys, primitive entries) gives exactly the value of reading it
 * whole, or declines; checked on random YAML built to sit near every cut: block scalars that keep their
 * trailing lines, comments and blank lines at every indentation, flow collections and quoted strings over
 * several lines, anchors, odd keys, duplicate keys, line ends of both kinds.
 */
import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ALIAS_BUDGET, expandable, sharingOf, unshare } from '../../generator/manifest/aliases.js';
import { cutManifest, readInPieces, type LazyEntries, type YamlMemo } from '../../generator/manifest/yaml-chunks.js';

/** A memo like the incremental cache's: JSON copies by exact text, kept across texts. */
function jsonMemo(): YamlMemo & { hits: number; readBefore(text: string): boolean } {
  const kept = new Map<string, string>();
  const memo = {
    hits: 0,
    /** Whether `text` was read, and read as a value (what `LazyEntries` may leave unread). */
    readBefore: (text: string) => kept.get(text)?.startsWith('[]') === false,
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
// Quoted keys without escapes are cut at like plain ones (`"a"` and `a` are the same key: a duplicate);
// an escape (`\\u0041` is `A`), a doubled quote or a space before the colon makes the cut decline.
const key = mostly(
  fc.constantFrom('a', 'b', 'a.b', 'x_1', 'tools', 'n-2', '"a"', '"a.b"', "'b'", '"c d"', "'#x: y'", '"q"', '""', '2fa.verify', '1', '-x', 'résumé', '日本語.検索', 'ｘ１',
    // Names with spaces and punctuation, as a resource's or a prompt's may be (`c d` and `"c d"` are the same key).
    'c d', 'Refund policy (2026)', "Q&A, it's", 'a+b', 'x 1'),
  // Keys YAML reads as another value (numbers, a duplicate of `1` spelt otherwise) or as another node.
  fc.constantFrom('null', '? c', '- d', 'a  b', 'a b ', 'a #b', 'true x', 'a ,b', '__proto__', '"__proto__"', '"e\\"f"', "'g''h'", '"\\u0041"', '"a" ', "'a", '1e3', '0x10', '1.0', '01', '.5', '.inf', '-1', '-', '...', '---'),
);
// Tabs where YAML allows them (in strings, after a key's colon, in a flow collection) and where it does not.
const scalar = mostly(
  fc.constantFrom('1', 'text', '"two: words"', "'it''s'", '[1, 2]', '{x: 1}', '~', '', 'true', 'a\tb', '"t\tab"', "'\t'", '[1,\t2]'),
  fc.constantFrom('&k v', '*k', '"open', '{x: 1,', '\tv', '"\\t"'),
);
/** Lines of a value under a key at `indent` (block scalars, nested maps, comments, flow over lines). */
const body = (indent: number) => {
  const pad = ' '.repeat(indent + 2);
  return fc.array(
    fc.oneof(
      fc.tuple(key, scalar, fc.constantFrom(' ', ' ', '\t', ' \t')).map(([k, v, sep]) => `${pad}${k}:${sep}${v}`),
      fc.constantFrom('|', '|+', '|-', '>', '>+').map((h) => `${pad}d: ${h}\n${pad}  line one\n\n${pad}  line two\n`),
      // A block scalar whose lines hold tabs after their indentation, or a line of tabs alone.
      fc.constantFrom('|', '|+', '>').map((h) => `${pad}d: ${h}\n${pad}  \tcode\n\t\n${pad}  \t\tmore\t\n`),
      fc.constantFrom('#', '# c', '', '\t', '\t# c', '#\tc', ' \t ').map((c) => `${' '.repeat(indent)}${c}`),
      // A line indented with a tab (YAML refuses it as indentation).
      fc.constant(`${' '.repeat(indent)}\tt: 1`),
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
  fc.tuple(fc.constantFrom('tools', 'resources', 'prompts', 'schemas', '"tools"', "'prompts'"), fc.array(entry(2), { maxLength: 5 }), fc.constantFrom('', ' # list', '\t# tab', '  ', ' #', '# not a comment', ' x # a value')).map(([k, es, c]) => `${k}:${c}\n${es.join('\n')}`),
  mostly(fc.constantFrom('# top comment', ''), fc.constantFrom('---', '...', '%YAML 1.2', 'plain line', '  indented: 1')),
);
// The document's markers: a start marker after comments and a `%YAML 1.2` directive, an end marker before
// trailing comments, and what must make the cut decline (another directive, content on a marker's line,
// a second document).
const prologue = mostly(fc.constantFrom('', '', '---\n', '--- # c\n', '# c\n\n---\n', '%YAML 1.2\n---\n', '%YAML 1.2 # v\n# c\n---\n'), fc.constantFrom('%YAML 1.1\n---\n', '%TAG !e! tag:x,2000:\n---\n', '--- a: 1\n', '%YAML 1.2\n', '---\n---\n'));
const epilogue = mostly(fc.constantFrom('', '', '...\n', '... # end\n', '...\n# c\n\n'), fc.constantFrom('...\n---\nx: 1\n', '---\nx: 1\n', '...\nx: 1\n', '... x\n'));
// Some texts open with a byte-order mark, as some editors save UTF-8; a second one is content.
const doc = fc.tuple(prologue, fc.array(section, { minLength: 1, maxLength: 6 }), epilogue, fc.boolean(), fc.boolean(), fc.constantFrom('', '', '', '\uFEFF', '\uFEFF\uFEFF')).map(([pro, ss, epi, crlf, end, bom]) => {
  const t = bom + pro + ss.join('\n') + (end || epi !== '' ? '\n' : '') + epi;
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
    fc.array(fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'a.b', 'x_1', 'n-2', '"c.d"', "'e f'", 'Refund policy (2026)'), entryBody), { minLength: 1, maxLength: 4, selector: ([k]) => k }), { minLength: 3, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([sections, entries, end]) => `server:\n  name: x\n${sections.map((k, i) => `${k}:\n${entries[i]!.map(([e, b]) => `  ${e}:\n${b}`).join('\n')}`).join('\n')}${end ? '\n' : ''}`);

describe('reading a manifest in pieces', () => {
  it('gives the value of reading it whole, or declines, on random YAML', () => {
    const memo = jsonMemo();
    let read_ = 0;
    let marked = 0;
    let tabbed = 0;
    let minified = 0;
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
        if (text.startsWith('\uFEFF')) marked++;
        if (text.includes('\t')) tabbed++;
        expect(whole(text)).toEqual({ value: pieces.value });
      }),
      { numRuns: 5000, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    // The cases are not all declined (those with a byte-order mark or tabs neither), and the memo answered some pieces.
    expect(read_).toBeGreaterThan(100);
    expect(marked).toBeGreaterThan(10);
    expect(tabbed).toBeGreaterThan(10);
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

  it.each(['', ' # what agents call', '\t#'])('reads the entries of a primitive section one by one, so one changed entry is the one piece read again (head %j)', (comment) => {
    const text = (d: string) => `mcpgen: 1\ntools:${comment}\n  a.get:\n    description: ${d}\n  b.set:\n    description: |+\n      kept\n\n  # about c\n  c:\n    x: [1,\n      2]\n`;
    const memo = jsonMemo();
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    expect(readInPieces(text('one'), counting, memo)).toEqual(load(text('one')));
    asked.length = 0;
    expect(readInPieces(text('two'), counting, memo)).toEqual(load(text('two')));
    expect(asked).toEqual(['  a.get:\n    description: two\n']);
  });
});

describe('keys that start with a digit or a dash, or hold letters of other scripts', () => {
  it('cuts before a name MCP allows (`2fa.verify`) or a name in another script (`résumé`), and reads a change of it as that entry alone', () => {
    const text = (d: string, e: string) => `mcpgen: 1\ntools:\n  2fa.verify:\n    description: ${d}\n  -x.get:\n    description: two\nprompts:\n  résumé:\n    description: ${e}\n  要約:\n    description: five\n`;
    const memo = jsonMemo();
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    expect(readInPieces(text('one', 'four'), counting, memo)).toEqual(load(text('one', 'four')));
    asked.length = 0;
    expect(readInPieces(text('changed', 'four'), counting, memo)).toEqual(load(text('changed', 'four')));
    expect(asked).toEqual(['  2fa.verify:\n    description: changed\n']);
    asked.length = 0;
    expect(readInPieces(text('changed', 'changed'), counting, memo)).toEqual(load(text('changed', 'changed')));
    expect(asked).toEqual(['  résumé:\n    description: changed\n']);
  });

  it('declines a plain key YAML reads as another value (`1e3` is 1000), so the whole read decides', () => {
    for (const k of ['1e3', '0x10', '1.0', '.5', '.inf']) {
      const text = `mcpgen: 1\ntools:\n  b:\n    description: e\n  ${k}:\n    description: d\n`;
      expect(readInPieces(text, read, jsonMemo()), k).toBeUndefined();
    }
  });
});

/** The whole read as quickParse makes it: the value with its aliases expanded, or 'declines' (a cycle, past the budget, an error). */
const wholeTree = (t: string): { value: unknown } | 'declines' => {
  try {
    const v = load(t);
    const sharing = sharingOf(v);
    return expandable(sharing) ? { value: unshare(v) } : 'declines';
  } catch {
    return 'declines';
  }
};

/** Lines of an entry that define anchors, use aliases, redefine them, or only look like them. */
const aliasLine = fc.constantFrom(
  '    d: &a1 {x: 1}',
  '    e: *a1',
  '    f: &a2\n      y: [1, 2]',
  '    g: *a2',
  '    h: &a1 redefined',
  '    i: [*a1, *a2]',
  '    j: "*a1 in a string"',
  '    k: text with &a2 inside',
  '    # *a1 in a comment',
  '    m: &a3 [*a1, *a1]',
  '    n: *a3',
  '    <<: *a2',
  '    c: &a4\n      z: *a4',
  '    p: *nowhere',
  '    q: plain',
);
const aliasDoc = fc
  .tuple(
    fc.option(fc.constantFrom('x: &a1 7', 'x: &a2 {y: 2}', 'x: *a1', 'x: plain'), { nil: undefined }),
    fc.uniqueArray(fc.constantFrom('schemas', 'tools', 'resources', 'prompts'), { minLength: 1 }),
    fc.array(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c_1', 'd.e'), fc.array(aliasLine, { minLength: 1, maxLength: 3 })), { maxLength: 4 }), { minLength: 4, maxLength: 4 }),
  )
  .map(([x, sections, entries]) => {
    const body = sections.map((k, i) => {
      const seen = new Set<string>();
      const es = entries[i]!.filter(([e]) => !seen.has(e) && (seen.add(e), true));
      return `${k}:\n${es.map(([e, ls]) => `  ${e}:\n${ls.join('\n')}`).join('\n')}`;
    });
    return `${x === undefined ? '' : `${x}\n`}${body.join('\n')}\n`;
  });

describe('reading a manifest with aliases in pieces', () => {
  it('gives the value of the whole read with its aliases expanded, or declines, on random YAML with anchors', () => {
    const memo = jsonMemo();
    let pieced = 0;
    fc.assert(
      fc.property(aliasDoc, fc.nat(), (text, seed) => {
        let i = seed;
        // As the cache's entries do, only an entry whose text (with its aliases' context) read before is left unread.
        const lazy: LazyEntries = { choose: () => (_section, _name, key) => i++ % 3 === 0 && memo.readBefore(key) };
        const value = readInPieces(text, read, memo, seed % 2 === 0 ? lazy : undefined, undefined, read);
        if (value === undefined) return;
        pieced++;
        expect(wholeTree(text)).toEqual({ value: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 3000, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    expect(pieced).toBeGreaterThan(100);
    expect(memo.hits).toBeGreaterThan(0);
  });

  it('reads a catalog written with aliases in pieces: a changed tool is the one piece parsed again, with the anchors it names', () => {
    const tool = (i: number, d: string) => (i === 0 ? `  t${i}:\n    description: ${d}\n    scopes: &s\n      - items:read\n    input: &in\n      type: object\n` : `  t${i}:\n    description: ${d}\n    scopes: *s\n    input: *in\n`);
    const text = (d: string) => `mcpgen: 1\ntools:\n${Array.from({ length: 20 }, (_, i) => tool(i, i === 7 ? d : `tool ${i}`)).join('')}`;
    const memo = jsonMemo();
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    const first = readInPieces(text('one'), counting, memo, undefined, undefined, counting) as { tools: Record<string, { input: unknown }> };
    expect(first).toEqual(wholeTree(text('one')) !== 'declines' && (wholeTree(text('one')) as { value: unknown }).value);
    // A tree: no entry holds another's object.
    expect(first.tools['t3']!.input).not.toBe(first.tools['t4']!.input);
    asked.length = 0;
    expect(readInPieces(text('two'), counting, memo, undefined, undefined, counting)).toEqual((wholeTree(text('two')) as { value: unknown }).value);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('description: two');
    expect(asked[0]).toContain('&in');
  });

  it('declines when what the aliases of all pieces add is past the budget, though no one piece is', () => {
    // A ladder of anchors, each naming the one before ten times: l4 expands to 111,111 values, and the ladder adds 123,340.
    const ladder = ['l0: &l0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]', ...[1, 2, 3, 4].map((k) => `l${k}: &l${k} [${Array.from({ length: 10 }, () => `*l${k - 1}`).join(', ')}]`)].join('\n');
    const text = (n: number) => `${ladder}\ntools:\n${Array.from({ length: n }, (_, i) => `  t${i}:\n    v: *l4\n`).join('')}`;
    expect(123_340 + 111_111 * 7).toBeLessThan(ALIAS_BUDGET);
    expect(123_340 + 111_111 * 8).toBeGreaterThan(ALIAS_BUDGET);
    const within = readInPieces(text(7), read, jsonMemo(), undefined, undefined, read);
    expect(within).toBeDefined();
    expect(wholeTree(text(7))).toEqual({ value: JSON.parse(JSON.stringify(within)) });
    expect(wholeTree(text(8))).toBe('declines');
    expect(readInPieces(text(8), read, jsonMemo(), undefined, undefined, read)).toBeUndefined();
  });

  it('takes an alias to the last anchor of its name before it, across pieces', () => {
    const text = 'x: &a 1\ntools:\n  t1:\n    v: *a\n  t2:\n    w: &a 2\n  t3:\n    v: *a\n    note: "&a is not an anchor here"\n  t4:\n    v: *a\n';
    const value = readInPieces(text, read, jsonMemo(), undefined, undefined, read);
    expect(value).toEqual({ x: 1, tools: { t1: { v: 1 }, t2: { w: 2 }, t3: { v: 2, note: '&a is not an anchor here' }, t4: { v: 2 } } });
    // What only looks like an anchor (t3) is not taken for the last one of its name: t2's is.
    const shadowed = 'tools:\n  t1:\n    f: &a 1\n    g: &b 2\n  t2:\n    h: &a 3\n  t3:\n    k: text with &a inside\n  t4:\n    v: *a\n    w: *b\n';
    expect(readInPieces(shadowed, read, jsonMemo(), undefined, undefined, read)).toEqual(wholeTree(shadowed) !== 'declines' ? (wholeTree(shadowed) as { value: unknown }).value : 'declines');
    expect((readInPieces(shadowed, read, jsonMemo(), undefined, undefined, read) as { tools: { t4: unknown } }).tools.t4).toEqual({ v: 3, w: 2 });
  });
});

/**
 * JSON manifests: `JSON.stringify` with any indentation (none: one line), line ends of both kinds, and
 * texts edited into what the JSON cut must decline (a YAML comment, an alias, a key with an escape JSON
 * lacks, a duplicate key, a string across lines, a non-ASCII character outside a string, an empty member,
 * a second value after the object) or read right (two members on one line, a value on the line after its
 * key, a trailing comma, escaped keys, braces and quotes inside strings, empty sections).
 */
describe('reading a JSON manifest in pieces', () => {
  const jsonKey = fc.constantFrom('a', 'b', 'a.b', 'x_1', 'n-2', 'c d', 'é', 'q"r', 'back\\slash', '{', '*star', '#hash', '__proto__');
  const jsonValue = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(1, -2.5, 1e21, true, false, null, '', 'text', '} {', '"quoted"', '# not a comment', '*not an alias', 'line\nbreak', 'tab\there'), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(jsonKey, tie('value'), { maxKeys: 3 })),
  })).value;
  const manifest = fc.record({
    mcpgen: fc.constant(1),
    server: fc.dictionary(jsonKey, jsonValue, { maxKeys: 3 }),
    tools: fc.dictionary(jsonKey, jsonValue, { maxKeys: 5 }),
    prompts: fc.dictionary(jsonKey, jsonValue, { maxKeys: 3 }),
    schemas: fc.dictionary(jsonKey, jsonValue, { maxKeys: 3 }),
  }, { requiredKeys: ['mcpgen'] });
  const edits = fc.constantFrom(
    (t: string) => t,
    (t: string) => t,
    (t: string) => t,
    (t: string) => t.replace(/,\n( *)"/, ', "'),
    (t: string) => t.replace(/\n( *)"tools"/, '\n# tools\n$1"tools"'),
    (t: string) => t.replace(/: 1,/, ': &one 1,'),
    (t: string) => t.replace(/"mcpgen": /, '"mcpgen":\n  '),
    (t: string) => t.replace(/"server"/, '"s\\x65rver"'),
    (t: string) => t.replace(/"server"/, '"\\u0073erver"'),
    (t: string) => t.replace(/\n( *)"mcpgen": 1,/, '\n$1"mcpgen": 1,\n$1"mcpgen": 1,'),
    (t: string) => t.replace(/\n}\s*$/, '\n}\n# trailing comment\n'),
    // A string broken across lines (YAML folds it), broken after an escaping backslash, and a character
    // JSON has no use for outside a string: the cut declines each.
    (t: string) => t.replace(/"text"/, '"te\nxt"'),
    (t: string) => t.replace(/"text"/, '"te\\\nxt"'),
    (t: string) => t.replace(/: 1,/, ': 1\u00a0,'),
    // The same on a text without line breaks (minified): an anchor, a duplicate, an escaped key, a member
    // after a space, a trailing comma, an empty member, a comment or a second value after the object.
    (t: string) => t.replace(/:1,/, ':&one 1,'),
    (t: string) => t.replace(/"mcpgen":1,/, '"mcpgen":1,"mcpgen":1,'),
    (t: string) => t.replace(/"server":/, '"s\\x65rver":'),
    (t: string) => t.replace(/,"/, ', "'),
    (t: string) => t.replace(/\}(\s*)$/, ',}$1'),
    // A trailing comma, as YAML allows one in a flow mapping: after the last member, of the text and of an
    // object inside it.
    (t: string) => t.replace(/([\d"\]}el])(\s*)\}(\s*)$/, '$1,$2}$3'),
    (t: string) => t.replace(/\}(\s*)\}/, '},$1}'),
    (t: string) => t.replace(/,"/, ',,"'),
    (t: string) => t.replace(/\}(\s*)$/, '} # end$1'),
    (t: string) => t.replace(/\}(\s*)$/, '} {}$1'),
  );

  it('gives the value of reading it whole, or declines, on random JSON', () => {
    const memo = jsonMemo();
    let cut = 0;
    let marked = 0;
    let tabbed = 0;
    let minified = 0;
    fc.assert(
      fc.property(manifest, fc.constantFrom<number | string>(0, 1, 2, 4, '\t', ' \t'), edits, fc.boolean(), fc.constantFrom('', '', '\uFEFF'), (m, indent, edit, crlf, bom) => {
        let text = bom + edit(`${JSON.stringify(m, null, indent)}\n`);
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const pieces = readInPieces(text, read, memo);
        if (pieces === undefined) return;
        cut++;
        if (bom !== '') marked++;
        if (typeof indent === 'string') tabbed++;
        if (indent === 0) minified++;
        expect(whole(text)).toEqual({ value: pieces });
      }),
      { numRuns: 2000, seed: Number(process.env['MCP_GEN_PROPERTY_SEED'] ?? 1729) },
    );
    expect(cut).toBeGreaterThan(500);
    expect(marked).toBeGreaterThan(100);
    expect(tabbed).toBeGreaterThan(100);
    expect(minified).toBeGreaterThan(100);
    expect(memo.hits).toBeGreaterThan(0);
  });

  it('declines a JSON text with a string left open on its line, however its quotes and backslashes fall', () => {
    // Each quote here is escaped, so the string the first one opens never closes: a scan that tried again
    // from every later quote would take quadratic time on the line (half a minute at this length).
    const open = `{\n  "mcpgen": 1,\n  "tools": {\n    "t": "${'a\\\\\\"'.repeat(60_000)}\n  }\n}\n`;
    expect(readInPieces(open, read, jsonMemo())).toBeUndefined();
    const escapedBreak = '{\n  "mcpgen": 1,\n  "tools": {\n    "t": "a\\\n b"\n  }\n}\n';
    expect(readInPieces(escapedBreak, read, jsonMemo())).toBeUndefined();
  });

  it('cuts a JSON text with trailing commas (YAML allows them) into members that end with their values, and declines an empty member', () => {
    const text = '{"mcpgen":1,"tools":{"a":{"d":[1,]},"b":2,},}';
    expect(cutManifest(text)?.map((p) => [p.text, p.entries?.map((e) => e.text)])).toEqual([['"mcpgen":1', undefined], ['"tools":{"a":{"d":[1,]},"b":2,}', ['"a":{"d":[1,]}', '"b":2']]]);
    expect(readInPieces(text, read, jsonMemo())).toEqual(load(text));
    for (const declined of ['{"mcpgen":1,,"tools":{}}', '{,}', '{"tools":{"a":1,,}}', '{"mcpgen":1}{}']) expect(cutManifest(declined), declined).toBeUndefined();
  });

  it('reads a one-entry change of a JSON manifest as that entry alone', () => {
    const m = { mcpgen: 1, server: { name: 'x', version: '1.0.0' }, tools: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`t.${i}`, { description: `Tool ${i}.`, sideEffect: 'read' }])) };
    const text = (d: string) => `${JSON.stringify({ ...m, tools: { ...m.tools, 't.7': { description: d, sideEffect: 'read' } } }, null, 2)}\n`;
    const asked: string[] = [];
    const counting = (t: string) => (asked.push(t), load(t));
    const memo = jsonMemo();
    expect(readInPieces(text('Tool 7.'), counting, memo)).toEqual(JSON.parse(text('Tool 7.')));
    asked.length = 0;
    expect(readInPieces(text('Tool 7, edited.'), counting, memo)).toEqual(JSON.parse(text('Tool 7, edited.')));
    expect(asked).toEqual([`{"t.7": {\n      "description": "Tool 7, edited.",\n      "sideEffect": "read"\n    }}`]);
    // Written on one line, as JSON.stringify writes it without indentation: the same one entry.
    const minified = (d: string) => JSON.stringify(JSON.parse(text(d)));
    expect(readInPieces(minified('Tool 7.'), counting, memo)).toEqual(JSON.parse(text('Tool 7.')));
    asked.length = 0;
    expect(readInPieces(minified('Tool 7, edited again.'), counting, memo)).toEqual(JSON.parse(text('Tool 7, edited again.')));
    expect(asked).toEqual(['{"t.7":{"description":"Tool 7, edited again.","sideEffect":"read"}}']);
  });
});
