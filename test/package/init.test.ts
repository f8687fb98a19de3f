/**
 * The newcomer's path, from a packed tarball (not the repository): `npm pack`,
 * install it into an empty folder, `mcp-gen init`, then exactly the three
 * commands init prints — `npm install`, `npx mcp-gen`, `npm test` — and finally
 * an SDK client talking to the generated server over stdio.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listToolsOf, printedLaunches } from '../helpers/registrations.js';

const repo = resolve(import.meta.dirname, '../..');
let work: string;
let app: string;
let tarball: string;
let generation = '';

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

  it('holds the CLI, the compiled generator and runtime, the templates, the manifest schema and the docs, and little else', () => {
    const files = run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean);
    for (const f of ['package/bin/mcp-gen.js', 'package/dist/runtime/index.js', 'package/dist/runtime/index.d.ts', 'package/templates/server.ts.hbs', 'package/schema/manifest.schema.json', 'package/docs/manifest.md', 'package/docs/rules/MG701.md']) expect(files).toContain(f);
    expect(files.filter((f) => !/^package\/(bin|dist|templates|schema|docs)\/|^package\/(package\.json|README\.md|LICENSE)$/.test(f))).toEqual([]);
  });

  it('resolves every relative link of the README and the docs inside the package', () => {
    const files = new Set(run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, '')));
    for (const doc of [...files].filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')))) {
      const text = run('tar', ['-xzOf', tarball, `package/${doc}`], work);
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const resolved = join(doc, '..', target!).replace(/\/$/, '');
        expect(files.has(resolved) || [...files].some((f) => f.startsWith(`${resolved}/`)), `${doc} links ${target}`).toBe(true);
      }
    }
  });

  it('names its repository, homepage and keywords, the three pointing at one repository', () => {
    const pkg = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], work)) as { repository?: { url: string }; homepage?: string; bugs?: { url: string }; keywords?: string[] };
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    const repoUrl = pkg.repository!.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(pkg.homepage).toBe(`${repoUrl}#readme`);
    expect(pkg.bugs?.url).toBe(`${repoUrl}/issues`);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['mcp', 'model-context-protocol', 'mcp-server', 'code-generator']));
  });

  it('holds every docs page the CLI, the generated code and lint point at', () => {
    const files = new Set(run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, '')));
    const printed = new Set<string>();
    for (const f of [...files].filter((x) => /^(dist|templates|bin)\/.*\.(js|hbs)$/.test(x))) {
      const text = run('tar', ['-xzOf', tarball, `package/${f}`], work);
      // A page named as the package names it (docs/x.md), not a URI path that only looks like one (file:///docs/…).
      for (const [page] of text.matchAll(/(?<![\w/.])docs\/[\w./-]+\.md/g)) printed.add(page);
    }
    expect(printed.size).toBeGreaterThan(5);
    for (const page of printed) expect(files.has(page), `${page} is printed but not in the package`).toBe(true);
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
    // `npm test` below runs the generated suites under it: every one of their tests asserts.
    expect(readFileSync(join(app, 'vitest.config.ts'), 'utf8')).toContain('requireAssertions: true');
    expect(pkg.dependencies['mcp-gen']).toMatch(/^file:/); // the installed tarball is kept, not replaced
    expect(readdirSync(join(app, 'node_modules/mcp-gen/schema'))).toContain('manifest.schema.json');
  }, 60_000);

  it('npm install, npx mcp-gen and npm test succeed', () => {
    run('npm', ['install'], app);
    const gen = run('npx', ['mcp-gen'], app);
    expect(gen).toContain('generated/my-notes');
    generation = gen;
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

  it.each(['Claude Desktop / Cursor', 'VS Code', 'Claude Code'])('the printed %s entry starts the server from another folder', async (client) => {
    const launch = printedLaunches(generation, 'my-notes').find((l) => l.client === client)!;
    expect(await listToolsOf(launch, work)).toEqual(['notes.search', 'notes.create']);
  }, 60_000);

  it('mcp-gen call gets a prompt from a folder below the project root', () => {
    const out = run('npx', ['mcp-gen', 'call', 'summarize_note', 'id=N-1'], join(app, 'generated'));
    expect(JSON.parse(out).messages[0].content.text).toBe('Summarize note N-1 in three sentences. Read it first.');
  }, 60_000);

  it("the README's commands for an existing HTTP API work as printed in that project", () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Start from an existing HTTP API'));
    const commands = section.slice(section.indexOf('```sh\n') + 6, section.indexOf('\n```', section.indexOf('```sh\n'))).split('\n');
    expect(commands.map((c) => c.split(/\s+/).slice(0, 3).join(' '))).toEqual(['npm install --save-dev', 'npx mcp-gen import', 'npx mcp-gen #', 'PET_SHOP_BASE_URL=https://api.example.com PET_SHOP_OAUTH=… npx']);
    cpSync(join(repo, 'test/fixtures/import/shop'), app, { recursive: true });
    for (const command of commands.slice(0, 3)) run('sh', ['-c', command], app);
    // The last line starts the server on stdio: with stdin closed it starts, says who the caller is, and exits.
    const r = spawnSync('sh', ['-c', `${commands[3]!} < /dev/null`], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('stdio caller');
    const call = spawnSync('npx', ['mcp-gen', 'call', 'listPets', 'limit=2'], { cwd: app, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PET_SHOP_BASE_URL: 'http://127.0.0.1:9' } });
    expect(call.status).toBe(1);
    expect(JSON.parse(call.stdout)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The upstream API could not be reached; try again later.' }] });
  }, 400_000);
});
