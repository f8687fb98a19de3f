/**
 * `runMain()`: the command line of every generated server. stdio by default;
 * `--http` serves Streamable HTTP. Usage and diagnostics go to stderr, since
 * stdout carries the protocol.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { TextSink } from '../errors.js';
import { startHttpServer, type HttpAuthOptions } from './http.js';
import { startStdioServer } from './stdio.js';

/** Identity of the server, shown in `--help`. */
export interface MainInfo {
  readonly name: string;
  readonly version: string;
}

/** Parsed command line of a generated server. */
export type MainArgs =
  | { readonly mode: 'help' }
  | { readonly mode: 'stdio' }
  | { readonly mode: 'http'; readonly port: number; readonly host: string; readonly allowedHosts: readonly string[] }
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
    '  --help               show this help',
    '',
  ].join('\n');
}

/** Parses `argv` (without node and script). Pure, so it is testable. */
export function parseMainArgs(argv: readonly string[]): MainArgs {
  let http = false;
  let port = 3000;
  let host = '127.0.0.1';
  const allowedHosts: string[] = [];
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
    } else return { mode: 'error', message: `unknown option ${arg}` };
  }
  return http ? { mode: 'http', port, host, allowedHosts } : { mode: 'stdio' };
}

/** Options of {@link runMain}, for an author's own entry point. */
export interface RunMainOptions {
  /** Command line without node and script. Default `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Default `process.stderr`. */
  readonly stderr?: TextSink;
  /** Bearer-token verification for `--http` (see docs/security.md). */
  readonly auth?: HttpAuthOptions;
  /** The environment the launch identity is read from (for the start-up notice). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The one start-up line that says who the unauthenticated caller is. */
function identityNotice(env: Readonly<Record<string, string | undefined>>, http: boolean): string {
  const who = `principal '${env['MCP_PRINCIPAL'] || 'local'}'${env['MCP_TENANT'] ? `, tenant '${env['MCP_TENANT']}'` : ''}`;
  const scopes = env['MCP_SCOPES'] === undefined ? 'every scope the manifest declares (set MCP_SCOPES to restrict)' : `scopes [${env['MCP_SCOPES']}]`;
  return `[mcp-gen] ${http ? 'unauthenticated HTTP' : 'stdio'} caller: ${who} with ${scopes}\n`;
}

/**
 * Entry point of a generated `main.ts`:
 * `runMain((ctx) => createServer(handlers, { ...launchOptions(), era: ctx.era }), info)`.
 * Sets `process.exitCode` 2 on a usage error; closes cleanly on SIGINT/SIGTERM.
 */
export async function runMain(factory: McpServerFactory, info: MainInfo, options: RunMainOptions = {}): Promise<void> {
  const argv = options.argv ?? process.argv.slice(2);
  const stderr = options.stderr ?? process.stderr;
  const args = parseMainArgs(argv);
  if (args.mode === 'help') {
    stderr.write(usage(info));
    return;
  }
  if (args.mode === 'error') {
    stderr.write(`${info.name}: ${args.message}\n\n${usage(info)}`);
    process.exitCode = 2;
    return;
  }
  if (!(args.mode === 'http' && options.auth)) stderr.write(identityNotice(options.env ?? process.env, args.mode === 'http'));
  let handle;
  try {
    handle =
      args.mode === 'http'
        ? await startHttpServer(factory, { port: args.port, host: args.host, allowedHosts: args.allowedHosts, stderr, ...(options.auth ? { auth: options.auth } : {}) })
        : startStdioServer(factory);
  } catch (error) {
    stderr.write(`${info.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  const stop = (): void => {
    void handle.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
