/**
 * `mcp-gen call`: one `tools/call`, `resources/read` or `prompts/get` against the generated server (started
 * with the same absolute launch command clients are given) or a running one (`--url`), from any folder.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../diagnostics.js';
import type { Ir } from '../ir/types.js';
import { promptArguments, toolArguments } from './call-args.js';
import { formatRegistrations, launchSpec, registrations } from './launch.js';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface CallOptions {
  manifest?: string;
  out?: string;
  url?: string;
  bearer?: string;
  header?: string[];
  protocol?: string;
  verbose?: boolean;
}

/** The protocol versions `--protocol` takes, and how the client negotiates each. */
const PROTOCOLS = {
  '2025-11-25': { mode: 'legacy' },
  '2026-07-28': { mode: { pin: '2026-07-28' } },
  auto: { mode: 'auto' },
} as const;

function negotiation(protocol: string | undefined): (typeof PROTOCOLS)[keyof typeof PROTOCOLS] {
  const key = protocol ?? '2025-11-25';
  if (!Object.hasOwn(PROTOCOLS, key)) throw new UserError(`--protocol ${key} is not one of ${Object.keys(PROTOCOLS).join(', ')}.`);
  return PROTOCOLS[key as keyof typeof PROTOCOLS];
}

/** `--header 'Name: value'` words and `--bearer` as request headers. */
export function requestHeaders(words: readonly string[], bearer: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const word of words) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(word);
    if (m === null) throw new UserError(`--header ${JSON.stringify(word)} is not "Name: value" (for example --header 'X-Api-Key: abc').`);
    headers[m[1]!.toLowerCase()] = m[2]!;
  }
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  return headers;
}

/** The nearest `mcp.manifest.yaml` in this folder or above it. */
function findManifest(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'mcp.manifest.yaml');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new UserError('no mcp.manifest.yaml here or in any folder above: pass --manifest FILE.');
  }
}

/** The default output folder: `generated/<name>` beside the manifest or in the nearest folder above it that has one. */
export function findOutput(from: string, name: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'generated', name);
    if (existsSync(join(candidate, 'main.gen.ts'))) return candidate;
    if (dirname(dir) === dir) throw new UserError(`no generated/${name}/main.gen.ts beside the manifest or above it: run \`mcp-gen generate\`, or pass --out with the folder it wrote.`);
  }
}

/** The IR of a manifest without lint (its rules do not decide whether a server can be called). */
export async function loadIr(manifest: string): Promise<Ir> {
  const { loadManifest } = await import('../pipeline.js');
  const r = await loadManifest(manifest, { lint: false });
  if (r.ir === undefined) throw new UserError(`${manifest} has errors; run \`mcp-gen lint ${manifest}\` to see them.`, r.diagnostics);
  return r.ir;
}

