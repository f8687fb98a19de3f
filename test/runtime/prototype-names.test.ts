/** Primitives named after Object.prototype members register, list and answer like any other. */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  createRuntime,
  gated,
  installCompletions,
  installSecurity,
  jsonSchema,
  ownRegistries,
  promptArgsSchema,
  promptCallback,
  toolCallback,
  type PromptSpec,
  type ToolSpec,
} from '../../generator/runtime/index.js';
import { ERAS, connect } from './fixture.js';

const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const input = jsonSchema<Record<string, unknown>>({ type: 'object' });
const args = promptArgsSchema<{ x: string }>([{ name: 'x', required: true, schema: { type: 'string' } }]);
const tools: ToolSpec[] = NAMES.map((name) => ({ name, output: false, sideEffect: 'read', scopes: [], idempotency: 'none', approval: 'none', input }));
const prompts: PromptSpec[] = NAMES.map((name) => ({ name, args, scopes: [] }));

function server(era: 'legacy' | 'modern', own: boolean): McpServer {
  const rt = createRuntime({ era, audit: false }, { scopes: [], tools, resources: [], prompts });
  const s = new McpServer({ name: 'proto', version: '1.0.0' }, { capabilities: { tools: { listChanged: false }, prompts: { listChanged: false } }, requestState: rt.requestState });
  if (own) ownRegistries(s);
  for (const spec of tools) s.registerTool(spec.name, { description: spec.name, inputSchema: gated(input) }, toolCallback(rt, spec, () => `ran ${spec.name}`));
  for (const spec of prompts) s.registerPrompt(spec.name, { description: spec.name, argsSchema: gated(args) }, promptCallback<{ x: string }>(rt, spec, { get: (a) => `${spec.name} ${a.x}` }));
  installCompletions(s, rt, { prompts: { valueOf: { x: () => ['one'] } } });
  installSecurity(s, rt);
  return s;
}

describe('names that are Object.prototype members', () => {
  it('collide in the SDK registries unless they are swapped (the cause, kept visible)', () => {
    expect(() => server('legacy', false)).toThrow(/already registered/);
  });

  describe.each(ERAS)('$era era', ({ mode }) => {
    it('register, list, call and get with prototype-free registries', async () => {
      const conn = await connect(mode, (ctx) => server(ctx.era, true));
      try {
        expect((await conn.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
        expect((await conn.client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual([...NAMES].sort());
        for (const name of NAMES) {
          const r = await conn.client.callTool({ name, arguments: {} });
          expect(r.content).toEqual([{ type: 'text', text: `ran ${name}` }]);
          const p = await conn.client.getPrompt({ name, arguments: { x: 'y' } });
          expect(p.messages[0]?.content).toEqual({ type: 'text', text: `${name} y` });
        }
        expect((await conn.client.complete({ ref: { type: 'ref/prompt', name: 'valueOf' }, argument: { name: 'x', value: '' } })).completion.values).toEqual(['one']);
        await expect(conn.client.complete({ ref: { type: 'ref/prompt', name: '__proto__' }, argument: { name: 'x', value: '' } })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await conn.close();
      }
    });
  });
});
