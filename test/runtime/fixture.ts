/**
 * A hand-written server shaped like generated code (schemas at module scope,
 * callbacks from the runtime), plus a helper that connects a real client in
 * either protocol era over an in-memory transport.
 */
import { McpServer, ResourceTemplate, InMemoryTransport } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import {
  ToolError,
  PromptError,
  createRuntime,
  fixedResourceCallback,
  gated,
  installCompletions,
  installSecurity,
  installSubscriptions,
  jsonSchema,
  notImplemented,
  paramsValidator,
  promptArgsSchema,
  promptCallback,
  resourceNotFound,
  resourceReader,
  sourceResourceCallback,
  startStdioServer,
  templateListCallback,
  templatePromptCallback,
  templateResourceCallback,
  toolCallback,
  type Catalog,
  type Completer,
  type FixedResourceHandler,
  type PromptHandler,
  type PromptSpec,
  type ResourceSpec,
  type Runtime,
  type ServerOptions,
  type TemplateResourceHandler,
  type ToolHandler,
  type ToolSpec,
} from '../../generator/runtime/index.js';

export interface Ticket { id: string; status: 'open' | 'pending' | 'closed' }
export interface TicketsGetInput { ticketId: string }
export interface TicketParams { ticketId: string }
export interface ReviewArgs { ticketId: string; depth?: 'quick' | 'full'; count?: number; urgent?: boolean }

const ticketSchema = { type: 'object', properties: { id: { type: 'string' }, status: { enum: ['open', 'pending', 'closed'] } }, required: ['id', 'status'], additionalProperties: false };
const ticketIdSchema = { type: 'string', pattern: '^T-[0-9]{4,}$' };

// --- schemas.gen.ts ---
export const S = {
  ticketsGetInput: jsonSchema<TicketsGetInput>({ type: 'object', properties: { ticketId: ticketIdSchema }, required: ['ticketId'], additionalProperties: false }),
  ticketsGetOutput: jsonSchema<Ticket>(ticketSchema),
  anyInput: jsonSchema<Record<string, unknown>>({ type: 'object', properties: {} }),
  anyObject: jsonSchema<object>({ type: 'object' }),
  numbers: jsonSchema<number[]>({ type: 'array', items: { type: 'integer' } }),
  treeInput: jsonSchema<{ tree: unknown }>({
    type: 'object',
    properties: { tree: { $ref: '#/$defs/Node' } },
    required: ['tree'],
    $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['name'], additionalProperties: false } },
  }),
  ticketContent: jsonSchema<Ticket>(ticketSchema),
  ticketParams: paramsValidator<TicketParams>({ ticketId: ticketIdSchema }),
  fileParams: paramsValidator<{ path: string }>({ path: { type: 'string' } }),
  pageParams: paramsValidator<{ n: number }>({ n: { type: 'integer', minimum: 1 } }),
  reviewArgs: promptArgsSchema<ReviewArgs>([
    { name: 'ticketId', description: 'Ticket to review', required: true, schema: ticketIdSchema },
    { name: 'depth', description: 'Review depth', required: false, schema: { enum: ['quick', 'full'] } },
    { name: 'count', description: 'How many', required: false, schema: { type: 'integer', minimum: 1 } },
    { name: 'urgent', required: false, schema: { type: 'boolean' } },
    { name: 'note', required: false, schema: { type: 'string' } },
  ]),
  summaryArgs: promptArgsSchema<{ topic: string }>([{ name: 'topic', description: 'Topic', required: true, schema: { type: 'string' } }]),
};

/** What the handlers saw, for assertions. */
export const seen = { aborted: [] as string[], calls: [] as string[], effects: [] as string[] };

/**
 * Holds the `charge`/`refund` handlers until a test lets them go: while `hold` is set each run waits on it,
 * so a test can retry while the first run is still going.
 */
export const control: { hold: Promise<void> | undefined } = { hold: undefined };