/** The request a target names: a tool, a prompt, a resource by name (its template filled by the words) or a URI. */
async function request(ir: Ir, target: string, words: readonly string[]): Promise<{ method: string; params: Record<string, unknown> }> {
  const tool = ir.tools.find((t) => t.name === target);
  const prompt = ir.prompts.find((p) => p.name === target);
  if (tool && prompt) throw new UserError(`${target} is both a tool and a prompt: write tool:${target} or prompt:${target}.`);
  const [prefix, rest] = /^(tool|prompt|resource):(?!\/\/)(.*)$/.exec(target)?.slice(1) ?? [];
  if (prefix !== undefined) return request({ ...ir, tools: prefix === 'tool' ? ir.tools : [], prompts: prefix === 'prompt' ? ir.prompts : [], resources: prefix === 'resource' ? ir.resources : [] }, rest!, words);
  if (tool) return { method: 'tools/call', params: { name: target, arguments: toolArguments(words, tool.input, ir.schemas) } };
  if (prompt) return { method: 'prompts/get', params: { name: target, arguments: promptArguments(words) } };
  const resource = ir.resources.find((r) => r.name === target);
  if (resource) {
    if (resource.uri !== undefined) return { method: 'resources/read', params: { uri: resource.uri } };
    const { UriTemplate } = await import('@modelcontextprotocol/client');
    return { method: 'resources/read', params: { uri: new UriTemplate(resource.uriTemplate!).expand(promptArguments(words)) } };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return { method: 'resources/read', params: { uri: target } };
  const names = [...ir.tools, ...ir.prompts, ...ir.resources].map((p) => p.name);
  const { closest } = await import('../manifest/suggest.js');
  const near = closest(target, names);
  throw new UserError(`${target} is no tool, prompt, resource or URI of ${ir.server.name}${near ? `: did you mean ${near}?` : ''} (it has ${names.join(', ')}).`);
}

/** Strings of the environment, passed whole so `MCP_PRINCIPAL`, `MCP_SCOPES` and the like reach the server. */
function environment(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

async function connect(ir: Ir, manifest: string, opts: CallOptions, io: Io) {
  const { Client } = await import('@modelcontextprotocol/client');
  const versionNegotiation = negotiation(opts.protocol);
  const client = new Client({ name: 'mcp-gen-call', version: '1' }, { capabilities: {}, versionNegotiation });
  if (opts.url === undefined && (opts.bearer !== undefined || (opts.header ?? []).length > 0)) {
    throw new UserError('--bearer and --header are sent over HTTP: use them with --url (a server started by call runs over stdio as the launch identity, MCP_PRINCIPAL and MCP_SCOPES).');
  }
  if (opts.url !== undefined) {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const headers = requestHeaders(opts.header ?? [], opts.bearer);
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      throw new UserError(`--url ${opts.url} is not a URL (for example http://127.0.0.1:3000/mcp).`);
    }
    try {
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    } catch (e) {
      const message = (e as Error).message;
      const hint = /invalid_token|401|Unauthorized/i.test(message) ? ': the server wants a token, pass --bearer TOKEN (or --header \'Authorization: …\')' : '';
      throw new UserError(`could not connect to ${opts.url}: ${message}${hint}`);
    }
    return { client, stderr: () => '' };
  }
  const outDir = opts.out !== undefined ? resolve(opts.out) : findOutput(dirname(manifest), ir.server.name);
  const spec = launchSpec(outDir);
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  // A subclass probes a 2026 server in place rather than in a second process (see the SDK's stdio transport).
  const Transport = class extends StdioClientTransport {};
  const transport = new Transport({ command: spec.command, args: [...spec.args], env: environment(), stderr: 'pipe' });
  let captured = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (opts.verbose) io.err(chunk.toString('utf8').trimEnd());
    else captured += chunk.toString('utf8');
  });
  await client.connect(transport);
  return { client, stderr: () => captured };
}

/** Runs one call and prints its result as JSON; exit 1 when the result is an error. */
export async function runCall(target: string, words: readonly string[], opts: CallOptions, io: Io): Promise<number> {
  const manifest = resolve(opts.manifest ?? findManifest(process.cwd()));
  const ir = await loadIr(manifest);
  const req = await request(ir, target, words);
  const { client, stderr } = await connect(ir, manifest, opts, io);
  try {
    const result = req.method === 'tools/call'
      ? await client.callTool(req.params as never)
      : req.method === 'prompts/get' ? await client.getPrompt(req.params as never) : await client.readResource(req.params as never);
    io.out(JSON.stringify(result, null, 2));
    return (result as { isError?: boolean }).isError === true ? 1 : 0;
  } catch (e) {
    const log = stderr().trim();
    if (log) io.err(log);
    throw new UserError(`${req.method} ${target} failed: ${(e as Error).message}`);
  } finally {
    await client.close();
  }
}

/** The registration text `generate` prints for a new server; launch problems are named instead. */
export function registrationText(name: string, outDir: string): string {
  try {
    return formatRegistrations(registrations(name, launchSpec(outDir)));
  } catch (e) {
    return `To register it in an MCP client: ${(e as Error).message}`;
  }
}

/** Registers `mcp-gen call <target> [key=value...]`. */
export function registerCall(program: Command, io: Io): void {
  program
    .command('call')
    .description('start the generated server (or connect to --url) and run one tools/call, prompts/get or resources/read; prints the result as JSON')
    .argument('<target>', 'a tool or prompt name, a resource name or URI (tool:NAME / prompt:NAME when a name is both)')
    .argument('[arguments...]', 'key=value, typed by the input schema (a string stays a string); key:=JSON for a JSON value')
    .option('-m, --manifest <file>', 'the manifest (default: the nearest mcp.manifest.yaml here or above)')
    .option('--out <dir>', 'the generated server\'s folder (default: generated/<server.name> beside the manifest or above it)')
    .option('--url <url>', 'call a running server over Streamable HTTP instead of starting one')
    .option('--bearer <token>', 'with --url: send Authorization: Bearer <token>')
    .option('-H, --header <header>', "with --url: send a request header, 'Name: value' (repeatable)", (v: string, all: string[] = []) => [...all, v])
    .option('--protocol <version>', 'the protocol version to speak: 2025-11-25 (default), 2026-07-28, or auto (the newest the server offers)')
    .option('--verbose', 'show the server\'s stderr (start-up notes, audit events)')
    .action(async (target: string, words: string[], opts: CallOptions) => {
      process.exitCode = await runCall(target, words, opts, io);
    });
}
