import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, gated, installCompletions, installSecurity, ownRegistries, promptArgsSchema, promptCallback, type PromptSpec } from '../../generator/runtime/index.js';
import { ERAS, POLICY, connect, createServer } from './fixture.js';

type Conn = Awaited<ReturnType<typeof connect>>;

async function promptError(conn: Conn, name: string, args: Record<string, string>): Promise<{ code: number; message: string }> {
  try {
    await conn.client.getPrompt({ name, arguments: args });
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error(`prompt ${name} succeeded`);
}

describe.each(ERAS)('prompts ($era era)', ({ mode }) => {
  let conn: Conn;
  beforeEach(async () => {
    conn = await connect(mode);
  });
  afterEach(() => conn.close());

  it('lists arguments exactly as declared', async () => {
    const { prompts } = await conn.client.listPrompts();
    expect(prompts.find((p) => p.name === 'draft_refund_review')?.arguments).toEqual([
      { name: 'ticketId', description: 'Ticket to review', required: true },
      { name: 'depth', description: 'Review depth', required: false },
      { name: 'count', description: 'How many', required: false },
      { name: 'urgent', required: false },
      { name: 'note', required: false },
    ]);
  });

  it('renders the template with converted values and embeds resources', async () => {
    const r = await conn.client.getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'T-1234', depth: 'full', count: '3', urgent: 'true' } });
    expect(r.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review ticket T-1234 at full depth (3, urgent=true). Note:  {{unknown}}' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'support://policies/refunds/2026-09', mimeType: 'text/markdown', text: POLICY } } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'support://tickets/T-1234', mimeType: 'application/json', text: '{"id":"T-1234","status":"pending"}' } } },
    ]);
  });

  it('keeps placeholder syntax inside values literal', async () => {
    const r = await conn.client.getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'T-1234', note: '{{ticketId}} {{depth}} }}{{' } });
    expect(r.messages[0]?.content).toEqual({ type: 'text', text: 'Review ticket T-1234 at  depth (, urgent=). Note: {{ticketId}} {{depth}} }}{{ {{unknown}}' });
  });

  it.each([
    [{ depth: 'full' }, "must have required property 'ticketId'"],
    [{ ticketId: 'nope' }, '/ticketId must match pattern'],
    [{ ticketId: 'T-1234', depth: 'deep' }, '/depth must be one of "quick", "full"'],
    [{ ticketId: 'T-1234', count: 'three' }, '/count must be integer'],
    [{ ticketId: 'T-1234', count: '0' }, '/count must be >= 1'],
    [{ ticketId: 'T-1234', urgent: 'yes' }, '/urgent must be boolean'],
    [{ ticketId: 'T-1234', extra: 'x' }, '/extra is not allowed (unknown argument)'],
  ])('rejects %j with -32602 naming the argument', async (args, message) => {
    const e = await promptError(conn, 'draft_refund_review', args);
    expect(e.code).toBe(-32602);
    expect(e.message).toContain(message);
  });

  it('maps handler returns and PromptError', async () => {
    expect((await conn.client.getPrompt({ name: 'summarize', arguments: { topic: 'refunds' } })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize refunds' } }]);
    expect((await conn.client.getPrompt({ name: 'summarize', arguments: { topic: 'list' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'one' } },
      { role: 'assistant', content: { type: 'text', text: 'two' } },
    ]);
    expect(await promptError(conn, 'summarize', { topic: 'bad' })).toMatchObject({ code: -32602, message: 'Topic "bad" cannot be summarized.' });
  });

  it('hides unexpected prompt errors', async () => {
    const reported: unknown[] = [];
    const own = await connect(mode, () => createServer({ onError: (error) => reported.push(String(error)) }));
    try {
      expect(await promptError(own, 'summarize', { topic: 'crash' })).toMatchObject({ code: -32603, message: 'Internal error in prompt summarize.' });
      expect(reported).toEqual(['Error: secret /srv/x.ts']);
    } finally {
      await own.close();
    }
  });
});

describe.each(ERAS)('completions ($era era)', ({ mode }) => {
  let conn: Conn;
  beforeEach(async () => {
    conn = await connect(mode);
  });
  afterEach(() => conn.close());

  it('declares the capability', () => {
    expect(conn.client.getServerCapabilities()?.completions).toEqual({});
  });

  it('caps at 100 values with total and hasMore', async () => {
    const r = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'draft_refund_review' }, argument: { name: 'ticketId', value: 'T-1' } });
    expect(r.completion.values).toHaveLength(100);
    expect(r.completion).toMatchObject({ total: 150, hasMore: true });
    const few = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'support://tickets/{ticketId}' }, argument: { name: 'ticketId', value: 'T-110' } });
    expect(few.completion).toEqual({ values: Array.from({ length: 10 }, (_, i) => `T-110${i}`), total: 10, hasMore: false });
  });

  it('passes the other arguments as context', async () => {
    const r = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'draft_refund_review' }, argument: { name: 'depth', value: '' }, context: { arguments: { ticketId: 'none' } } });
    expect(r.completion.values).toEqual([]);
  });

  it.each([
    [{ type: 'ref/prompt', name: 'nope' }, 'ticketId'],
    [{ type: 'ref/prompt', name: 'draft_refund_review' }, 'count'],
    [{ type: 'ref/resource', uri: 'support://tickets/T-1' }, 'ticketId'],
  ] as const)('answers -32602 for unknown ref %j / argument %s', async (ref, name) => {
    await expect(conn.client.complete({ ref, argument: { name, value: '' } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe.each(ERAS)('completions of a prompt that declares scopes ($era era)', ({ mode }) => {
  const args = promptArgsSchema<{ topic: string }>([{ name: 'topic', required: true, schema: { type: 'string' } }]);
  const spec: PromptSpec = { name: 'brief', args, scopes: ['briefs:read'] };
  const server = (scopes: readonly string[]) => (ctx: { era: 'legacy' | 'modern' }): McpServer => {
    const rt = createRuntime({ era: ctx.era, audit: false, scopes: [...scopes], stderr: { write: () => true } }, { scopes: ['briefs:read'], tools: [], resources: [], prompts: [spec] });
    const s = new McpServer({ name: 'briefs', version: '1.0.0' }, { capabilities: { prompts: { listChanged: false } }, requestState: rt.requestState });
    ownRegistries(s);
    s.registerPrompt('brief', { description: 'A brief', argsSchema: gated(args) }, promptCallback<{ topic: string }>(rt, spec, { get: (a) => `brief on ${a.topic}` }));
    installCompletions(s, rt, { prompts: { brief: { topic: () => ['billing', 'refunds'] } } });
    installSecurity(s, rt);
    return s;
  };

  it('completes for a caller granted the prompt\'s scopes and refuses one without them', async () => {
    const granted = await connect(mode, server(['briefs:read']));
    const bare = await connect(mode, server([]));
    try {
      const r = await granted.client.complete({ ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: '' } });
      expect(r.completion.values).toEqual(['billing', 'refunds']);
      const refused = await bare.client.complete({ ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: '' } }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('prompt brief requires scope briefs:read') });
    } finally {
      await granted.close();
      await bare.close();
    }
  });
});
