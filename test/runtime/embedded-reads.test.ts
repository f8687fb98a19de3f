/**
 * Reads made on a caller's behalf are gated like the caller's own: a prompt that embeds a resource, and a
 * handler that reads through `ctx.readResource`, pass the resource's scopes and `authorize` with the
 * caller's identity (both eras).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  createRuntime,
  gated,
  installSecurity,
  jsonSchema,
  paramsValidator,
  promptArgsSchema,
  resourceReader,
  templatePromptCallback,
  templateResourceCallback,
  toolCallback,
  type AuditEvent,
  type AuthorizeRequest,
  type Catalog,
  type PromptSpec,
  type ResourceSpec,
  type ServerOptions,
  type ToolSpec,
} from '../../generator/runtime/index.js';
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { ERAS, connect } from './fixture.js';

const ticketSpec: ResourceSpec = { name: 'ticket', uriTemplate: 'desk://tickets/{id}', mimeType: 'text/plain', textual: true, json: false, params: paramsValidator({ id: { type: 'string', pattern: '^T-[0-9]+$' } }), scopes: ['tickets:read'] };
const peekSpec: ToolSpec = { name: 'peek', output: false, scopes: [], idempotency: 'none', approval: 'none', input: jsonSchema({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }) };
const args = promptArgsSchema<{ id: string }>([{ name: 'id', required: true, schema: { type: 'string' } }]);
const showSpec: PromptSpec = { name: 'show', args, scopes: [] };
const catalog: Catalog = { scopes: ['tickets:read'], tools: [peekSpec], resources: [ticketSpec], prompts: [showSpec] };
const reads: string[] = [];
const ticket = { read: (params: { id: string }) => (reads.push(params.id), `secret body of ${params.id}`) };

function server(options: ServerOptions): McpServer {
  const rt = createRuntime({ stderr: { write: () => true }, ...options }, catalog);
  const s = new McpServer({ name: 'reads', version: '1.0.0' }, { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } } });
  s.registerResource('ticket', new ResourceTemplate(ticketSpec.uriTemplate!, { list: undefined }), { mimeType: 'text/plain' }, templateResourceCallback(rt, ticketSpec, ticket));
  s.registerTool('peek', { description: 'Peek', inputSchema: gated(peekSpec.input!) }, toolCallback(rt, peekSpec, async (input: { id: string }, ctx) => {
    const contents = await ctx.readResource(`desk://tickets/${input.id}`);
    return JSON.stringify(contents);
  }));
  s.registerPrompt('show', { description: 'Show', argsSchema: gated(args) }, templatePromptCallback(rt, showSpec, [
    { role: 'user', text: 'Ticket {{id}}:' },
    { role: 'user', resource: { uri: ticketSpec.uriTemplate!, read: resourceReader(rt, ticketSpec, ticket) } },
  ]));
  installSecurity(s, rt);
  return s;
}

const deny = (request: AuthorizeRequest): boolean => !(request.kind === 'resource' && (request.params as { id?: string } | undefined)?.id === 'T-2');

describe.each(ERAS)('reads on the caller’s behalf ($era)', ({ mode }) => {
  it('ctx.readResource refuses a caller without the resource scope, and the handler never reads', async () => {
    reads.length = 0;
    const conn = await connect(mode, (ctx) => server({ era: ctx.era, scopes: [] }));
    const r = await conn.client.callTool({ name: 'peek', arguments: { id: 'T-1' } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/requires scope tickets:read/);
    expect(JSON.stringify(r.content)).not.toMatch(/secret body/);
    expect(reads).toEqual([]);
    await conn.close();
  });

  it('ctx.readResource applies authorize with the caller identity, and audits the read', async () => {
    reads.length = 0;
    const events: AuditEvent[] = [];
    const conn = await connect(mode, (ctx) => server({ era: ctx.era, principal: 'alice', tenant: 'acme', authorize: deny, audit: (e) => void events.push(e) }));
    const ok = await conn.client.callTool({ name: 'peek', arguments: { id: 'T-1' } });
    expect(JSON.stringify(ok.content)).toMatch(/secret body of T-1/);
    const denied = await conn.client.callTool({ name: 'peek', arguments: { id: 'T-2' } });
    expect(denied.isError).toBe(true);
    expect(reads).toEqual(['T-1']);
    const resourceEvents = events.filter((e) => e.kind === 'resource');
    expect(resourceEvents.map((e) => [e.principal, e.tenant, e.outcome])).toEqual([['alice', 'acme', 'ok'], ['alice', 'acme', 'forbidden']]);
    await conn.close();
  });

  it('an embedded resource passes the resource scopes and authorize of the prompt caller', async () => {
    reads.length = 0;
    const noScope = await connect(mode, (ctx) => server({ era: ctx.era, scopes: [] }));
    await expect(noScope.client.getPrompt({ name: 'show', arguments: { id: 'T-1' } })).rejects.toThrow(/requires scope tickets:read/);
    await noScope.close();
    const scoped = await connect(mode, (ctx) => server({ era: ctx.era, authorize: deny }));
    await expect(scoped.client.getPrompt({ name: 'show', arguments: { id: 'T-2' } })).rejects.toThrow(/Forbidden/);
    const ok = await scoped.client.getPrompt({ name: 'show', arguments: { id: 'T-1' } });
    expect(JSON.stringify(ok.messages)).toMatch(/secret body of T-1/);
    expect(reads).toEqual(['T-1']);
    await scoped.close();
  });
});
