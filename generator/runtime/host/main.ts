/**
 * `runMain()`: the command line of every generated server. stdio by default;
 * `--http` serves Streamable HTTP. Usage and diagnostics go to stderr, since
 * stdout carries the protocol.
 */
import type { McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import type { TextSink } from '../errors.js';
import type { SharedStore } from '../store/types.js';
import { startHttpServer, type HttpAuthOptions } from './http.js';
import { tuneYoungCollections } from './youngGc.js';
import { startStdioServer } from './stdio.js';
import { openLaunchStore } from './launchStore.js';
import { sharingFactory, type Sharing } from '../shared.js';
import { disableEntries, resolvePrimitive, type PrimitiveSwitches } from '../toggle.js';

/** Identity of the server, shown in `--help`. */
export interface MainInfo {
  readonly name: string;
  readonly version: string;
}

/** Parsed command line of a generated server. */
export type MainArgs =
  | { readonly mode: 'help' }
  | { readonly mode: 'stdio'; readonly redis?: string; readonly disable?: readonly string[] }
  | {
      readonly mode: 'http';
      readonly disable?: readonly string[];
      readonly port: number;
      readonly host: string;
      readonly allowedHosts: readonly string[];
      readonly redis?: string;
      readonly drainTimeoutMs?: number;
    }
  | { readonly mode: 'error'; readonly message: string };

/** Text printed by `--help`. */
export function usage(info: MainInfo): string {
  return [
    `${info.name} ${info.version}: a Model Context Protocol server`,
    '',
    'Usage:',
    `  ${info.name}                      serve over stdio (default)`,
    `  ${info.name} --http [options]     serve Streamable HTTP on /mcp`,
    '',
    'Options:',
    '  --port N             HTTP port (default 3000; 0 picks a free port)',
    '  --host H             interface to bind (default 127.0.0.1)',
    '  --allowed-host NAME  also accept this Host/Origin name (repeatable)',
    '  --redis URL          share idempotency, approvals and change events with other replicas',
    '                       through Redis (default: MCP_REDIS_URL; needs the ioredis package)',
    '  --drain-timeout MS   on SIGTERM, how long calls in flight may finish (default 10000)',
    '  --disable ENTRY      start with a primitive switched off: tool:NAME, resource:NAME, prompt:NAME,',
    '                       or a NAME only one primitive has (repeatable; also MCP_DISABLE, comma-separated)',
    '  --help               show this help',
    '',
    'With --http, V8 allocation-site pretenuring is turned off once the server is built (young',
    'collections stay short under load); MCP_V8_PRETENURING=on keeps V8\'s default.',
    '',
  ].join('\n');
}

/** Parses `argv` (without node and script). Pure, so it is testable. */
export function parseMainArgs(argv: readonly string[]): MainArgs {
  let http = false;
  let port = 3000;
  let host = '127.0.0.1';
  const allowedHosts: string[] = [];
  let redis: string | undefined;
  let drainTimeoutMs: number | undefined;
  const disable: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string | undefined => argv[++i];
    if (arg === '--help' || arg === '-h') return { mode: 'help' };
    else if (arg === '--http') http = true;
    else if (arg === '--stdio') http = false;
    else if (arg === '--port') {
      const raw = value();
      const n = Number(raw);
      if (raw === undefined || !Number.isInteger(n) || n < 0 || n > 65535) return { mode: 'error', message: `--port needs a number from 0 to 65535, got ${raw ?? 'nothing'}` };
      port = n;
    } else if (arg === '--host') {
      const raw = value();
      if (!raw) return { mode: 'error', message: '--host needs a value' };
      host = raw;
    } else if (arg === '--allowed-host') {
      const raw = value();
      if (!raw) return { mode: 'error', message: '--allowed-host needs a value' };
      allowedHosts.push(raw);
    } else if (arg === '--redis') {
      const raw = value();
      if (!raw || !/^rediss?:\/\//.test(raw)) return { mode: 'error', message: `--redis needs a redis:// or rediss:// URL, got ${raw ?? 'nothing'}` };
      redis = raw;
    } else if (arg === '--drain-timeout') {
      const raw = value();
      const n = Number(raw);
      if (raw === undefined || !Number.isInteger(n) || n < 0) return { mode: 'error', message: `--drain-timeout needs milliseconds (a whole number from 0), got ${raw ?? 'nothing'}` };
      drainTimeoutMs = n;
    } else if (arg === '--disable') {
      const raw = value();
      if (!raw) return { mode: 'error', message: '--disable needs an entry: tool:NAME, resource:NAME, prompt:NAME, or a NAME only one primitive has' };
      disable.push(raw);
    } else return { mode: 'error', message: `unknown option ${arg}` };
  }
  const shared = redis === undefined ? {} : { redis };
  const drain = drainTimeoutMs === undefined ? {} : { drainTimeoutMs };
  const off = disable.length === 0 ? {} : { disable };
  return http ? { mode: 'http', port, host, allowedHosts, ...off, ...shared, ...drain } : { mode: 'stdio', ...off, ...shared };
}

/** Options of {@link runMain}, for an author's own entry point. */
export interface RunMainOptions {
  /** Command line without node and script. Default `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Default `process.stderr`. */
  readonly stderr?: TextSink;
  /** Bearer-token verification for `--http` (see docs/security.md). */
  readonly auth?: HttpAuthOptions;
  /** The environment the launch identity, `MCP_REDIS_URL`, `MCP_DISABLE` and `MCP_V8_PRETENURING` are read from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The one start-up line that says who the unauthenticated caller is. */
function identityNotice(env: Readonly<Record<string, string | undefined>>, http: boolean): string {
  const who = `principal '${env['MCP_PRINCIPAL'] || 'local'}'${env['MCP_TENANT'] ? `, tenant '${env['MCP_TENANT']}'` : ''}`;
  const scopes = env['MCP_SCOPES'] === undefined ? 'every scope the manifest declares (set MCP_SCOPES to restrict)' : `scopes [${env['MCP_SCOPES']}]`;
  return `[mcp-gen] ${http ? 'unauthenticated HTTP' : 'stdio'} caller: ${who} with ${scopes}\n`;
}

/** What the launch configured for every server instance: pass it on to `createServer` options. */
export interface LaunchServices {
  /** The shared store (`--redis` / `MCP_REDIS_URL`); absent for one process (the in-memory default). */
  readonly store?: SharedStore;
}

/** Builds a server for one connection or request, given the SDK's context and the launch's services. */
export type MainFactory = (context: McpRequestContext, services: LaunchServices) => McpServer | Promise<McpServer>;

/**
 * Entry point of a generated `main.ts`:
 * `runMain((ctx, services) => createServer(handlers, { ...launchOptions(), ...services, era: ctx.era }), info)`.
 * Sets `process.exitCode` 2 on a usage error, 1 when the store cannot be reached; on SIGINT/SIGTERM
 * drains calls in flight, then closes the store (releasing the claims it still holds) and exits.
 */
export async function runMain(factory: MainFactory, info: MainInfo, options: RunMainOptions = {}): Promise<MainHandle | undefined> {
  const argv = options.argv ?? process.argv.slice(2);
  const stderr = options.stderr ?? process.stderr;
  const args = parseMainArgs(argv);
  if (args.mode === 'help') {
    stderr.write(usage(info));
    return undefined;
  }
  if (args.mode === 'error') {
    stderr.write(`${info.name}: ${args.message}\n\n${usage(info)}`);
    process.exitCode = 2;
    return undefined;
  }
  const env = options.env ?? process.env;
  const disable = [...disableEntries(env['MCP_DISABLE']), ...(args.disable ?? [])];
  if (!(args.mode === 'http' && options.auth)) stderr.write(identityNotice(env, args.mode === 'http'));
  let handle;
  let store: SharedStore | undefined;
  try {
    store = await openLaunchStore(args.redis ?? env['MCP_REDIS_URL'], info.name, stderr);
    const services: LaunchServices = store ? { store } : {};
    const sharing = sharingFactory((context: McpRequestContext): McpServer | Promise<McpServer> => factory(context, services));
    const refused = await disableRefusal(sharing, disable);
    if (refused !== undefined) {
      stderr.write(`${info.name}: ${refused}\n`);
      await store?.close().catch(() => undefined);
      process.exitCode = 2;
      return undefined;
    }
    const serverFactory = sharing.factory;
    const tenant = env['MCP_TENANT'] || undefined;
    handle =
      args.mode === 'http'
        ? await startHttpServer(serverFactory, {
            port: args.port,
            host: args.host,
            allowedHosts: args.allowedHosts,
            stderr,
            ...(options.auth ? { auth: options.auth } : {}),
            ...(store ? { store } : {}),
            ...(tenant ? { tenant } : {}),
            ...(args.drainTimeoutMs === undefined ? {} : { drainTimeoutMs: args.drainTimeoutMs }),
            disable,
          })
        : startStdioServer(serverFactory, { disable });
  } catch (error) {
    stderr.write(`${info.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    await store?.close().catch(() => undefined);
    process.exitCode = 1;
    return undefined;
  }
  // The registry is built: from here on a young collection keeps only what is live (see youngGc.ts).
  if (args.mode === 'http') tuneYoungCollections(env);
  if (disable.length > 0) stderr.write(`[mcp-gen] switched off: ${handle.disabled().join(', ')}\n`);
  const running = handle;
  const stop = (): void => {
    void running
      .close()
      .then(() => store?.close())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return handle;
}

/** What `runMain` started: closing it, and switching primitives off and on while it serves. */
export type MainHandle = PrimitiveSwitches & { close(): Promise<void> };

/** Why the `--disable` / `MCP_DISABLE` entries cannot be applied (an unknown or ambiguous entry), or undefined. */
async function disableRefusal(sharing: Sharing, entries: readonly string[]): Promise<string | undefined> {
  if (entries.length === 0) return undefined;
  const registry = await sharing.ready();
  if (!registry) return '--disable / MCP_DISABLE need a server built by a generated createServer';
  for (const entry of entries) {
    try {
      resolvePrimitive(registry.rt.catalog, entry);
    } catch (error) {
      return `--disable / MCP_DISABLE: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return undefined;
}
