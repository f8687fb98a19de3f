/**
 * A small server shaped like generated code that declares `listChanged` for every kind, for the tests of
 * switching primitives off and on while serving. Its handlers record the caller each call ran for.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import {
  createRuntime,
  gated,
  installSecurity,
  installSubscriptions,
  jsonSchema,
  paramsValidator,
  promptArgsSchema,
  promptCallback,
  sourceResourceCallback,
  templateResourceCallback,
  toolCallback,
  type Catalog,
  type PromptSpec,
  type ResourceSpec,
  type ServerOptions,
  type ToolSpec,
} from '../../generator/runtime/index.js';

const input = jsonSchema<{ wait?: boolean; text?: string }>({ type: 'object', properties: { wait: { type: 'boolean' }, text: { type: 'string' } }, additionalProperties: false });
const pageParams = paramsValidator<{ n: string }>({ n: { type: 'string' } });
const betaArgs = promptArgsSchema<{ topic: string }>([{ name: 'topic', required: true, schema: { type: 'string' } }]);

const tool = (name: string): ToolSpec => ({ name, output: false, scopes: [], idempotency: 'none', approval: 'none', input });
const tools = { alpha: tool('alpha'), beta: tool('beta'), whoami: tool('whoami'), say: tool('say'), vault: { ...tool('vault'), scopes: ['vault:open'] } };
const notes: ResourceSpec = { name: 'notes', uri: 'memo://notes', mimeType: 'text/plain', textual: true, json: false, scopes: [] };
const page: ResourceSpec = { name: 'page', uriTemplate: 'memo://pages/{n}', mimeType: 'text/plain', textual: true, json: false, params: pageParams, scopes: [] };
const betaPrompt: PromptSpec = { name: 'beta', args: betaArgs, scopes: [] };

/** The catalog: the tool `beta` and the prompt `beta` make the bare name `beta` ambiguous. */
export const catalog: Catalog = { scopes: ['vault:open'], tools: Object.values(tools), resources: [notes, page], prompts: [betaPrompt], logging: true };

/** What the handlers saw: `principal/tenant` per `whoami` call, and aborted calls. */
export const seen = { callers: [] as string[], aborted: [] as string[] };

/** Builds the server (one per process when hosted: the hosts share its registrations). */
export function createSwitchServer(options: ServerOptions = {}): McpServer {
  const rt = createRuntime({ audit: false, stderr: { write: () => true }, ...options }, catalog);
  const server = new McpServer(
    { name: 'switchable', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, prompts: { listChanged: true }, logging: {} }, requestState: rt.requestState },
  );
  const plain = (name: string) => toolCallback(rt, tools[name as keyof typeof tools], async (args: { wait?: boolean; text?: string }, ctx) => {
    if (args.wait) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      seen.aborted.push(`${ctx.principal}/${ctx.tenant ?? '-'}`);
      return 'aborted';
    }
    return `${name} ok`;
  });
  server.registerTool('alpha', { description: 'Alpha', inputSchema: gated(input) }, plain('alpha'));
  server.registerTool('beta', { description: 'Beta', inputSchema: gated(input) }, plain('beta'));
  server.registerTool('whoami', { description: 'Who am I', inputSchema: gated(input) }, toolCallback(rt, tools.whoami, async (args: { wait?: boolean }, ctx) => {
    if (args.wait) await new Promise((resolve) => setTimeout(resolve, 20));
    seen.callers.push(`${ctx.principal}/${ctx.tenant ?? '-'}`);
    return `${ctx.principal}/${ctx.tenant ?? '-'}`;
  }));
  server.registerTool('say', { description: 'Logs one line', inputSchema: gated(input) }, toolCallback(rt, tools.say, async (args: { text?: string }, ctx) => {
    await ctx.log('info', args.text ?? '');
    return 'said';
  }));
  server.registerTool('vault', { description: 'Needs vault:open', inputSchema: gated(input) }, plain('vault'));
  server.registerResource('notes', notes.uri!, { mimeType: 'text/plain' }, sourceResourceCallback(rt, notes, 'remember', 'text'));
  server.registerResource('page', new ResourceTemplate(page.uriTemplate!, { list: undefined }), { mimeType: 'text/plain' }, templateResourceCallback(rt, page, { read: (p: { n: string }) => `page ${p.n}` }));
  server.registerPrompt('beta', { description: 'Beta prompt', argsSchema: gated(betaArgs) }, promptCallback(rt, betaPrompt, { get: (a: { topic: string }) => `About ${a.topic}` }));
  installSubscriptions(server, rt);
  installSecurity(server, rt);
  return server;
}
