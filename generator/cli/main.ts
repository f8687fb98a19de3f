/**
 * The command line. The only module that prints, colours and exits; every
 * command is a thin layer over the pipeline.
 */
import { Command, CommanderError } from 'commander';
import { relative } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Diagnostic, Findings, UserError, hasErrors, reported } from '../diagnostics.js';
import type { LintReport } from '../lint/index.js';
import { upToDate } from '../write/fastpath.js';
import { ONE_SHOT_HELP, tuneOneShotRun } from './oneShot.js';
import { missingDependencies } from '../write/dependencies.js';
import { HANDLERS_FOLDER } from '../ir/names.js';

// The heavy modules (YAML parser, validators, emitters, TypeScript) load only when a command needs them,
// so a regeneration with nothing to do starts and ends in a few milliseconds.
let pipelineLoaded = false;
const lazy = {
  pipeline: () => {
    pipelineLoaded = true;
    return import('../pipeline.js');
  },
  manifest: () => import('../manifest/index.js'),
  lint: () => import('../lint/index.js'),
  diff: () => import('../diff/index.js'),
  watch: () => import('./watch.js'),
  call: () => import('./call.js'),
};

/** The commands this module defines; any other first argument needs the other commands' modules. */
const OWN_COMMANDS = new Set(['generate', 'check', 'diff', 'lint']);

/**
 * Registers init, import, verify, call, package and evidence. Their modules load only when the command
 * line may name one of them (or asks for the list of commands): a regeneration does not pay for them.
 */
async function registerOthers(p: Command): Promise<void> {
  const [init, imp, verify, call, pkg, evidence] = await Promise.all([
    import('./init.js'), import('./import.js'), import('./verify.js'), lazy.call(), import('./package.js'), import('./evidence.js'),
  ]);
  init.registerInit(p, io);
  imp.registerImport(p, io);
  verify.registerVerify(p, io);
  call.registerCall(p, io);
  pkg.registerPackage(p, io);
  evidence.registerEvidence(p, io);
}

async function formatDiagnostic(d: Diagnostic): Promise<string> {
  return (await lazy.manifest()).formatDiagnostic(d, { color: io.color });
}

const DEFAULT_MANIFEST = 'mcp.manifest.yaml';

