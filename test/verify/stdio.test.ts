/**
 * verify over stdio: a stdio server has one caller, the identity it was launched with, so the caller
 * without scopes is a second process of the same command launched with `MCP_SCOPES=` (a generated
 * server then grants nothing). Against generated support-desk every scoped tool, resource and prompt is
 * refused to it and left out of its listings; a manifest that claims a scope the server does not
 * enforce fails for that primitive; without the second caller the CLI says why the scope checks are
 * skipped and how to run them.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchSpec } from '../../generator/cli/launch.js';
import { analyseManifest } from '../../generator/pipeline.js';
import { connectTo, type ServerTarget } from '../../generator/remote/connect.js';
import { HIDDEN_CHECK, UNSCOPED_CHECK, verifyServer, type VerifyReport } from '../../generator/verify/index.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

const manifest = join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml');
const spec = launchSpec(join(repoRoot, 'generated/support-desk'));
const server: Extract<ServerTarget, { kind: 'stdio' }> = { kind: 'stdio', command: spec.command, args: spec.args };

async function verify(path: string, target = server): Promise<VerifyReport> {
  const analysis = await analyseManifest(path);
  expect(analysis.contract, JSON.stringify(analysis.diagnostics.slice(0, 2))).toBeDefined();
  const [client, unscoped] = await Promise.all([connectTo(target), connectTo({ ...target, env: { MCP_SCOPES: '' } })]);
  try {
    return await verifyServer(client, analysis.contract!, { unscoped, allowWrites: true });
  } finally {
    await Promise.all([client.close(), unscoped.close()]);
  }
}

describe('verify over stdio: scopes through a second process launched without them', () => {
  it('checks every scoped primitive and the listings, and the server keeps them', async () => {
    const report = await verify(manifest);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    const names = report.checks.filter((c) => !c.skipped).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([
      'tool tickets.get is refused without its scopes (tickets:read)',
      'tool refunds.create_draft is refused without its scopes (refunds:draft)',
      'resource ticket is refused without its scopes (tickets:read)',
      'prompt summarize_ticket is refused without its scopes (tickets:read)',
      HIDDEN_CHECK,
      'tool refunds.create_draft refuses a call without an approval',
    ]));
  }, 60_000);

  it('runs the idempotency conflict check on a tool with one example, the other input derived from its schema', async () => {
    // code-host's issues.create: idempotency required, no approval, a single example.
    const codeHost = launchSpec(join(repoRoot, 'generated/code-host'));
    const report = await verify(join(repoRoot, 'manifests/code-host/mcp.manifest.yaml'), { kind: 'stdio', command: codeHost.command, args: codeHost.args });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    const names = report.checks.filter((c) => !c.skipped).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['tool issues.create refuses the same idempotencyKey with other input', HIDDEN_CHECK]));
  }, 60_000);

  it('fails for a scope the manifest claims and the server does not enforce: the read, and the listing that shows it', async () => {
    const altered = join(repoRoot, 'manifests/support-desk/.tmp-verify-stdio.mcp.manifest.yaml');
    writeFileSync(altered, readFileSync(manifest, 'utf8').replace('    source: ./content/logo.png\n', '    source: ./content/logo.png\n    scopes: [tickets:read]\n'));
    try {
      const report = await verify(altered);
      const failed = report.checks.filter((c) => !c.ok);
      expect(failed.map((c) => c.name)).toEqual(['resource brand-logo is refused without its scopes (tickets:read)', HIDDEN_CHECK]);
      expect(failed[1]!.details).toEqual(['resources/list shows resource brand-logo (support://brand/logo.png)']);
    } finally {
      rmSync(altered);
    }
  }, 60_000);

  it('on the command line: --unscoped-env runs the scope checks; without it they are skipped with the reason', async () => {
    const withEnv = await runCli(['verify', manifest, '--unscoped-env', 'MCP_SCOPES=', '--', spec.command, ...spec.args], repoRoot);
    expect(withEnv.code, withEnv.stderr).toBe(0);
    expect(withEnv.stdout).toContain(`✓ ${HIDDEN_CHECK}`);
    expect(withEnv.stdout).toContain('✓ tool tickets.get is refused without its scopes (tickets:read)');
    const without = await runCli(['verify', manifest, '--', spec.command, ...spec.args], repoRoot);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).toContain(`- ${UNSCOPED_CHECK} (skipped: a stdio server has one caller, the identity it was launched with`);
    expect(without.stdout).toContain('--unscoped-env MCP_SCOPES=');
    const bad = await runCli(['verify', manifest, '--unscoped-env', 'MCP_SCOPES', '--', spec.command, ...spec.args], repoRoot);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('write it as NAME=VALUE');
  }, 120_000);
});
