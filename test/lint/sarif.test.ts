/**
 * `mcp-gen lint --format sarif` and `--max-warnings`: the log is valid against the OASIS SARIF 2.1.0
 * schema (test/schemas/), locates each finding, and the warning limit fails a run as ESLint's does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const FAIL = 'test/fixtures/lint/MG704/fail.yaml';
const WARN = 'test/fixtures/lint/MG718/fail.yaml';
const CLEAN = 'manifests/support-desk/mcp.manifest.yaml';

const schema = JSON.parse(readFileSync(join(repoRoot, 'test/schemas/sarif-schema-2.1.0.json'), 'utf8')) as object;
// Both are CommonJS; require gives the class and the plugin without default-import interop.
const require = createRequire(import.meta.url);
const Ajv = require('ajv-draft-04') as typeof import('ajv-draft-04').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

describe('mcp-gen lint --format sarif', () => {
  it('prints a SARIF 2.1.0 log valid against the published schema, one located result per finding', async () => {
    const r = await runCli(['lint', '--format', 'sarif', FAIL, WARN, CLEAN], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const log = JSON.parse(r.stdout) as { version: string; runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: { ruleId: string; ruleIndex: number; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] };
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...log, runs: [{ ...log.runs[0], tool: {} }] })).toBe(false); // the schema does reject a broken log
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('mcp-gen');
    expect(run.results.map((x) => [x.ruleId, x.level, x.locations[0]!.physicalLocation.artifactLocation.uri, x.locations[0]!.physicalLocation.region.startLine, x.locations[0]!.physicalLocation.region.startColumn])).toEqual([
      ['MG704', 'error', FAIL, 4, 3],
      ['MG718', 'warning', WARN, 11, 9],
      ['MG718', 'warning', WARN, expect.any(Number), expect.any(Number)],
    ]);
    for (const x of run.results) expect(run.tool.driver.rules[x.ruleIndex]!.id).toBe(x.ruleId);
  });

  it('a clean manifest gives a valid log with no results, and --json keeps its own shape', async () => {
    const r = await runCli(['lint', '--format', 'sarif', CLEAN], repoRoot);
    expect(r.code).toBe(0);
    const log = JSON.parse(r.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results).toEqual([]);
    expect(JSON.parse((await runCli(['lint', '--json', CLEAN], repoRoot)).stdout).ok).toBe(true);
  });

  it('refuses an unknown format', async () => {
    const r = await runCli(['lint', '--format', 'xml', CLEAN], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format takes text, json or sarif, not xml.');
  });
});

describe('mcp-gen lint --max-warnings', () => {
  it('exits 1 when warnings exceed the limit and 0 at the limit, as ESLint does', async () => {
    const over = await runCli(['lint', '--max-warnings', '1', WARN], repoRoot);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('mcp-gen lint found too many warnings (maximum: 1).');
    expect((await runCli(['lint', '--max-warnings', '2', WARN], repoRoot)).code).toBe(0);
    expect((await runCli(['lint', '--max-warnings', '0', '--format', 'sarif', WARN], repoRoot)).code).toBe(1);
    expect((await runCli(['lint', WARN], repoRoot)).code).toBe(0);
  });

  it('refuses a limit that is not a whole number', async () => {
    const r = await runCli(['lint', '--max-warnings', 'many', WARN], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--max-warnings takes a whole number');
  });
});