interface Io {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

const io: Io = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  color: process.stderr.isTTY === true && process.env['NO_COLOR'] === undefined,
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const rel = (p: string): string => relative(process.cwd(), p) || '.';

/** Warnings are printed on every run; hints only by `mcp-gen lint`, so regeneration stays quiet. */
async function printWarnings(findings: Findings): Promise<void> {
  const hints = findings.hints;
  // One write for all of them: a thousand warnings are a thousand writes to a pipe otherwise.
  const lines: string[] = [];
  for (const d of findings.warnings) lines.push(await formatDiagnostic(d));
  if (hints > 0) lines.push(`${hints} design hint${hints === 1 ? '' : 's'}: run \`mcp-gen lint\` to see ${hints === 1 ? 'it' : 'them'}.`);
  if (lines.length > 0) io.err(lines.join('\n'));
}

/** Names the packages generated code imports that its project does not have yet. */
function warnMissingDependencies(outDir: string): void {
  const missing = missingDependencies(outDir);
  if (missing.dependencies.length > 0) io.err(`warning: the generated code imports ${missing.dependencies.join(', ')}, which this project does not have: npm install ${missing.dependencies.join(' ')}`);
  if (missing.devDependencies.length > 0) io.err(`note: the contract tests and main.gen.ts run with ${missing.devDependencies.join(' and ')}: npm install --save-dev ${missing.devDependencies.join(' ')}`);
}

/**
 * The pipeline, with one type compiler held from the first manifest that needs compiling until `release`:
 * one worker serves every manifest of the command. Manifests that are up to date never start it; with
 * `whenNeeded` (the incremental cache holds the last run's types) it starts on the first type to compile.
 */
function typeCompilerHold(): { hold(whenNeeded?: boolean): Promise<{ pipeline: typeof import('../pipeline.js'); types: import('../pipeline.js').TypeCompiler }>; release(): void } {
  let held: { pipeline: typeof import('../pipeline.js'); types: import('../pipeline.js').TypeCompiler } | undefined;
  return {
    async hold(whenNeeded = false) {
      if (held === undefined) {
        const pipeline = await lazy.pipeline();
        held = { pipeline, types: new pipeline.TypeCompiler() };
        held.types.start({ whenNeeded });
      }
      return held;
    },
    release: () => held?.types.stop(),
  };
}

async function runGenerate(manifests: string[], opts: { out?: string; json?: boolean; force?: boolean; cache?: boolean }): Promise<number> {
  if (opts.out !== undefined && manifests.length > 1) throw new UserError('--out names one folder, so give one manifest with it.');
  const results = [];
  const compiler = typeCompilerHold();
  try {
    for (const manifest of manifests.length ? manifests : [DEFAULT_MANIFEST]) {
      const current = opts.force ? undefined : await upToDate(process.cwd(), manifest, opts.out);
      if (current !== undefined) {
        if (opts.json) continue;
        io.out(`${manifest} → ${rel(current.outDir)}: up to date, nothing written`);
        for (const w of current.warnings) io.out(`  warning: ${rel(current.outDir)}/${w.path}: ${w.message}`);
        continue;
      }
      const pipeline = await lazy.pipeline();
      const cache = opts.cache === false ? undefined : pipeline.openCache(process.cwd(), manifest, opts.out);
      const { types } = await compiler.hold(cache?.hasTypes === true);
      tuneOneShotRun(process.env); // once the run's modules are loaded: see oneShot.ts
      const r = await pipeline.generate(manifest, { ...(opts.out !== undefined ? { outDir: opts.out } : {}), force: opts.force === true, types, ...(cache ? { cache } : {}) });
      results.push(r);
      if (opts.json) continue;
      await printWarnings(r.findings);
      const { created, written, edited, removed, unchanged } = r.report;
      const stubs = created.filter((p) => p.startsWith(HANDLERS_FOLDER));
      if (r.recovered === 'completed') io.out(`Completed an interrupted earlier run in ${rel(r.outDir)}.`);
      io.out(`${manifest} → ${rel(r.outDir)}: ${created.length} created, ${written.length} updated, ${edited.length} handler files edited, ${removed.length} removed, ${unchanged} unchanged`);
      for (const p of stubs) io.out(`  new handler stub: ${rel(r.outDir)}/${p}`);
      for (const p of removed) io.out(`  removed: ${rel(r.outDir)}/${p}`);
      for (const n of r.notes) io.out(`  ${n.level === 'warning' ? 'warning: ' : ''}${rel(r.outDir)}/${n.path}: ${n.message}`);
      if (stubs.length > 0) {
        io.out(`Next: fill in the handlers, then run the server: npx tsx ${rel(r.outDir)}/main.gen.ts (stdio) or add --http.`);
      }
      if (created.includes('main.gen.ts')) io.out((await lazy.call()).registrationText(r.ir.server.name, r.outDir));
      warnMissingDependencies(r.outDir);
    }
  } finally {
    compiler.release();
  }
  if (opts.json) {
    io.out(JSON.stringify(results.map((r) => ({ outDir: r.outDir, ...r.report, notes: r.notes, diagnostics: r.diagnostics.map(reported) })), null, 2));
  }
  return 0;
}

async function runCheck(manifests: string[], opts: { out?: string; json?: boolean }): Promise<number> {
  if (opts.out !== undefined && manifests.length > 1) throw new UserError('--out names one folder, so give one manifest with it.');
  let stale = false;
  const all = [];
  const compiler = typeCompilerHold();
  try {
    for (const manifest of manifests.length ? manifests : [DEFAULT_MANIFEST]) {
      const current = await upToDate(process.cwd(), manifest, opts.out);
      if (current !== undefined) {
        all.push({ manifest, outDir: current.outDir, drift: [], interrupted: false });
        if (opts.json) continue;
        for (const w of current.warnings) io.err(`warning: ${rel(current.outDir)}/${w.path}: ${w.message}`);
        io.out(`${rel(current.outDir)} is up to date with ${manifest}.`);
        continue;
      }
      const { pipeline, types } = await compiler.hold();
      tuneOneShotRun(process.env); // once the run's modules are loaded: see oneShot.ts
      const r = await pipeline.check(manifest, { ...(opts.out !== undefined ? { outDir: opts.out } : {}), types });
      all.push({ manifest, outDir: r.outDir, drift: r.drift, interrupted: r.interrupted });
      if (r.drift.length > 0 || r.interrupted) stale = true;
      if (!opts.json && r.interrupted) io.err(`${rel(r.outDir)}: an earlier run was interrupted; run \`mcp-gen generate\` to complete it.`);
      if (opts.json) continue;
      for (const n of r.notes) if (n.level === 'warning') io.err(`warning: ${rel(r.outDir)}/${n.path}: ${n.message}`);
      if (r.drift.length === 0) {
        io.out(`${rel(r.outDir)} is up to date with ${manifest}.`);
        continue;
      }
      io.err(`${rel(r.outDir)} is stale for ${manifest}: ${r.drift.length} file${r.drift.length === 1 ? ' differs' : 's differ'}.`);
      for (const d of r.drift) {
        io.err(`  ${d.kind.padEnd(10)} ${rel(r.outDir)}/${d.path}`);
        if (d.kind === 'stale') io.err(d.diff.replace(/^/gm, '      '));
      }
    }
  } finally {
    compiler.release();
  }
  if (opts.json) io.out(JSON.stringify(all, null, 2));
  else if (stale) io.err('Run `npx mcp-gen generate` and commit the result.');
  return stale ? 1 : 0;
}

/** `--max-warnings` as ESLint has it: a count at or above 0, or -1 (the default) for no limit. */
function maxWarnings(text: string | undefined): number {
  if (text === undefined) return -1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < -1) throw new UserError(`--max-warnings takes a whole number (0 or more, or -1 for no limit), not ${text}.`);
  return n;
}

