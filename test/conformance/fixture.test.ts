/**
 * The conformance fixture server (manifests/conformance) answers what the
 * official suite's key scenarios check, in both protocol eras, over an
 * in-memory transport: `npm test` covers the fixtures without Node 22 or the
 * suite itself (`npm run conformance` runs that).
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../generated/conformance/handlers.gen.js';
import { createServer } from '../../generated/conformance/server.gen.js';

const eras = [
  { name: '2025-11-25', negotiation: { mode: 'legacy' } },
  { name: '2026-07-28', negotiation: { mode: { pin: '2026-07-28' } } },
] as const;

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

/** A client with sampling, elicitation and roots support, as the suite's client declares. */
async function connect(era: (typeof eras)[number]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const host = serveStdio((context) => createServer(handlers, { era: context.era, stderr: { write: () => true } }), { transport: serverSide });
  const client = new Client(
    { name: 'conformance-fixture-test', version: '1.0.0' },
    { versionNegotiation: era.negotiation, capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} } },
  );
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model', stopReason: 'endTurn' }));
  client.setRequestHandler('elicitation/create', (request) => {
    const properties = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
    return { action: 'accept', content: Object.fromEntries(properties.map((p) => [p, p === 'ok' ? true : `my-${p}`])) };
  });
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///test/root', name: 'Test Root' }] }));
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await host.close();
  });
  return client;
}

type Block = { type: string; text?: string; data?: string; mimeType?: string; resource?: { uri: string; mimeType?: string; text?: string } };

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { ...result, content: result.content as Block[] };
}

describe.each(eras)('conformance fixture ($name)', (era) => {
  it('lists every tool with a description and an input schema, the 2020-12 keywords intact', async () => {
    const client = await connect(era);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['test_simple_text', 'test_image_content', 'test_audio_content', 'test_embedded_resource', 'test_multiple_content_types', 'test_error_handling', 'test_tool_with_progress', 'test_sampling', 'test_elicitation', 'json_schema_2020_12_tool']) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    const schema = tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect((schema.$defs as Record<string, { $anchor?: string }>).address?.$anchor).toBe('addressDef');
    expect(schema).toMatchObject({ additionalProperties: false, if: expect.any(Object), then: expect.any(Object), else: expect.any(Object) });
    expect(Array.isArray(schema.allOf)).toBe(true);
  });

  it('returns each content type', async () => {
    const client = await connect(era);
    expect((await call(client, 'test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect((await call(client, 'test_image_content')).content[0]).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) });
    expect((await call(client, 'test_audio_content')).content[0]).toMatchObject({ type: 'audio', mimeType: 'audio/wav', data: expect.stringMatching(/^UklGR/) });
    expect((await call(client, 'test_embedded_resource')).content[0]).toEqual({
      type: 'resource',
      resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
    });
    const mixed = (await call(client, 'test_multiple_content_types')).content;
    expect(mixed.map((b) => b.type)).toEqual(['text', 'image', 'resource']);
    expect(JSON.parse(mixed[2]!.resource!.text!)).toEqual({ test: 'data', value: 123 });
  });

  it('reports a tool failure as an isError result', async () => {
    const client = await connect(era);
    const result = await call(client, 'test_error_handling');
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe('This tool intentionally returns an error for testing');
  });

  it('reports progress 0, 50 and 100 of 100', async () => {
    const client = await connect(era);
    const seen: Array<{ progress: number; total?: number }> = [];
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => void seen.push({ progress: p.progress, total: p.total }) });
    expect(seen).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ]);
  });

  it('reads the text, binary and template resources', async () => {
    const client = await connect(era);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['test://static-text', 'test://static-binary', 'test://watched-resource']));
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    const [binary] = (await client.readResource({ uri: 'test://static-binary' })).contents as Array<{ blob?: string; mimeType?: string }>;
    expect(binary).toMatchObject({ mimeType: 'image/png', blob: expect.stringMatching(/^iVBOR/) });
    const [data] = (await client.readResource({ uri: 'test://template/123/data' })).contents as Array<{ text: string; mimeType?: string }>;
    expect(data!.mimeType).toBe('application/json');
    expect(JSON.parse(data!.text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
  });

  it('answers an unknown resource with -32602 and the uri', async () => {
    const client = await connect(era);
    await expect(client.readResource({ uri: 'test://nonexistent-resource-for-conformance-testing' })).rejects.toMatchObject({ code: -32602 });
  });

  it('gets the four prompts and completes arg1', async () => {
    const client = await connect(era);
    expect((await client.getPrompt({ name: 'test_simple_prompt' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]);
    expect((await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } })).messages[0]!.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='hello', arg2='world'",
    });
    const embedded = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } });
    expect(embedded.messages.map((m) => m.content.type)).toEqual(['resource', 'text']);
    expect(embedded.messages[0]!.content).toMatchObject({ resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } });
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages.map((m) => m.content.type)).toEqual(['image', 'text']);
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('asks the client for input and uses the answer', async () => {
    const client = await connect(era);
    const tool = era.name === '2025-11-25' ? 'test_elicitation' : 'test_input_required_result_elicitation';
    const result = await call(client, tool, era.name === '2025-11-25' ? { message: 'Who are you?' } : {});
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toMatch(era.name === '2025-11-25' ? /^User response: action=accept, content=\{"username":"my-username"/ : /^Hello, my-name!$/);
  });
});

describe('conformance fixture (2025-11-25 only)', () => {
  it('samples the client LLM', async () => {
    const client = await connect(eras[0]);
    expect((await call(client, 'test_sampling', { prompt: 'Capital of France?' })).content[0]?.text).toBe('LLM response: Paris');
  });

  it('subscribes and unsubscribes to the watched resource', async () => {
    const client = await connect(eras[0]);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    await expect(client.unsubscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
  });
});

describe('conformance fixture (2026-07-28 only)', () => {
  it('completes the multi-round, request-state and multiple-input flows', async () => {
    const client = await connect(eras[1]);
    expect((await call(client, 'test_input_required_result_multi_round')).content[0]?.text).toBe('my-name likes my-color.');
    expect((await call(client, 'test_input_required_result_request_state')).content[0]?.text).toMatch(/state-ok/);
    expect((await call(client, 'test_input_required_result_multiple_inputs')).content[0]?.text).toBe('name="my-name", greeting=Paris, roots=file:///test/root');
    expect((await call(client, 'test_input_required_result_list_roots')).content[0]?.text).toBe('Client roots: file:///test/root');
    expect((await call(client, 'test_input_required_result_sampling')).content[0]?.text).toBe('Sampling response: Paris');
  });
});
