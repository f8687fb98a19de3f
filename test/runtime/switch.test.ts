/**
 * Switching primitives off and on while serving, through real SDK clients in both eras, over stdio
 * (in-memory transport) and Streamable HTTP: a switched-off primitive leaves every listing, a call,
 * read or get of it is refused exactly like one of a primitive the server never had, the kind's
 * list-changed notification reaches the client, and switching it on restores the listing as it was.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePrimitive, runMain, startHttpServer, startStdioServer, type PrimitiveSwitches } from '../../generator/runtime/index.js';
import { catalog, createSwitchServer } from './switch.fixture.js';

type Mode = 'legacy' | { pin: '2026-07-28' };
const ERAS: readonly [string, Mode][] = [
  ['2025-11-25', 'legacy'],
  ['2026-07-28', { pin: '2026-07-28' }],
];
const quiet = { write: () => true };
const factory = () => createSwitchServer();
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

/** A client that counts list-changed notifications per kind and can wait for the next one. */
async function watch(client: Client, mode: Mode) {
  const heard = { tools: 0, resources: 0, prompts: 0 };
  const waiters: Partial<Record<keyof typeof heard, () => void>> = {};
  for (const kind of ['tools', 'resources', 'prompts'] as const) {
    client.setNotificationHandler(`notifications/${kind}/list_changed`, () => {
      heard[kind]++;
      waiters[kind]?.();
    });
  }
  // 2026-07-28 clients ask for change notifications on a listen stream; 2025 ones get them unasked.
  if (mode !== 'legacy') await client.listen({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
  return { heard, next: (kind: keyof typeof heard) => new Promise<void>((resolve) => (waiters[kind] = resolve)) };
}

async function overStdio(mode: Mode, disable: string[] = []): Promise<{ client: Client; host: PrimitiveSwitches }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const host = startStdioServer(factory, { transport: serverSide, disable });
  const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(clientSide);
  cleanup.push(async () => {
    await client.close();
    await host.close();
  });
  return { client, host };
}

async function overHttp(mode: Mode, disable: string[] = []): Promise<{ client: Client; host: PrimitiveSwitches }> {
  const host = await startHttpServer(factory, { port: 0, stderr: quiet, disable });
  const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  cleanup.push(async () => {
    await client.close();
    await host.close();
  });
  return { client, host };
}

/** The error a request gets, as code and message. */
async function refusal(request: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await request;
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
  throw new Error('the request was not refused');
}

const names = async (client: Client) => ({
  tools: (await client.listTools()).tools.map((t) => t.name),
  resources: (await client.listResources()).resources.map((r) => r.uri),
  templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.name),
  prompts: (await client.listPrompts()).prompts.map((p) => p.name),
});

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
] as const)('switching primitives off and on over %s', (_transport, open) => {
  describe.each(ERAS)('%s', (_era, mode) => {
    it('takes a tool out of the listing, refuses it as unknown, announces both changes, and restores it in place', async () => {
      const { client, host } = await open(mode);
      const watcher = await watch(client, mode);
      const before = await names(client);
      expect(before.tools).toEqual(['alpha', 'beta', 'whoami', 'say', 'vault']);
      const unknown = await refusal(client.callTool({ name: 'nope', arguments: {} }));

      const off = watcher.next('tools');
      expect(host.disable('tool:beta')).toBe(true);
      await off;
      expect((await names(client)).tools).toEqual(['alpha', 'whoami', 'say', 'vault']);
      const refused = await refusal(client.callTool({ name: 'beta', arguments: {} }));
      expect(refused.code).toBe(unknown.code);
      expect(refused.message).toBe(unknown.message.replace('nope', 'beta'));
      expect(host.disabled()).toEqual(['tool:beta']);
      expect(host.disable('tool:beta')).toBe(false);

      const on = watcher.next('tools');
      expect(host.enable('tool:beta')).toBe(true);
      await on;
      expect(await names(client)).toEqual(before);
      expect((await client.callTool({ name: 'beta', arguments: {} })).content).toEqual([{ type: 'text', text: 'beta ok' }]);
      expect(watcher.heard).toEqual({ tools: 2, resources: 0, prompts: 0 });
    });

    it('switches a fixed resource (bare name), a template and a prompt off like unknown ones', async () => {
      const { client, host } = await open(mode);
      const watcher = await watch(client, mode);
      const before = await names(client);
      const unknownUri = await refusal(client.readResource({ uri: 'memo://nowhere' }));
      // Read once before the switch, so the template lookup is built while the template is on.
      expect((await client.readResource({ uri: 'memo://pages/1' })).contents).toHaveLength(1);
      const unknownPrompt = await refusal(client.getPrompt({ name: 'nope', arguments: { topic: 'x' } }));

      const resourcesOff = watcher.next('resources');
      host.disable('notes');
      await resourcesOff;
      const templateOff = watcher.next('resources');
      host.disable('resource:page');
      await templateOff;
      const promptOff = watcher.next('prompts');
      host.disable('prompt:beta');
      await promptOff;

      const now = await names(client);
      expect(now.resources).not.toContain('memo://notes');
      expect(now.templates).toEqual([]);
      expect(now.prompts).toEqual([]);
      const notes = await refusal(client.readResource({ uri: 'memo://notes' }));
      expect(notes.code).toBe(unknownUri.code);
      expect(notes.message).toBe(unknownUri.message.replace('memo://nowhere', 'memo://notes'));
      const pageRead = await refusal(client.readResource({ uri: 'memo://pages/1' }));
      expect(pageRead.code).toBe(unknownUri.code);
      const prompt = await refusal(client.getPrompt({ name: 'beta', arguments: { topic: 'x' } }));
      expect(prompt).toEqual({ code: unknownPrompt.code, message: unknownPrompt.message.replace('nope', 'beta') });

      host.enable('notes');
      host.enable('resource:page');
      const promptOn = watcher.next('prompts');
      host.enable('prompt:beta');
      await promptOn;
      expect(await names(client)).toEqual(before);
      expect((await client.readResource({ uri: 'memo://pages/2' })).contents).toEqual([{ uri: 'memo://pages/2', mimeType: 'text/plain', text: 'page 2' }]);
    });

    it('starts with the launch entries switched off', async () => {
      const { client, host } = await open(mode, ['tool:alpha', 'notes']);
      expect(host.disabled()).toEqual(['tool:alpha', 'resource:notes']);
      const listed = await names(client);
      expect(listed.tools).toEqual(['beta', 'whoami', 'say', 'vault']);
      expect(listed.resources).not.toContain('memo://notes');
      host.enable('alpha');
      expect((await names(client)).tools).toEqual(['alpha', 'beta', 'whoami', 'say', 'vault']);
    });
  });
});

