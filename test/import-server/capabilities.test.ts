/**
 * Capabilities declared with no primitive behind them, on the wire in both eras: published exactly
 * as declared (`listChanged: ~` leaves the field out, `subscribe: false` is published), and each one
 * answers its requests: empty listings, `resources/subscribe` (2025) or `subscriptions/listen`
 * (2026), `completion/complete` refusing an unknown ref with -32602, `logging/setLevel` (2025). A tool
 * whose every hint is left out is listed without `annotations`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { connectTo, type Era, type ServerTarget } from '../../generator/remote/connect.js';

const root = resolve(import.meta.dirname, '../..');
const scratch = join(root, 'test/import-server/.tmp-capabilities');

const MANIFESTS = {
  // Every kind declared, no primitive at all.
  bare: `mcpgen: 1
server:
  name: capabilities-only
  version: 1.0.0
  logging: true
  capabilities:
    tools: {}
    resources: { subscribe: true, listChanged: true }
    prompts: { listChanged: ~ }
    completions: true
`,
  // A tool whose kind publishes no listChanged (the SDK would add \`listChanged: true\`), and an explicit subscribe: false.
  exact: `mcpgen: 1
server:
  name: exact-capabilities
  version: 1.0.0
  capabilities:
    tools: { listChanged: ~ }
    resources: { subscribe: false, listChanged: ~ }
tools:
  ping:
    sideEffect: read
    input: { type: object, properties: {} }
  # Listed without annotations, like a published tool that states no hint.
  drop:
    sideEffect: write
    idempotency: natural
    annotations: { readOnlyHint: ~, destructiveHint: ~, idempotentHint: ~ }
    input: { type: object, properties: {} }
`,
};

const target = (name: string): ServerTarget => ({ kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', join(scratch, name, 'out', 'main.gen.ts')] });

beforeAll(async () => {
  for (const [name, text] of Object.entries(MANIFESTS)) {
    mkdirSync(join(scratch, name), { recursive: true });
    writeFileSync(join(scratch, name, 'mcp.manifest.yaml'), text);
    await generate(join(scratch, name, 'mcp.manifest.yaml'), { outDir: join(scratch, name, 'out'), cwd: root });
  }
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(() => 'ok', (e: { code?: unknown }) => e.code);
}

describe.each(['2025-11-25', '2026-07-28'] as Era[])('declared capabilities (%s)', (era) => {
  it('are published exactly, and each declared kind answers its listing with nothing', async () => {
    const client = await connectTo(target('bare'), era);
    try {
      expect(client.getServerCapabilities()).toEqual({ logging: {}, completions: {}, tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: {} });
      expect((await client.listTools()).tools).toEqual([]);
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
      expect(await codeOf(client.complete({ ref: { type: 'ref/prompt', name: 'nothing' }, argument: { name: 'a', value: '' } }))).toBe(-32602);
      if (era === '2025-11-25') {
        expect(await codeOf(client.subscribeResource({ uri: 'demo://anything' }))).toBe('ok');
        expect(await codeOf(client.setLoggingLevel('info'))).toBe('ok');
      } else {
        const subscription = await client.listen({ resourceSubscriptions: ['demo://anything'] });
        expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['demo://anything']);
        await subscription.close();
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  it('keep a kind without listChanged even when a primitive registers, and publish subscribe: false', async () => {
    const client = await connectTo(target('exact'), era);
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: { subscribe: false } });
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(['ping', 'drop']);
      expect(tools[0]!.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
      expect('annotations' in tools[1]!).toBe(false);
      expect((await client.listResources()).resources).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