/** A latch for {@link control}: `open()` lets every held run finish. */
export function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tool = (name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({ name, output: false, scopes: [], idempotency: 'none', approval: 'none', ...extra });

const ticketSpec: ResourceSpec = { name: 'ticket', uriTemplate: 'support://tickets/{ticketId}', mimeType: 'application/json', textual: true, json: true, content: S.ticketContent, params: S.ticketParams, scopes: ['tickets:read'] };
const fileSpec: ResourceSpec = { name: 'file', uriTemplate: 'docs://files/{+path}', mimeType: 'text/plain', textual: true, json: false, params: S.fileParams, scopes: [] };
const pageSpec: ResourceSpec = { name: 'page', uriTemplate: 'docs://pages/{n}', mimeType: 'text/plain', textual: true, json: false, params: S.pageParams, scopes: [] };
const policySpec: ResourceSpec = { name: 'refund-policy', uri: 'support://policies/refunds/2026-09', mimeType: 'text/markdown', textual: true, json: false, scopes: [] };
const logoSpec: ResourceSpec = { name: 'logo', uri: 'support://logo.png', mimeType: 'image/png', textual: false, json: false, scopes: [] };
const statsSpec: ResourceSpec = { name: 'stats', uri: 'support://stats', mimeType: 'application/json', textual: true, json: true, scopes: [] };
const reviewSpec: PromptSpec = { name: 'draft_refund_review', args: S.reviewArgs, scopes: [] };
const summarySpec: PromptSpec = { name: 'summarize', args: S.summaryArgs, scopes: [] };

export const POLICY = '# Refunds\nWithin 30 days.';

// --- handlers (the author's code) ---
export const handlers = {
  tools: {
    ticketsGet: ((input, ctx) => {
      seen.calls.push(`${ctx.primitive.name}:${input.ticketId}`);
      if (input.ticketId === 'T-0404') throw new ToolError(`Ticket ${input.ticketId} does not exist.`);
      if (input.ticketId === 'T-0500') throw new Error('db password=hunter2 at /srv/app/secret.ts:12');
      if (input.ticketId === 'T-0422') return { id: input.ticketId, status: 'weird' } as unknown as Ticket;
      return { id: input.ticketId, status: 'open' };
    }) satisfies ToolHandler<TicketsGetInput, Ticket>,
    echo: ((input: Record<string, unknown>) => `echo ${JSON.stringify(input)}`) satisfies ToolHandler<Record<string, unknown>>,
    blocks: (() => [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]) satisfies ToolHandler<Record<string, unknown>>,
    slow: ((_input, ctx) =>
      new Promise<string>((_, reject) => {
        ctx.signal.addEventListener('abort', () => {
          seen.aborted.push(ctx.primitive.name);
          reject(new Error('aborted'));
        });
      })) satisfies ToolHandler<Record<string, unknown>>,
    stub: (() => {
      throw notImplemented('tool', 'stub');
    }) satisfies ToolHandler<Record<string, unknown>>,
    touch: (async (input, ctx) => {
      await ctx.notifyResourceUpdated(`support://tickets/${input.ticketId}`);
      return 'touched';
    }) satisfies ToolHandler<TicketsGetInput>,
    progress: (async (_input, ctx) => {
      await ctx.progress(1, 2, 'half');
      await ctx.progress(2, 2);
      return { principal: ctx.principal ?? null, scopes: ctx.scopes, primitive: ctx.primitive };
    }) satisfies ToolHandler<Record<string, unknown>, object>,
    list: (() => [1, 2, 3]) satisfies ToolHandler<Record<string, unknown>, number[]>,
    tree: ((input) => `ok ${JSON.stringify(input.tree).length}`) satisfies ToolHandler<{ tree: unknown }>,
    charge: (async (input, ctx) => {
      if (control.hold) await control.hold;
      seen.effects.push(`${ctx.primitive.name}:${ctx.tenant ?? '-'}:${ctx.principal}:${ctx.idempotencyKey ?? '-'}:${JSON.stringify(input)}`);
      return `charged ${seen.effects.length}`;
    }) satisfies ToolHandler<Record<string, unknown>>,
    hang: (() => new Promise<string>(() => undefined)) satisfies ToolHandler<Record<string, unknown>>,
    say: (async (input, ctx) => {
      await ctx.log('info', String(input['text']), input['data']);
      return 'said';
    }) satisfies ToolHandler<Record<string, unknown>>,
  },
  resources: {
    ticket: {
      read(params) {
        if (params.ticketId === 'T-0000') throw resourceNotFound();
        if (params.ticketId === 'T-6666') throw new Error('secret stack /srv/app/db.ts');
        if (params.ticketId === 'T-7777') return { id: params.ticketId, status: 'bogus' };
        return { id: params.ticketId, status: 'pending' };
      },
      list: () => [{ params: { ticketId: 'T-1001' }, name: 'First' }, { params: { ticketId: 'T-1002' }, title: 'Second', description: 'The second' }],
    } satisfies TemplateResourceHandler<TicketParams, Ticket | object>,
    file: { read: (params) => `file:${params.path}` } satisfies TemplateResourceHandler<{ path: string }, string>,
    page: { read: (params) => `page ${params.n + 1}` } satisfies TemplateResourceHandler<{ n: number }, string>,
    logo: { read: () => new Uint8Array([137, 80, 78, 71]) } satisfies FixedResourceHandler<Uint8Array>,
    stats: { read: () => ({ open: 3 }) } satisfies FixedResourceHandler<object>,
  },
  prompts: {
    summarize: {
      get(args) {
        if (args.topic === 'bad') throw new PromptError('Topic "bad" cannot be summarized.');
        if (args.topic === 'crash') throw new Error('secret /srv/x.ts');
        if (args.topic === 'list') return [{ role: 'user', text: 'one' }, { role: 'assistant', content: { type: 'text', text: 'two' } }];
        return `Summarize ${args.topic}`;
      },
    } satisfies PromptHandler<{ topic: string }>,
  },
  complete: {
    ticketId: ((value) => Array.from({ length: 150 }, (_, i) => `T-${String(1000 + i)}`).filter((v) => v.startsWith(value))) satisfies Completer,
    depth: ((value, context) => ['quick', 'full'].filter((v) => v.startsWith(value) && context.arguments.ticketId !== 'none')) satisfies Completer<ReviewArgs>,
  },
};

const toolSpecs = {
  ticketsGet: tool('tickets.get', { output: true, timeoutMs: 10_000, scopes: ['tickets:read'], input: S.ticketsGetInput, outputSchema: S.ticketsGetOutput }),
  echo: tool('echo', { input: S.anyInput }),
  blocks: tool('blocks', { input: S.anyInput }),
  slow: tool('slow', { timeoutMs: 50, input: S.anyInput }),
  stub: tool('stub', { input: S.anyInput }),
  touch: tool('touch', { input: S.ticketsGetInput }),
  progress: tool('progress', { output: true, input: S.anyInput, outputSchema: S.anyObject }),
  list: tool('list', { output: true, input: S.anyInput, outputSchema: S.numbers as never }),
  tree: tool('tree', { input: S.treeInput }),
  charge: tool('charge', { idempotency: 'required', input: S.anyInput }),
  chargeSlowly: tool('charge_slowly', { idempotency: 'required', timeoutMs: 50, input: S.anyInput }),
  refund: tool('refund', { approval: 'required', input: S.anyInput }),
  refundOnce: tool('refund_once', { approval: 'required', idempotency: 'required', input: S.anyInput }),
  hang: tool('hang', { input: S.anyInput }),
  say: tool('say', { input: S.anyInput }),
};

/** Declared scopes and every spec, as generated code passes them. */
export const catalog: Catalog = {
  scopes: ['tickets:read'],
  tools: Object.values(toolSpecs),
  resources: [ticketSpec, fileSpec, pageSpec, policySpec, logoSpec, statsSpec],
  prompts: [reviewSpec, summarySpec],
};

/** The last runtime built, so tests can notify subscribers. */
export let lastRuntime: Runtime | undefined;

// --- server.gen.ts ---
export function createServer(options: ServerOptions = {}): McpServer {
  const rt = createRuntime({ audit: false, ...options }, catalog);
  lastRuntime = rt;
  const server = new McpServer(
    { name: 'support-desk', version: '1.4.0', title: 'Support Desk' },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: true }, prompts: { listChanged: false } }, instructions: 'Be kind.', requestState: rt.requestState },
  );
  const h = handlers;
  const t = toolSpecs;
  server.registerTool('tickets.get', { title: 'Get ticket', description: 'Look up one ticket.', inputSchema: gated(S.ticketsGetInput), outputSchema: S.ticketsGetOutput, annotations: { readOnlyHint: true } }, toolCallback(rt, t.ticketsGet, h.tools.ticketsGet));
  server.registerTool('echo', { description: 'Echo', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.echo, h.tools.echo));
  server.registerTool('blocks', { description: 'Blocks', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.blocks, h.tools.blocks));
  server.registerTool('slow', { description: 'Slow', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.slow, h.tools.slow));
  server.registerTool('stub', { description: 'Stub', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.stub, h.tools.stub));
  server.registerTool('touch', { description: 'Touch', inputSchema: gated(S.ticketsGetInput) }, toolCallback(rt, t.touch, h.tools.touch));
  server.registerTool('progress', { description: 'Progress', inputSchema: gated(S.anyInput), outputSchema: S.anyObject }, toolCallback(rt, t.progress, h.tools.progress));
  server.registerTool('list', { description: 'List', inputSchema: gated(S.anyInput), outputSchema: S.numbers }, toolCallback(rt, t.list, h.tools.list));
  server.registerTool('tree', { description: 'Tree', inputSchema: gated(S.treeInput) }, toolCallback(rt, t.tree, h.tools.tree));
  server.registerTool('charge', { description: 'Charge', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.charge, h.tools.charge));
  server.registerTool('charge_slowly', { description: 'Charge slowly', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.chargeSlowly, h.tools.charge));
  server.registerTool('refund', { description: 'Refund', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.refund, h.tools.charge));
  server.registerTool('refund_once', { description: 'Refund once', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.refundOnce, h.tools.charge));
  server.registerTool('hang', { description: 'Hang', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.hang, h.tools.hang));
  server.registerTool('say', { description: 'Say', inputSchema: gated(S.anyInput) }, toolCallback(rt, t.say, h.tools.say));

  server.registerResource('refund-policy', policySpec.uri!, { title: 'Refund policy', mimeType: 'text/markdown' }, sourceResourceCallback(rt, policySpec, POLICY, 'text'));
  server.registerResource('logo', logoSpec.uri!, { mimeType: 'image/png' }, fixedResourceCallback(rt, logoSpec, h.resources.logo));
  server.registerResource('stats', statsSpec.uri!, { mimeType: 'application/json' }, fixedResourceCallback(rt, statsSpec, h.resources.stats));
  server.registerResource('ticket', new ResourceTemplate(ticketSpec.uriTemplate!, { list: templateListCallback(rt, ticketSpec, h.resources.ticket) }), { title: 'Ticket', mimeType: 'application/json' }, templateResourceCallback(rt, ticketSpec, h.resources.ticket));
  server.registerResource('file', new ResourceTemplate(fileSpec.uriTemplate!, { list: undefined }), { mimeType: 'text/plain' }, templateResourceCallback(rt, fileSpec, h.resources.file));
  server.registerResource('page', new ResourceTemplate(pageSpec.uriTemplate!, { list: undefined }), { mimeType: 'text/plain' }, templateResourceCallback(rt, pageSpec, h.resources.page));

  server.registerPrompt('draft_refund_review', { title: 'Draft refund review', description: 'Review a refund.', argsSchema: gated(S.reviewArgs) }, templatePromptCallback(rt, reviewSpec, [
    { role: 'user', text: 'Review ticket {{ticketId}} at {{ depth }} depth ({{count}}, urgent={{urgent}}). Note: {{note}} {{unknown}}' },
    { role: 'user', resource: { uri: policySpec.uri!, read: resourceReader(rt, policySpec, { content: POLICY, encoding: 'text' }) } },
    { role: 'user', resource: { uri: ticketSpec.uriTemplate!, read: resourceReader(rt, ticketSpec, h.resources.ticket) } },
  ]));
  server.registerPrompt('summarize', { description: 'Summarize', argsSchema: gated(S.summaryArgs) }, promptCallback(rt, summarySpec, h.prompts.summarize));

  installCompletions(server, rt, {
    prompts: { draft_refund_review: { ticketId: h.complete.ticketId, depth: h.complete.depth } },
    resourceTemplates: { 'support://tickets/{ticketId}': { spec: ticketSpec, complete: { ticketId: h.complete.ticketId } } },
  });
  installSubscriptions(server, rt);
  installSecurity(server, rt);
  return server;
}

/** The two eras every behaviour is checked in. */
export const ERAS = [
  { era: 'legacy', mode: 'legacy' },
  { era: 'modern', mode: { pin: '2026-07-28' } },
] as const;

/** How a test client answers confirmation requests; `none` declares no elicitation. */
export type Confirm = 'none' | 'accept' | 'decline';

/** Connects a real client to `factory` over an in-memory transport in the given era. */
export async function connect(
  mode: (typeof ERAS)[number]['mode'],
  factory: (ctx: { era: 'legacy' | 'modern' }) => McpServer = (ctx) => createServer({ era: ctx.era, stderr: { write: () => true } }),
  confirm: Confirm = 'none',
) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const handle = startStdioServer(factory, { transport: serverTransport });
  const capabilities = confirm === 'none' ? {} : { elicitation: { form: {} } };
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode }, capabilities } as ConstructorParameters<typeof Client>[1]);
  if (confirm !== 'none') client.setRequestHandler('elicitation/create', () => (confirm === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }));
  await client.connect(clientTransport);
  return {
    client,
    async close() {
      await client.close();
      await handle.close();
    },
  };
}
