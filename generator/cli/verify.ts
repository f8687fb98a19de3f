/** The `verify` command: a manifest's contract checked against a running server; exit 1 when it is broken. */
import type { Command } from 'commander';
import { targetOf } from './import.js';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface VerifyFlags {
  url?: string;
  header?: string[];
  protocol: string;
  json?: boolean;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Registers `mcp-gen verify [manifest] -- <command>` / `--url`. */
export function registerVerify(program: Command, io: Io): void {
  program
    .command('verify')
    .description("check a running server (generated or not) against a manifest's contract: listing field by field, input validation, error semantics, prompts")
    .argument('[manifest]', 'the manifest', 'mcp.manifest.yaml')
    .argument('[command...]', 'after --: the command that starts the server over stdio')
    .option('--url <url>', 'a Streamable HTTP endpoint instead of a command')
    .option('--header <header>', "an HTTP header for --url, 'Name: value' (repeatable)", collect)
    .option('--protocol <version>', 'the protocol revision to speak: 2025-11-25 or 2026-07-28', '2025-11-25')
    .option('--json', 'print the report as JSON')
    .action(async (manifest: string, command: string[], o: VerifyFlags) => {
      const { UserError } = await import('../diagnostics.js');
      if (o.protocol !== '2025-11-25' && o.protocol !== '2026-07-28') throw new UserError(`--protocol ${o.protocol}: use 2025-11-25 or 2026-07-28`);
      const target = await targetOf(command, o);
      const { analyseManifest } = await import('../pipeline.js');
      const analysis = await analyseManifest(manifest);
      if (!analysis.contract) throw new UserError(`${manifest}: the manifest has errors; run \`mcp-gen lint ${manifest}\``, analysis.diagnostics);
      const { connectTo } = await import('../remote/connect.js');
      const { verifyServer } = await import('../verify/index.js');
      const client = await connectTo(target, o.protocol);
      const report = await verifyServer(client, analysis.contract).finally(() => client.close());
      if (o.json) io.out(JSON.stringify(report, null, 2));
      else {
        for (const c of report.checks) {
          io.out(`${c.skipped ? '-' : c.ok ? '✓' : '✗'} ${c.name}${c.skipped ? ` (skipped: ${c.details[0]})` : ''}`);
          if (!c.ok) for (const d of c.details) io.out(`    ${d}`);
          for (const n of c.notes ?? []) io.out(`    note: ${n}`);
        }
        const failed = report.checks.filter((c) => !c.ok).length;
        io.out(failed === 0 ? `${manifest}: the server keeps the contract (${report.checks.length} checks).` : `${manifest}: the contract is broken: ${failed} of ${report.checks.length} checks failed.`);
      }
      process.exitCode = report.ok ? 0 : 1;
    });
}