async function runLint(manifests: string[], opts: { json?: boolean; format?: string; maxWarnings?: string }): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'sarif'].includes(format)) throw new UserError(`--format takes text, json or sarif, not ${format}.`);
  const limit = maxWarnings(opts.maxWarnings);
  const reports: LintReport[] = [];
  const { loadManifest } = await lazy.pipeline();
  const { renderLintJson, renderLintSarif, ruleDoc, summarize, summaryLine } = await lazy.lint();
  for (const manifest of manifests.length ? manifests : [DEFAULT_MANIFEST]) {
    const r = await loadManifest(manifest);
    reports.push({ manifest, diagnostics: r.diagnostics });
    if (format !== 'text') continue;
    for (const d of r.diagnostics) {
      io.err(await formatDiagnostic(d));
      const docs = ruleDoc(d.code);
      if (docs) io.err(`  docs: ${rel(fileURLToPath(new URL(`../../${docs}`, import.meta.url)))}`);
    }
    io.out(r.diagnostics.length === 0 ? `${manifest}: no findings.` : `${manifest}: ${summaryLine(summarize(r.diagnostics))}.`);
  }
  if (format === 'json') io.out(renderLintJson(reports));
  if (format === 'sarif') io.out(renderLintSarif(reports, version()));
  const all = reports.flatMap((r) => r.diagnostics);
  const tooMany = limit >= 0 && summarize(all).warnings > limit;
  if (tooMany) io.err(`mcp-gen lint found too many warnings (maximum: ${limit}).`);
  return hasErrors(all) || tooMany ? 1 : 0;
}

/**
 * `generate` is the default command, so `mcp-gen genrate` would look for a manifest named `genrate`. A word
 * with no folder or extension that is no file but close to a command name is taken for a mistyped command.
 */
async function refuseMistypedCommand(words: readonly string[], commands: readonly string[]): Promise<void> {
  const { existsSync } = await import('node:fs');
  const { closest } = await import('../manifest/suggest.js');
  for (const w of words) {
    if (/[./\\]/.test(w) || existsSync(w)) continue;
    const near = closest(w, commands);
    throw new UserError(near
      ? `unknown command \`${w}\`: did you mean \`mcp-gen ${near}\`? (a manifest is a file such as mcp.manifest.yaml)`
      : `\`${w}\` is neither a command nor a manifest file: commands are ${commands.join(', ')}; a manifest is a file such as mcp.manifest.yaml.`);
  }
}

