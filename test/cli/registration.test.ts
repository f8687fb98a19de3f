/**
 * The client entries printed by the first generation start the server from any working directory: each
 * is launched as printed from an unrelated folder, with the default environment a client gives, and lists
 * the manifest's tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { listToolsOf, printedLaunches } from '../helpers/registrations.js';

const out = join(repoRoot, 'test', `.tmp-register-${process.pid}`);
const elsewhere = mkdtempSync(join(tmpdir(), 'mcp-gen-client-'));
let printed = '';

beforeAll(async () => {
  const r = await runCli(['generate', 'manifests/support-desk/mcp.manifest.yaml', '--out', out], repoRoot);
  expect(r.code, r.stderr).toBe(0);
  printed = r.stdout;
}, 60_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('printed client registrations', () => {
  it('name absolute paths only, so no client working directory can change what runs', () => {
    for (const l of printedLaunches(printed, 'support-desk')) {
      expect(l.command).toBe(process.execPath);
      for (const a of l.args.filter((x) => !x.startsWith('--'))) expect(a).toMatch(/^(\/|file:\/\/\/)/);
    }
  });

  it.each(['Claude Desktop / Cursor', 'VS Code', 'Claude Code'])('the %s entry lists the tools when launched from another folder', async (client) => {
    const launch = printedLaunches(printed, 'support-desk').find((l) => l.client === client)!;
    expect(await listToolsOf(launch, elsewhere)).toEqual(['tickets.get', 'tickets.search', 'refunds.create_draft', 'refunds.submit']);
  });
});
