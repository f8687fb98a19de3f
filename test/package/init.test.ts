/**
 * The newcomer's path, from a packed tarball (not the repository): `npm pack`,
 * install it into an empty folder, `mcp-gen init`, then exactly the three
 * commands init prints — `npm install`, `npx mcp-gen`, `npm test` — and finally
 * an SDK client talking to the generated server over stdio.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
let work: string;
let app: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' }, timeout: 240_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mcp-gen-init-'));
  run('npm', ['pack', '--pack-destination', work, '--ignore-scripts'], repo);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  app = join(work, 'my-notes');
  execFileSync('mkdir', ['-p', app]);
  run('npm', ['init', '-y'], app);
  run('npm', ['install', tarball], app);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('has correct exports and types (publint, arethetypeswrong)', () => {
    run('npx', ['publint', '--pack', 'false', '--strict'], repo);
    // An ESM-only package: node10 and require() resolution are out of scope; attw exits non-zero on any other problem.
    const attw = run('npx', ['attw', tarball, '--profile', 'esm-only'], repo);
    expect(attw).toContain('"mcp-gen/runtime"');
  }, 120_000);

  it('holds the CLI, the compiled generator and runtime, the templates and the manifest schema, and little else', () => {
    const files = run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean);
    for (const f of ['package/bin/mcp-gen.js', 'package/dist/runtime/index.js', 'package/dist/runtime/index.d.ts', 'package/templates/server.ts.hbs', 'package/schema/manifest.schema.json']) expect(files).toContain(f);
    expect(files.filter((f) => !/^package\/(bin|dist|templates|schema)\/|^package\/(package\.json|README\.md|LICENSE)$/.test(f))).toEqual([]);
  });
});

describe('a new project from the packed package', () => {
  it('init writes the starter files and prints the next three commands', () => {
    const out = run('npx', ['mcp-gen', 'init'], app);
    expect(out).toContain('npm install\n  npx mcp-gen\n  npm test');
    const manifest = readFileSync(join(app, 'mcp.manifest.yaml'), 'utf8');
    expect(manifest.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/mcp-gen/schema/manifest.schema.json');
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.scripts['test']).toBe('tsc --noEmit && vitest run');
    expect(pkg.dependencies['mcp-gen']).toMatch(/^file:/); // the installed tarball is kept, not replaced
    expect(readdirSync(join(app, 'node_modules/mcp-gen/schema'))).toContain('manifest.schema.json');
  }, 60_000);

  it('npm install, npx mcp-gen and npm test succeed', () => {
    run('npm', ['install'], app);
    const gen = run('npx', ['mcp-gen'], app);
    expect(gen).toContain('generated/my-notes');
    const test = run('npm', ['test'], app);
    expect(test).toMatch(/Tests\s+.*passed/);
  }, 400_000);

  it('the generated server answers an SDK client over stdio', () => {
    const script = `
      import { Client } from '@modelcontextprotocol/client';
      import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
      const client = new Client({ name: 't', version: '1' });
      await client.connect(new StdioClientTransport({ command: 'npx', args: ['tsx', 'generated/my-notes/main.gen.ts'] }));
      const { tools } = await client.listTools();
      console.log(JSON.stringify(tools.map((t) => t.name)));
      await client.close();
    `;
    const out = run('node', ['--input-type=module', '-e', script], app);
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual(['notes.search', 'notes.create']);
  }, 60_000);
});