function program(): Command {
  const p = new Command('mcp-gen')
    .description('Generate a typed MCP server, handler stubs, a typed client and contract tests from mcp.manifest.yaml.')
    .version(version())
    .showSuggestionAfterError(true)
    .exitOverride();
  const out = (c: Command) => c.option('--out <dir>', 'the exact output folder (default: generated/<server.folder>, derived from server.name)');
  out(
    p
      .command('generate', { isDefault: true })
      .description('generate (or update) the output folder; handler files you edited are never overwritten')
      .argument('[manifests...]', 'manifest files (default: ./mcp.manifest.yaml)')
      .option('--json', 'print a machine-readable report')
      .option('--force', 'overwrite or delete generated files that were edited by hand')
      .option('--watch', 'regenerate on every save of the manifest or a file it reads; Ctrl-C stops')
      .option('--no-cache', 'neither reuse nor keep the incremental cache (docs/incremental.md: node_modules/.cache/mcp-gen of the project, else the user\'s); the output is the same')
      .addHelpText('after', ONE_SHOT_HELP),
  ).action(async (m: string[], o) => {
      await refuseMistypedCommand(m, p.commands.map((c) => c.name()));
      if (o.watch && m.length > 1) throw new UserError('--watch follows one manifest; run one watcher per manifest.');
      const watchOpts = { ...(o.out !== undefined ? { outDir: o.out as string } : {}), force: o.force === true, cache: o.cache !== false };
      process.exitCode = o.watch ? await (await lazy.watch()).watchGenerate(m[0] ?? DEFAULT_MANIFEST, watchOpts, io) : await runGenerate(m, o);
    });
  out(
    p
      .command('diff')
      .description('classify every contract change since a baseline mcp.lock.json as breaking or compatible; exit 1 on breaking ones')
      .argument('[manifest]', 'manifest file', DEFAULT_MANIFEST)
      .option('--against <ref|lockfile>', 'a lock file, or a git ref whose <out>/mcp.lock.json is the baseline (default: the output folder\'s)')
      .option('--json', 'print {breaking, compatible} as JSON')
      .option('--allow-breaking', 'exit 0 even when a change is breaking'),
  ).action(async (m: string, o) => {
      const { diffJson, diffManifest, formatDiff } = await lazy.diff();
      const r = await diffManifest(m, { ...(o.out !== undefined ? { outDir: o.out as string } : {}), ...(o.against !== undefined ? { against: o.against as string } : {}) });
      await printWarnings(new Findings(r.diagnostics));
      io.out(o.json ? JSON.stringify(diffJson(r), null, 2) : formatDiff(r));
      process.exitCode = r.breaking.length > 0 && o.allowBreaking !== true ? 1 : 0;
    });
  out(
    p
      .command('check')
      .description('exit 1 with a summary when the committed output differs from what would be generated (for CI); writes nothing')
      .argument('[manifests...]', 'manifest files (default: ./mcp.manifest.yaml)')
      .option('--json', 'print a machine-readable report')
      .addHelpText('after', ONE_SHOT_HELP),
  ).action(async (m: string[], o) => {
      process.exitCode = await runCheck(m, o);
    });
  p.command('lint')
    .description('check the manifest and its design rules (docs/rules); exit 1 when any finding is an error')
    .argument('[manifests...]', 'manifest files (default: ./mcp.manifest.yaml)')
    .option('--json', 'print { ok, summary, manifests: [{ manifest, ok, summary, diagnostics }] } as JSON (same as --format json)')
    .option('--format <format>', 'text (default), json, or sarif (SARIF 2.1.0, for code-scanning tools)')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings (as ESLint; -1: no limit)')
    .action(async (m: string[], o) => {
      process.exitCode = await runLint(m, o);
    });
  return p;
}

/** Whether this process loaded the pipeline: a run that did is the one whose compiled code is worth caching (codeCache.ts). */
export function loadedPipeline(): boolean {
  return pipelineLoaded;
}

/** Runs the CLI with the given arguments (without `node` and the script). */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const p = program();
    if (!OWN_COMMANDS.has(argv[0] ?? '')) await registerOthers(p);
    await p.parseAsync([...argv], { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof UserError) {
      for (const d of e.diagnostics) io.err(await formatDiagnostic(d));
      io.err(`error: ${e.message}`);
      return 1;
    }
    io.err(`mcp-gen: internal error (a bug in mcp-gen, please report it with the manifest that caused it):`);
    io.err(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return 2;
  }
}