describe('launch entries', () => {
  it('resolves kind:NAME and bare names, and names the valid entries for an unknown or ambiguous one', () => {
    expect(resolvePrimitive(catalog, 'tool:beta')).toEqual({ kind: 'tool', name: 'beta' });
    expect(resolvePrimitive(catalog, 'alpha')).toEqual({ kind: 'tool', name: 'alpha' });
    expect(resolvePrimitive(catalog, 'page')).toEqual({ kind: 'resource', name: 'page' });
    expect(() => resolvePrimitive(catalog, 'beta')).toThrow("'beta' is ambiguous: it names tool:beta and prompt:beta; write one of those.");
    expect(() => resolvePrimitive(catalog, 'tool:notes')).toThrow(/names no primitive of this server.*valid entries: tool:alpha, tool:beta, tool:whoami, tool:say, tool:vault, resource:notes, resource:page, prompt:beta/);
    expect(() => resolvePrimitive(catalog, 'gamma')).toThrow(/'gamma' names no primitive/);
  });

  it('stops start-up on an unknown --disable or MCP_DISABLE entry, with the valid entries', async () => {
    const lines: string[] = [];
    const stderr = { write: (line: string) => (lines.push(line), true) };
    const exitCode = process.exitCode;
    try {
      expect(await runMain(factory, { name: 'switchable', version: '1.0.0' }, { argv: ['--disable', 'gamma'], env: {}, stderr })).toBeUndefined();
      expect(process.exitCode).toBe(2);
      expect(lines.join('')).toMatch(/switchable: --disable \/ MCP_DISABLE: 'gamma' names no primitive of this server .*valid entries: tool:alpha/);
      lines.length = 0;
      expect(await runMain(factory, { name: 'switchable', version: '1.0.0' }, { argv: [], env: { MCP_DISABLE: 'alpha,beta' }, stderr })).toBeUndefined();
      expect(lines.join('')).toMatch(/'beta' is ambiguous/);
    } finally {
      process.exitCode = exitCode;
    }
  });

  it('refuses an unknown entry at HTTP start-up before listening', async () => {
    await expect(startHttpServer(factory, { port: 0, stderr: quiet, disable: ['prompt:alpha'] })).rejects.toThrow(/'prompt:alpha' names no primitive/);
  });
});
