/**
 * Escaping torture: every free-text field of a manifest holds hostile text
 * (comment terminators, backticks, `${x}`, quotes, backslashes, U+2028/2029,
 * emoji, CJK, `</script>`, `{{x}}`, CRLF, a trailing backslash). The output
 * must type-check, and every string must reach a real SDK client unchanged.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserError } from '../../generator/diagnostics.js';
import { formatDiagnostic } from '../../generator/manifest/index.js';
import { generate } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';

const PIECES = ['*/', '/*', '`', '${x}', "'", '"', '\\', '\u2028', '\u2029', '😀', '漢字', '</script>', '{{x}}', '\r\n', '@param'];

/** A hostile string labelled by the field it sits in; it ends in a backslash (or CRLF). */
const h = (label: string, end: '\\' | '\r\n' = '\\'): string => `${label}: ${PIECES.join(' ')} end${end}`;

const KEYS = [h('prop'), '*/', '${x}', "'", '\\', '</script>', 'a\r\nb', '\u2028'];
const ENUM = [h('enum'), '`', '*/', '${x}', '\\', '{{x}}', 'a\u2029b'];

const hostileSchema = {
  type: 'object',
  description: h('named schema description', '\r\n'),
  properties: { [h('out prop')]: { type: 'string', description: h('out prop description') } },
  additionalProperties: false,
};

const toolInput = {
  type: 'object',
  description: h('input description'),
  properties: {
    [KEYS[0]!]: { enum: ENUM, description: h('enum property description') },
    // closed sets: the linter reads a key like `</script>` as a free-form `script` argument otherwise
    ...Object.fromEntries(KEYS.slice(1).map((k, i) => [k, { enum: [h(`key ${i} value`)], description: h(`key ${i} description`) }])),
    text: { type: 'string', maxLength: 500, description: h('text description'), title: h('text title') },
  },
  required: [KEYS[0]!],
  additionalProperties: false,
};

const EXAMPLE_VALUE = h('example value');

const manifest = {
  mcpgen: 1,
  server: {
    name: 'escaping',
    version: '1.0.0',
    title: h('server title'),
    description: h('server description'),
    instructions: h('instructions line 1', '\r\n') + h('instructions line 2'),
    scopes: { 'things:read': h('scope description') },
  },
  schemas: { Hostile: hostileSchema },
  tools: {
    'things.get': {
      title: h('tool title'),
      description: h('tool description'),
      sideEffect: 'read',
      scopes: ['things:read'],
      input: toolInput,
      output: { $ref: '#/schemas/Hostile' },
      examples: [{ input: { [KEYS[0]!]: ENUM[0], text: EXAMPLE_VALUE } }],
    },
  },
  resources: {
    notes: {
      uri: 'escaping://notes/fixed',
      title: h('resource title'),
      description: h('resource description', '\r\n'),
      mimeType: 'text/markdown',
      revision: h('revision'),
      source: './content/hostile.md',
    },
    note: {
      uriTemplate: 'escaping://notes/{noteId}',
      title: h('template title'),
      description: h('template description'),
      mimeType: 'text/plain',
      params: { noteId: { type: 'string', description: h('param description') } },
      revision: h('template revision'),
    },
  },
  prompts: {
    review: {
      title: h('prompt title'),
      description: h('prompt description'),
      arguments: { x: { description: h('argument description'), required: true, schema: { type: 'string' } } },
      messages: [
        { role: 'user', text: h('message 1') },
        { role: 'assistant', text: `${h('message 2', '\r\n')}{{ x }}\\` },
        { role: 'user', resource: 'notes' },
      ],
    },
  },
};

const SOURCE = `# ${h('source heading', '\r\n')}\r\n${PIECES.join('\n')}\n\\`;
const ARG_VALUE = h('argument value {{x}}');

/** The manifest as YAML: JSON is YAML 1.2; U+2028/2029 are escaped so no parser can take them for line breaks. */
const yamlOf = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const tmp = join(repoRoot, 'test', `.tmp-escaping-${randomBytes(4).toString('hex')}`);
const out = join(tmp, 'out');

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  await mkdir(join(tmp, 'content'), { recursive: true });
  await writeFile(join(tmp, 'mcp.manifest.yaml'), yamlOf(manifest));
  await writeFile(join(tmp, 'content', 'hostile.md'), SOURCE);
  try {
    await generate(join(tmp, 'mcp.manifest.yaml'), { outDir: out });
  } catch (e) {
    const diagnostics = (e as UserError).diagnostics ?? [];
    throw new Error(`${(e as Error).message}\n${diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`);
  }
  await writeFile(
    join(tmp, 'tsconfig.json'),
    JSON.stringify({ extends: '../../tsconfig.json', include: ['out'], exclude: [] }, null, 2),
  );
}, 60_000);

afterAll(async () => {
  if (process.env['KEEP_TMP']) return;
  await rm(tmp, { recursive: true, force: true });
});

