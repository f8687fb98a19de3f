/**
 * The hand-written baseline: a plain SDK v2 server as the SDK examples write
 * one (McpServer + fromJsonSchema, schemas hoisted to module scope so they
 * compile once per process), serving the same catalog with the same handlers
 * as the generated server in the benchmark. `node server.mjs <catalog.json>`
 * serves stdio; `--http <port>` serves Streamable HTTP on 127.0.0.1.
 */
import { createServer as createHttpServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  McpServer, ResourceTemplate, WebStandardStreamableHTTPServerTransport, createMcpHandler, fromJsonSchema, isLegacyRequest,
  hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, originValidationResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** What every handler returns (the generated server's handlers return the same). */
export const ITEM = { id: 'I-1', name: 'Sample', status: 'active', price: { amountMinor: 1500, currency: 'EUR' } };

const objectOf = (props, required) => ({ type: 'object', properties: props, required, additionalProperties: false });

/** Everything schema-related, built once per process (SDK-V2 §6: never inside the factory). */
export function prepare(catalog) {
  return {
    tools: catalog.tools.map((t) => ({ ...t, inputSchema: fromJsonSchema(t.input), outputSchema: fromJsonSchema(t.output) })),
    resources: catalog.resources.map((r) => ({ ...r, paramsSchema: r.params ? fromJsonSchema(objectOf(r.params, Object.keys(r.params))) : undefined })),
    prompts: catalog.prompts.map((p) => ({
      ...p,
      argsSchema: fromJsonSchema(objectOf(Object.fromEntries(Object.entries(p.arguments).map(([k, a]) => [k, a.schema])), Object.entries(p.arguments).filter(([, a]) => a.required).map(([k]) => k))),
    })),
  };
}

/** The server factory: registers only. */
export function buildServer(prepared) {
  const server = new McpServer({ name: 'handwritten', version: '1.0.0' });
  for (const t of prepared.tools) {
    server.registerTool(t.name, {
      title: t.title, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema,
      annotations: { readOnlyHint: t.sideEffect === 'read', destructiveHint: t.sideEffect === 'irreversible' },
    }, async () => ({ content: [{ type: 'text', text: JSON.stringify(ITEM) }], structuredContent: ITEM }));
  }
  for (const r of prepared.resources) {
    const config = { title: r.title, description: r.description, mimeType: r.mimeType };
    if (r.uri) server.registerResource(r.name, r.uri, config, async (uri) => ({ contents: [{ uri: uri.href, mimeType: r.mimeType, text: '# Guide' }] }));
    else {
      server.registerResource(r.name, new ResourceTemplate(r.uriTemplate, { list: r.list ? async () => ({ resources: [] }) : undefined }), config, async (uri, vars) => {
        const v = r.paramsSchema['~standard'].validate(vars);
        if (v.issues) throw new Error('invalid parameters');
        return { contents: [{ uri: uri.href, mimeType: r.mimeType, text: JSON.stringify(ITEM) }] };
      });
    }
  }
  for (const p of prepared.prompts) {
    server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.argsSchema },
      async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review item ${args.itemId}.` } }] }));
  }
  return server;
}

/**
 * 2025-11-25 clients as the SDK's sessionful example serves them: `initialize` opens a session with its
 * own server instance and transport; later requests name it in `Mcp-Session-Id`.
 */
function legacySessions(factory) {
  const sessions = new Map();
  return async (request, parsedBody) => {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const transport = sessions.get(id);
      return transport ? transport.handleRequest(request, { parsedBody }) : new Response('unknown session', { status: 404 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await factory().connect(transport);
    return transport.handleRequest(request, { parsedBody });
  };
}

/**
 * Streamable HTTP on 127.0.0.1 with Host and Origin checks (the SDK's node:http adapter pattern), each era
 * served the way the SDK's examples serve it: 2026-07-28 by `createMcpHandler` (the factory builds an
 * instance per request), 2025-11-25 by sessions routed with `isLegacyRequest`.
 */
export async function serveHttp(factory, port) {
  const modern = createMcpHandler(factory, { legacy: 'reject' });
  const legacy = legacySessions(factory);
  const hosts = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  const server = createHttpServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const chunks = [];
    if (req.method === 'POST') for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    let parsedBody;
    try { parsedBody = body.length ? JSON.parse(body.toString('utf8')) : undefined; } catch { parsedBody = undefined; }
    const request = new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method, headers, ...(req.method === 'POST' ? { body } : {}) });
    const rejected = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins);
    const response = rejected ?? ((await isLegacyRequest(request, parsedBody)) ? await legacy(request, parsedBody) : await modern.fetch(request, { parsedBody }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const prepared = prepare(JSON.parse(readFileSync(process.argv[2], 'utf8')));
  const factory = () => buildServer(prepared);
  const http = process.argv.indexOf('--http');
  if (http > 0) {
    await serveHttp(factory, Number(process.argv[http + 1]));
    process.stderr.write('listening\n');
  } else serveStdio(factory);
}
