/** The `verify` command: a manifest's contract checked against a running server; exit 1 when it is broken. */
import type { Command } from 'commander';
import type { Era, ServerTarget } from '../remote/connect.js';
import { targetOf } from './import.js';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface VerifyFlags {
  url?: string;
  header?: string[];
  unscopedHeader?: string[];
  unscopedEnv?: string[];
  allowWrites?: boolean;
  protocol: string;
  json?: boolean;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** The human report: one line per check, the differences under a failed one, notes, and the verdict. */
function printReport(io: Io, manifest: string, report: import('../verify/index.js').VerifyReport): void {
  for (const c of report.checks) {
    io.out(`${c.skipped ? '-' : c.ok ? '✓' : '✗'} ${c.name}${c.skipped ? ` (skipped: ${c.details[0]})` : ''}`);
    if (!c.ok) for (const d of c.details) io.out(`    ${d}`);
    for (const n of c.notes ?? []) io.out(`    note: ${n}`);
  }
  const failed = report.checks.filter((c) => !c.ok).length;
  const skipped = report.checks.filter((c) => c.skipped).length;
  const counts = `${report.checks.length} checks${skipped ? `, ${skipped} skipped` : ''}`;
  io.out(failed === 0 ? `${manifest}: the server keeps the contract (${counts}).` : `${manifest}: the contract is broken: ${failed} of ${counts} failed.`);
}

/** Why the scope refusals cannot be checked without a second caller, said in the skipped check. */
const NO_SECOND_CALLER = {
  http: 'pass --unscoped-header with the credential of a caller holding none of the manifest\'s scopes',
  stdio: 'a stdio server has one caller, the identity it was launched with, which nothing on the wire can change: pass --unscoped-env with the environment that launches it without scopes (a generated server: --unscoped-env MCP_SCOPES=)',
} as const;

/** `NAME=VALUE` words as an environment. */
async function parseEnv(words: readonly string[]): Promise<Record<string, string>> {
  const { UserError } = await import('../diagnostics.js');
  const env: Record<string, string> = {};
  for (const w of words) {
    const i = w.indexOf('=');
    if (i <= 0) throw new UserError(`--unscoped-env ${JSON.stringify(w)}: write it as NAME=VALUE (an empty value is allowed: MCP_SCOPES=)`);
    env[w.slice(0, i)] = w.slice(i + 1);
  }
  return env;
}

/** The server's connection, the second caller's (a second credential, or a second process), and the options they give. */
async function connectAll(target: ServerTarget, o: VerifyFlags) {
  const { connectTo, parseHeaders } = await import('../remote/connect.js');
  const era = o.protocol as Era;
  const second: ServerTarget | undefined =
    target.kind === 'http' && o.unscopedHeader ? { kind: 'http', url: target.url, headers: parseHeaders(o.unscopedHeader) }
    : target.kind === 'stdio' && o.unscopedEnv ? { ...target, env: { ...target.env, ...(await parseEnv(o.unscopedEnv)) } }
    : undefined;
  const client = await connectTo(target, era);
  const unscoped = second ? await connectTo(second, era).catch(async (e: unknown) => (await client.close(), Promise.reject(e))) : undefined;
  const bearer = target.kind === 'http' && Object.keys(target.headers).some((h) => h.toLowerCase() === 'authorization');
  const options = {
    ...(unscoped ? { unscoped } : { noUnscoped: NO_SECOND_CALLER[target.kind] }),
    ...(bearer && target.kind === 'http' ? { challengeUrl: target.url } : {}),
    ...(o.allowWrites ? { allowWrites: true } : {}),
  };
  return { client, unscoped, options };
}

/** Registers `mcp-gen verify [manifest] -- <command>` / `--url`. */
export function registerVerify(program: Command, io: Io): void {
  program
    .command('verify')
    .description("check a running server (generated or not) against a manifest's contract: listing field by field, input validation, error semantics, templates, prompts, gates")
    .argument('[manifest]', 'the manifest', 'mcp.manifest.yaml')
    .argument('[command...]', 'after --: the command that starts the server over stdio')
    .option('--url <url>', 'a Streamable HTTP endpoint instead of a command')
    .option('--header <header>', "an HTTP header for --url, 'Name: value' (repeatable); with Authorization, a request without it must get a 401 Bearer challenge", collect)
    .option('--unscoped-header <header>', "with --url: the header(s) of a second caller holding none of the manifest's scopes, which every scoped primitive must refuse (repeatable)", collect)
    .option('--unscoped-env <NAME=VALUE>', "with a command: start a second instance of it with these environment variables as a caller holding none of the manifest's scopes (generated servers: MCP_SCOPES=), which every scoped primitive must refuse (repeatable)", collect)
    .option('--allow-writes', 'the server is a test instance: also check the idempotency and approval gates, with calls a broken server would execute')
    .option('--protocol <version>', 'the protocol revision to speak: 2025-11-25 or 2026-07-28', '2025-11-25')
    .option('--json', 'print the report as JSON')
    .action(async (manifest: string, command: string[], o: VerifyFlags) => {
      const { UserError } = await import('../diagnostics.js');
      if (o.protocol !== '2025-11-25' && o.protocol !== '2026-07-28') throw new UserError(`--protocol ${o.protocol}: use 2025-11-25 or 2026-07-28`);
      const target = await targetOf(command, o);
      if (o.unscopedHeader && target.kind !== 'http') throw new UserError('--unscoped-header needs --url: over stdio, give the second caller with --unscoped-env');
      if (o.unscopedEnv && target.kind !== 'stdio') throw new UserError('--unscoped-env needs a command after --: over HTTP, give the second caller with --unscoped-header');
      const { analyseManifest } = await import('../pipeline.js');
      const analysis = await analyseManifest(manifest);
      if (!analysis.contract) throw new UserError(`${manifest}: the manifest has errors; run \`mcp-gen lint ${manifest}\``, analysis.diagnostics);
      const { verifyServer } = await import('../verify/index.js');
      const { client, unscoped, options } = await connectAll(target, o);
      const report = await verifyServer(client, analysis.contract, options).finally(() => Promise.all([client.close(), unscoped?.close()]));
      if (o.json) io.out(JSON.stringify(report, null, 2));
      else printReport(io, manifest, report);
      process.exitCode = report.ok ? 0 : 1;
    });
}
