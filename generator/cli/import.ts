/** The `import openapi` command: an OpenAPI document → a manifest draft, its summary and lint on it. */
import type { Command } from 'commander';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface ImportFlags {
  out: string;
  config?: string;
  force?: boolean;
  json?: boolean;
}

/** Imports, writes the draft, lints it and prints the summary; exit 0 even with lint findings (they are the to-do list). */
export async function runImportOpenApi(file: string, flags: ImportFlags, io: Io): Promise<number> {
  const { importOpenApi, summarize, summaryLines, waiversFor } = await import('../import/openapi/index.js');
  const draftFiles = await import('../write/draft.js');
  const { loadManifest } = await import('../pipeline.js');
  const out = resolve(flags.out);
  draftFiles.assertWritable(out, flags.force === true);
  const schema = fileURLToPath(new URL('../../schema/manifest.schema.json', import.meta.url));
  const options = { ...(flags.config ? { configFile: flags.config } : {}), schemaRef: relative(dirname(out), schema).split('\\').join('/') };
  let r = await importOpenApi(file, options);
  let staged = await draftFiles.stageDraft(out, r.yaml);
  let diagnostics;
  try {
    let lint = await loadManifest(staged);
    // Design-rule errors would block the first generate: they become waivers the author reviews.
    const waivers = waiversFor(lint.diagnostics, r.draft.primitives);
    if (waivers.size > 0) {
      r = await importOpenApi(file, { ...options, waivers });
      staged = await draftFiles.stageDraft(out, r.yaml);
      lint = await loadManifest(staged);
    }
    await draftFiles.commitDraft(staged, out, flags.force === true);
    diagnostics = lint.diagnostics;
  } catch (e) {
    await draftFiles.discardDraft(staged);
    throw e;
  }
  const summary = summarize(r.draft.operations, diagnostics, r.draft.waivers);
  if (flags.json) {
    io.out(JSON.stringify({ manifest: relative(process.cwd(), out), sourceVersion: r.sourceVersion, ...summary }, null, 2));
    return 0;
  }
  io.out(`${file} (${r.sourceVersion === '2.0' ? 'Swagger 2.0' : `OpenAPI ${r.sourceVersion}`}) → ${relative(process.cwd(), out)}`);
  for (const line of summaryLines(summary)) io.out(line);
  io.out(`Next: review the comments in ${relative(process.cwd(), out)}, then \`mcp-gen generate ${relative(process.cwd(), out)}\`; handlers already call the API (set the variables under upstream:).`);
  return 0;
}

/** The server a command names: `--url` (with `--header`s) or the command after `--`. */
export async function targetOf(command: readonly string[], o: { url?: string; header?: string[] }): Promise<import('../remote/connect.js').ServerTarget> {
  const { UserError } = await import('../diagnostics.js');
  const { parseHeaders } = await import('../remote/connect.js');
  if (o.url !== undefined && command.length > 0) throw new UserError('give either --url or a command after --, not both');
  if (o.url !== undefined) {
    try {
      return { kind: 'http', url: new URL(o.url).toString(), headers: parseHeaders(o.header ?? []) };
    } catch (e) {
      throw new UserError(e instanceof TypeError ? `--url ${o.url} is not a URL` : (e as Error).message);
    }
  }
  if (command.length === 0) throw new UserError('name the server: `-- <command> [args]` (stdio) or `--url <url>` (Streamable HTTP)');
  return { kind: 'stdio', command: command[0]!, args: command.slice(1) };
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Registers `mcp-gen import openapi <file>` and `mcp-gen import server`. */
export function registerImport(program: Command, io: Io): void {
  const cmd = program.command('import').description('start a manifest from something that exists');
  cmd
    .command('openapi')
    .description('draft a curated manifest from an OpenAPI 3.0/3.1 or Swagger 2.0 document (YAML or JSON); handlers call the API')
    .argument('<file>', 'the OpenAPI document (local and relative-file $refs only; never fetched)')
    .option('--out <file>', 'where to write the manifest', 'mcp.manifest.yaml')
    .option('--config <file>', 'import config: overrides by path pattern, method, tag or operationId (docs/import-openapi.md)')
    .option('--force', 'replace an existing manifest at --out')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, o: ImportFlags) => {
      process.exitCode = await runImportOpenApi(file, o, io);
    });
  cmd
    .command('server')
    .description('write the manifest of a running MCP server (every listing, every page), so it can be verified, regenerated and kept exactly')
    .argument('[command...]', 'after --: the command that starts the server over stdio')
    .option('--url <url>', 'a Streamable HTTP endpoint instead of a command')
    .option('--header <header>', "an HTTP header for --url, 'Name: value' (repeatable; e.g. 'Authorization: Bearer …')", collect)
    .option('--protocol <version>', 'the protocol revision to speak: 2025-11-25 (initialize) or 2026-07-28 (server/discover)', '2025-11-25')
    .option('--out <file>', 'where to write the manifest (large schemas go to schemas/ next to it)', 'mcp.manifest.yaml')
    .option('--force', 'replace existing files that differ')
    .option('--json', 'print the summary as JSON')
    .action(async (command: string[], o: { url?: string; header?: string[]; protocol: string; out: string; force?: boolean; json?: boolean }) => {
      const { UserError } = await import('../diagnostics.js');
      if (o.protocol !== '2025-11-25' && o.protocol !== '2026-07-28') throw new UserError(`--protocol ${o.protocol}: use 2025-11-25 or 2026-07-28`);
      const { runImportServer } = await import('./import-server.js');
      process.exitCode = await runImportServer(await targetOf(command, o), { ...o, protocol: o.protocol }, io);
    });
}
