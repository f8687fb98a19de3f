/**
 * A generated contract test that makes no assertion fails. The minimal case is emitted into a scratch
 * folder and its server suite is run three ways with the repository's vitest: as generated (it passes);
 * with a harness check that returns without asserting, under the vitest config `mcp-gen init` writes and
 * without the suite's own `expect.hasAssertions()` (the config alone fails it); and with the same check
 * under a config that does not require assertions (the suite's own guard fails it).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initFiles } from '../../generator/init/index.js';
import { emitCase } from '../helpers/golden.js';
import { repoRoot } from '../helpers/paths.js';

interface Report {
  testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

const SUITE = 'contract/server.gen.test.ts';
const UNKNOWN_TOOL = 'answers an unknown tool with a protocol error';
const HARNESS_IMPORT = "} from './harness.gen.js';\n";
const GUARD = '    expect.hasAssertions();\n';

/** The suite with `expectProtocolError` replaced by a check that returns early, as a broken check would. */
function withSilentCheck(suite: string): string {
  expect(suite).toContain('  expectProtocolError,\n');
  expect(suite).toContain(HARNESS_IMPORT);
  return suite
    .replace('  expectProtocolError,\n', '')
    .replace(HARNESS_IMPORT, `${HARNESS_IMPORT}\nconst expectProtocolError = async (..._: unknown[]): Promise<void> => {};\n`);
}

describe('a generated contract test without an assertion', () => {
  const root = join(repoRoot, `.tmp-assertions-${randomBytes(4).toString('hex')}`);
  let suite: string;

  /** Runs the suite of `folder` under `config`; the unknown-tool test's statuses and failure messages. */
  async function run(folder: string, config: string): Promise<{ statuses: string[]; messages: string }> {
    const out = join(root, folder, 'report.json');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const dir = join(root, folder);
    const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', SUITE, '--root', dir, '--config', config, '--reporter=json', `--outputFile=${out}`], { cwd: dir, env, encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    const report = JSON.parse(await readFile(out, 'utf8')) as Report;
    const results = report.testResults.flatMap((t) => t.assertionResults).filter((a) => a.fullName.includes(UNKNOWN_TOOL));
    return { statuses: [...new Set(results.map((a) => a.status))], messages: results.flatMap((a) => a.failureMessages).join('\n') };
  }

  /** The minimal case emitted into `folder` with `suite` as its server suite and `config` beside it. */
  async function lay(folder: string, serverSuite: string, config: { name: string; content: string }): Promise<string> {
    const files = await emitCase('minimal');
    files.set(SUITE, serverSuite);
    files.set(config.name, config.content);
    for (const [path, content] of files) {
      await mkdir(dirname(join(root, folder, path)), { recursive: true });
      await writeFile(join(root, folder, path), content);
    }
    return join(root, folder, config.name);
  }

  const initConfig = () => {
    const f = initFiles('my-server').find((x) => x.path === 'vitest.config.ts')!;
    return { name: f.path, content: f.content };
  };

  beforeAll(async () => {
    suite = (await emitCase('minimal')).get(SUITE)!;
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('init scaffolds a vitest config that requires an assertion in every test', () => {
    expect(initConfig().content).toContain('expect: { requireAssertions: true }');
  });

  it('passes as generated, under the config init writes', async () => {
    const config = await lay('as-generated', suite, initConfig());
    expect(await run('as-generated', config)).toEqual({ statuses: ['passed'], messages: '' });
  }, 120_000);

  it('fails under the config init writes, even without the suite guard', async () => {
    expect(suite).toContain(GUARD);
    const config = await lay('config-only', withSilentCheck(suite).replace(GUARD, ''), initConfig());
    const { statuses, messages } = await run('config-only', config);
    expect(statuses).toEqual(['failed']);
    expect(messages).toContain('expected any number of assertion, but got none');
  }, 120_000);

  it('fails under a config without requireAssertions, through the suite guard', async () => {
    const config = await lay('guard-only', withSilentCheck(suite), { name: 'vitest.config.mjs', content: 'export default { test: {} };\n' });
    const { statuses, messages } = await run('guard-only', config);
    expect(statuses).toEqual(['failed']);
    expect(messages).toContain('expected any number of assertion, but got none');
  }, 120_000);
});
