/**
 * The `evidence` command: runs a manifest's scenarios (the generated `contract/scenarios.gen.test.ts`,
 * through vitest, against the real server with the author's handlers) and publishes one evidence pack
 * per scenario and protocol era to a folder.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface EvidenceFlags {
  out?: string;
  generated?: string;
}

/** The environment variable the scenario suites write packs under (mcp-gen/testing's EVIDENCE_DIR_VARIABLE). */
const EVIDENCE_DIR = 'MCP_GEN_EVIDENCE_DIR';

/** Registers `mcp-gen evidence [manifest] [--out DIR]`. */
export function registerEvidence(program: Command, io: Io): void {
  program
    .command('evidence')
    .description("run the manifest's scenarios against the generated server and write an evidence pack per scenario and protocol era; exit 1 when a gate or an assertion fails")
    .argument('[manifest]', 'the manifest', 'mcp.manifest.yaml')
    .option('--out <dir>', 'the folder for the packs (default: evidence/<server folder>)')
    .option('--generated <dir>', "the manifest's generated output (default: generated/<server folder>)")
    .action(async (manifest: string, o: EvidenceFlags) => {
      process.exitCode = await runEvidence(manifest, o, io);
    });
}

async function runEvidence(manifest: string, o: EvidenceFlags, io: Io): Promise<number> {
  const { UserError } = await import('../diagnostics.js');
  const { check } = await import('../pipeline.js');
  const r = await check(manifest, o.generated === undefined ? {} : { outDir: o.generated });
  const rel = (p: string) => relative(process.cwd(), p) || '.';
  if ((r.ir.scenarios ?? []).length === 0) throw new UserError(`${manifest} declares no scenarios: add a \`scenarios:\` section (docs/evidence.md).`);
  if (r.drift.length > 0 || r.interrupted) throw new UserError(`${rel(r.outDir)} is not up to date with ${manifest}: run \`mcp-gen generate\` first, so the scenarios run against what the manifest says.`);
  const suite = join(r.outDir, 'contract', 'scenarios.gen.test.ts');
  const outDir = resolve(o.out ?? join('evidence', r.ir.server.folder));
  const { publishEvidence, stagingFolder } = await import('../write/evidence.js');
  const staging = stagingFolder(outDir);
  const code = await runVitest(suite, staging);
  const packs = publishEvidence(staging, outDir);
  if (packs.length === 0) {
    io.err(`No evidence pack was written (vitest exited with ${code}); ${rel(outDir)} is unchanged.`);
    return 1;
  }
  let failed = 0;
  for (const f of packs) {
    const pack = JSON.parse(readFileSync(join(outDir, f), 'utf8')) as { scenario: string; protocolVersion?: string; verdict: { passed: boolean; failedGates: string[]; assertions: { passed: boolean }[] } };
    const bad = pack.verdict.assertions.filter((a) => !a.passed).length;
    if (!pack.verdict.passed) failed++;
    const why = [...pack.verdict.failedGates.map((g) => `${g} gate failed`), ...(bad > 0 ? [`${bad} assertion${bad === 1 ? '' : 's'} failed`] : [])];
    io.out(`${pack.verdict.passed ? '✓' : '✗'} ${pack.scenario} (${pack.protocolVersion ?? 'unknown protocol'}): ${why.length === 0 ? 'passed' : why.join('; ')} → ${rel(join(outDir, f))}`);
  }
  io.out(failed === 0 ? `${packs.length} evidence pack${packs.length === 1 ? '' : 's'} written to ${rel(outDir)}; every scenario passed.` : `${failed} of ${packs.length} scenario runs failed; the packs in ${rel(outDir)} say which boundary broke.`);
  return failed === 0 && code === 0 ? 0 : 1;
}

/** Runs one suite file with the project's vitest, packs written to `dir`; resolves to vitest's exit code. */
function runVitest(suite: string, dir: string): Promise<number> {
  let bin: string;
  try {
    const pkgPath = createRequire(join(process.cwd(), 'package.json')).resolve('vitest/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> };
    bin = join(pkgPath, '..', typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.['vitest'] ?? 'vitest.mjs'));
  } catch {
    return import('../diagnostics.js').then(({ UserError }) => {
      throw new UserError('mcp-gen evidence runs the scenario suite with vitest, which this project does not have: npm install --save-dev vitest');
    });
  }
  return new Promise((done, fail) => {
    // Its own output goes to stderr: stdout carries the evidence summary only.
    const child = spawn(process.execPath, [bin, 'run', relative(process.cwd(), suite) || suite], { env: { ...process.env, [EVIDENCE_DIR]: dir }, stdio: ['ignore', process.stderr, process.stderr] });
    child.on('error', fail);
    child.on('exit', (code) => done(code ?? 1));
  });
}
