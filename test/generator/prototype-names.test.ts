/**
 * A manifest whose primitives are named after Object.prototype members (`constructor`, `toString`,
 * `__proto__`, `hasOwnProperty`, `valueOf`) generates a server that registers and serves every one of them,
 * and a lock file that records every one of them.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';

const TOOLS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
const tool = (name: string) =>
  `  ${JSON.stringify(name)}:\n    description: Return the ${name} of one thing by id. Read only.\n    sideEffect: read\n    input: { type: object, properties: { id: { type: string, maxLength: 20 } }, required: [id], additionalProperties: false }\n`;
const MANIFEST = `mcpgen: 1
server:
  name: proto-names
  version: 0.1.0
tools:
${TOOLS.map(tool).join('')}prompts:
  valueOf:
    description: Explain the value of one thing.
    arguments:
      id: { description: Thing id, required: true }
    messages:
      - { role: user, text: "Explain {{id}}." }
`;

const tmp = join(repoRoot, 'test', `.tmp-proto-${randomBytes(4).toString('hex')}`);
const out = join(tmp, 'out');

beforeAll(async () => {
  await mkdir(tmp, { recursive: true });
  await writeFile(join(tmp, 'mcp.manifest.yaml'), MANIFEST);
  await generate(join(tmp, 'mcp.manifest.yaml'), { outDir: out });
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('primitives named after Object.prototype members', () => {
  it('are all in the lock file', async () => {
    const lock = JSON.parse(await readFile(join(out, 'mcp.lock.json'), 'utf8')) as { tools: object; prompts: object };
    expect(Object.keys(lock.tools)).toEqual(TOOLS);
    expect(Object.keys(lock.prompts)).toEqual(['valueOf']);
  });

  it('register and answer on the generated server, in both eras', async () => {
    const mod = (await import(pathToFileURL(join(out, 'server.gen.ts')).href)) as { createServer: (h: unknown, o?: object) => McpServer };
    const { handlers } = (await import(pathToFileURL(join(out, 'handlers.gen.ts')).href)) as { handlers: unknown };
    for (const mode of ['legacy', { pin: '2026-07-28' }] as const) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const host = serveStdio((c) => mod.createServer(handlers, { era: c.era, audit: false, stderr: { write: () => true } }), { transport: serverSide });
      const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } } as never);
      await client.connect(clientSide);
      try {
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
        for (const name of TOOLS) {
          const r = await client.callTool({ name, arguments: { id: 'x' } });
          // The handlers are the generated stubs: reaching one proves registration and dispatch.
          expect((r.content as { text: string }[])[0]?.text).toMatch(/^Not implemented: tool /);
        }
        expect((await client.getPrompt({ name: 'valueOf', arguments: { id: 'T-1' } })).messages[0]?.content).toEqual({ type: 'text', text: 'Explain T-1.' });
      } finally {
        await client.close();
        await host.close();
      }
    }
  });
});