describe('escaping torture', () => {
  it('the generated tree type-checks (tsc --noEmit)', async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = await run(process.execPath, [tsc, '--noEmit', '-p', join(tmp, 'tsconfig.json')], repoRoot);
    expect(r.output).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it('example values survive as string literals in the contract suite', async () => {
    const code = await readFile(join(out, 'contract', 'tools.gen.test.ts'), 'utf8');
    const literals = [...code.matchAll(/'(?:[^'\\\n\r]|\\.)*'/g)].map((m) => new Function(`return ${m[0]};`)() as string);
    expect(literals).toContain(EXAMPLE_VALUE);
    expect(literals).toContain(ENUM[0]);
  });

  it('every generated file starts with the header; none holds a raw CR, and mcp-gen’s own code no raw U+2028/2029', async () => {
    for (const path of ['server.gen.ts', 'schemas.gen.ts', 'types.gen.ts', 'client.gen.ts', 'handlers.gen.ts', 'contract/tools.gen.test.ts', 'CONTRACTS.md']) {
      const text = await readFile(join(out, path), 'utf8');
      expect(text.split('\n')[0], path).toMatch(/^(\/\/|<!--) Code generated by mcp-gen/);
      expect(text, path).not.toMatch(/\r/);
      // types.gen.ts is excluded: json-schema-to-typescript writes U+2028/2029 raw into comments and keys
      // (legal TypeScript; reported as an oddity, not a failure).
      if (path !== 'types.gen.ts') expect(text, path).not.toMatch(/[\u2028\u2029]/);
      // Emitted as laid out: nothing trims or collapses the output afterwards.
      expect(text.split('\n').filter((line) => /[ \t]$/.test(line)), path).toEqual([]);
      expect(text, path).not.toContain('\n\n\n');
    }
  });

  describe.each([
    { era: '2025-11-25', negotiation: { mode: 'legacy' } },
    { era: '2026-07-28', negotiation: { mode: { pin: '2026-07-28' } } },
  ] as const)('round trip over an SDK client ($era)', ({ negotiation }) => {
    let client: Client;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const server = (await import(pathToFileURL(join(out, 'server.gen.ts')).href)) as typeof import('../../generated/support-desk/server.gen.js');
      const { handlers } = (await import(pathToFileURL(join(out, 'handlers.gen.ts')).href)) as { handlers: never };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const host = serveStdio((ctx) => server.createServer(handlers, { era: ctx.era, audit: false }), { transport: serverSide });
      client = new Client({ name: 'escaping-test', version: '1.0.0' }, { versionNegotiation: negotiation });
      await client.connect(clientSide);
      close = async () => {
        await client.close();
        await host.close();
      };
    }, 30_000);
    afterAll(async () => {
      await close?.();
    });

    it('server instructions, title and description', () => {
      expect(client.getInstructions()).toBe(manifest.server.instructions);
      expect(client.getServerVersion()).toMatchObject({ title: manifest.server.title, description: manifest.server.description });
    });

    it('tool title, description, property names, enum values and schema descriptions', async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'things.get')!;
      expect(tool.title).toBe(manifest.tools['things.get'].title);
      expect(tool.description).toBe(manifest.tools['things.get'].description);
      expect(tool.inputSchema).toEqual(toolInput);
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(Object.keys(toolInput.properties));
      expect((tool.inputSchema.properties as Record<string, { enum?: unknown }>)[KEYS[0]!]!.enum).toEqual(ENUM);
      expect(tool.outputSchema).toEqual(hostileSchema);
    });

    it('tool input validation names a hostile property', async () => {
      const result = await client.callTool({ name: 'things.get', arguments: { [KEYS[0]!]: 'not one of them' } });
      expect(result.isError).toBe(true);
    });

    it('resource title, description and revision; source content byte for byte', async () => {
      const { resources } = await client.listResources();
      const fixed = resources.find((r) => r.uri === 'escaping://notes/fixed')!;
      expect(fixed.title).toBe(manifest.resources.notes.title);
      expect(fixed.description).toBe(manifest.resources.notes.description);
      expect(fixed._meta?.['revision']).toBe(manifest.resources.notes.revision);
      const read = await client.readResource({ uri: 'escaping://notes/fixed' });
      expect(read.contents[0]).toMatchObject({ uri: 'escaping://notes/fixed', text: SOURCE });
    });

    it('template title, description and revision', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      const template = resourceTemplates.find((r) => r.uriTemplate === 'escaping://notes/{noteId}')!;
      expect(template.title).toBe(manifest.resources.note.title);
      expect(template.description).toBe(manifest.resources.note.description);
      expect(template._meta?.['revision']).toBe(manifest.resources.note.revision);
    });

    it('prompt title, description, argument description and message text', async () => {
      const { prompts } = await client.listPrompts();
      const prompt = prompts.find((p) => p.name === 'review')!;
      expect(prompt.title).toBe(manifest.prompts.review.title);
      expect(prompt.description).toBe(manifest.prompts.review.description);
      expect(prompt.arguments).toEqual([{ name: 'x', description: manifest.prompts.review.arguments.x.description, required: true }]);

      const got = await client.getPrompt({ name: 'review', arguments: { x: ARG_VALUE } });
      const [m1, m2, m3] = manifest.prompts.review.messages;
      expect(got.messages[0]).toEqual({ role: 'user', content: { type: 'text', text: m1!.text!.split('{{x}}').join(ARG_VALUE) } });
      expect(got.messages[1]).toEqual({ role: 'assistant', content: { type: 'text', text: m2!.text!.split('{{x}}').join(ARG_VALUE).replace('{{ x }}', ARG_VALUE) } });
      expect(got.messages[2]).toMatchObject({ role: m3!.role, content: { type: 'resource', resource: { uri: 'escaping://notes/fixed', text: SOURCE } } });
    });
  });
});
