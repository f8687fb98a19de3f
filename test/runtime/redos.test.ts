/**
 * Patterns run on a linear-time engine: a catastrophic pattern with a crafted argument answers at once
 * (on the backtracking engine, 45 characters would take longer than this test's time limit), and the
 * engine agrees with JavaScript's on ordinary patterns.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gated, jsonSchema, paramsValidator, toolCallback, createRuntime, type ToolSpec } from '../../generator/runtime/index.js';
import { isLinear, linearRegExp } from '../../generator/runtime/schema/regex.js';
import { McpServer } from '@modelcontextprotocol/server';
import { ERAS, connect } from './fixture.js';

const EVIL = '^(\\w+\\s?)*$';
const ATTACK = `${'a'.repeat(45)}!`;

const input = jsonSchema<{ name: string }>({ type: 'object', properties: { name: { type: 'string', pattern: EVIL } }, patternProperties: { '^(a+)+$': { type: 'string' } }, required: ['name'] });
const spec: ToolSpec = { name: 'greet', output: false, scopes: [], idempotency: 'none', approval: 'none', input };

function server(era: 'legacy' | 'modern'): McpServer {
  const rt = createRuntime({ era, audit: false }, { scopes: [], tools: [spec], resources: [], prompts: [] });
  const s = new McpServer({ name: 'redos', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } }, requestState: rt.requestState });
  s.registerTool('greet', { description: 'Greet', inputSchema: gated(input) }, toolCallback<{ name: string }, string>(rt, spec, (i) => `hello ${i.name}`));
  return s;
}

describe.each(ERAS)('catastrophic patterns ($era era)', ({ mode }) => {
  it('refuses a crafted argument for ^(\\w+\\s?)*$ without backtracking, and still accepts a matching one', async () => {
    const conn = await connect(mode, (ctx) => server(ctx.era));
    try {
      const bad = await conn.client.callTool({ name: 'greet', arguments: { name: ATTACK } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0]?.text).toContain('/name must match pattern');
      const viaPatternProperties = await conn.client.callTool({ name: 'greet', arguments: { name: 'ok', [`${'a'.repeat(45)}`]: 1 } });
      expect(viaPatternProperties.isError).toBe(true);
      const good = await conn.client.callTool({ name: 'greet', arguments: { name: 'two words' } });
      expect(good.content).toEqual([{ type: 'text', text: 'hello two words' }]);
    } finally {
      await conn.close();
    }
  });
});

describe('linear-time patterns', () => {
  it('screen template variables with the same engine', () => {
    const params = paramsValidator<{ slug: string }>({ slug: { type: 'string', pattern: '^(a|aa)+$' } });
    expect(params.parse({ slug: `${'a'.repeat(60)}b` })).toMatchObject({ ok: false });
    expect(params.parse({ slug: 'aaa' })).toEqual({ ok: true, value: { slug: 'aaa' } });
  });

  it('keep each schema its own pattern (compiled patterns are keyed by their source)', () => {
    const a = jsonSchema<string>({ type: 'string', pattern: '^a+$' });
    const b = jsonSchema<string>({ type: 'object', properties: { x: { type: 'string', pattern: '^b+$' } } });
    expect(a.check('aaa').issues).toBeUndefined();
    expect(a.check('bbb').issues).toBeDefined();
    expect(b.check({ x: 'bbb' }).issues).toBeUndefined();
    expect(b.check({ x: 'aaa' }).issues).toBeDefined();
  });

  it('agree with the JavaScript engine on ordinary patterns', () => {
    const patterns = ['^T-[0-9]{4,}$', '^[a-z][a-z0-9_-]*$', '^\\d{4}-\\d{2}-\\d{2}$', '^[A-Z]{3}$', 'ab|cd', '^[^@]+@[^@]+\\.[a-z]{2,}$', '^\\p{L}+$', '^é+$', '^[\\u00e0-\\u00ff]+$', 'x{2,3}', EVIL, '(a|ab)(c|bcd)', 'b$|^a', '^(?:T-)?\\d+(?:_x)?$', '[^a]*z', '(?:a|b)*?T', '\\bx\\b'];
    const alphabet = fc.constantFrom(...'aAbcdT-0123456789_@.xéÿ z!'.split(''));
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join('')), (pattern, text) => {
        expect(linearRegExp(pattern, 'u').test(text)).toBe(new RegExp(pattern, 'u').test(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('say which patterns run on RE2 and which fall back to backtracking (lookaround, backreferences)', () => {
    expect(isLinear(EVIL)).toBe(true);
    expect(isLinear('^(?=.*\\d).{8,}$')).toBe(false);
    expect(isLinear('^(a)\\1$')).toBe(false);
    expect(linearRegExp('^(a)\\1$', 'u').test('aa')).toBe(true);
  });
});
