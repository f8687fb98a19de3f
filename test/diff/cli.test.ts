/**
 * `mcp-gen diff` as a user runs it: the built CLI in temp folders, against the
 * output folder's lock, a lock file, and a git ref (a temp repository with
 * two commits). The repository must be built (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { tempDir } from '../helpers/tree.js';

const FIXTURES = join(repoRoot, 'test/fixtures/diff');
type Fixture = 'base' | 'breaking' | 'compatible';

const BREAKING_LINES = [
  'BREAKING tool notes.find: renamed from notes.search; clients that use notes.search break',
  'BREAKING tool notes.get: input property format enum value "html" removed',
  'BREAKING tool notes.get: output property tags is now optional',
  'BREAKING resource note: MIME type changed from application/json to text/plain',
  'BREAKING prompt summarize: argument days is now required',
  'compatible tool notes.find: description changed',
  'compatible tool notes.get: description changed',
];

let root: string;
let n = 0;

/** A project folder whose manifest is a fixture. */
async function project(fixture: Fixture): Promise<string> {
  const dir = join(root, `p${++n}`);
  await mkdir(dir, { recursive: true });
  await use(dir, fixture);
  return dir;
}
const use = (dir: string, fixture: Fixture) => copyFile(join(FIXTURES, `${fixture}.yaml`), join(dir, 'mcp.manifest.yaml'));

async function generated(dir: string, ...args: string[]): Promise<void> {
  const r = await runCli(['generate', ...args], dir);
  expect(r.code, r.stderr).toBe(0);
}

const changeLines = (stdout: string) => stdout.split('\n').filter((l) => /^(BREAKING|compatible) /.test(l));

beforeAll(async () => {
  root = await tempDir('mcp-gen-diff-');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('mcp-gen diff against the output folder', () => {
  it('lists every change, breaking first, and exits 1 on a breaking one', async () => {
    const dir = await project('base');
    await generated(dir);
    await use(dir, 'breaking');
    const r = await runCli(['diff'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('mcp.manifest.yaml vs generated/notes/mcp.lock.json: 5 breaking changes, 2 compatible changes.');
    expect(changeLines(r.stdout)).toEqual(BREAKING_LINES);
    const allowed = await runCli(['diff', '--allow-breaking'], dir);
    expect(allowed.code).toBe(0);
    expect(changeLines(allowed.stdout)).toEqual(BREAKING_LINES);
  });

  it('exits 0 when every change is compatible, and reports an unchanged manifest as such', async () => {
    const dir = await project('base');
    await generated(dir);
    const same = await runCli(['diff'], dir);
    expect(same.code).toBe(0);
    expect(same.stdout.trim()).toBe('mcp.manifest.yaml vs generated/notes/mcp.lock.json: no changes.');
    await use(dir, 'compatible');
    const r = await runCli(['diff', 'mcp.manifest.yaml'], dir);
    expect(r.code).toBe(0);
    expect(changeLines(r.stdout)).toEqual([
      'compatible tool notes.get: input property format enum value "pdf" added',
      'compatible tool notes.search: input property limit added as optional',
      'compatible prompt summarize: description changed',
    ]);
  });

  it('--json prints {breaking, compatible} with kind, name, path, change and detail', async () => {
    const dir = await project('base');
    await generated(dir);
    await use(dir, 'breaking');
    const r = await runCli(['diff', '--json'], dir);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { breaking: Record<string, string>[]; compatible: Record<string, string>[] };
    expect(Object.keys(doc)).toEqual(['breaking', 'compatible']);
    expect(doc.breaking.map((c) => [c['kind'], c['name'], c['path'], c['change']])).toEqual([
      ['tool', 'notes.find', 'tools.notes.find', 'renamed'],
      ['tool', 'notes.get', 'tools.notes.get.input.format', 'enum-value-removed'],
      ['tool', 'notes.get', 'tools.notes.get.output.tags', 'made-optional'],
      ['resource', 'note', 'resources.note.mimeType', 'mime-type-changed'],
      ['prompt', 'summarize', 'prompts.summarize.arguments.days', 'argument-made-required'],
    ]);
    expect(doc.breaking[1]).toEqual({
      kind: 'tool', name: 'notes.get', path: 'tools.notes.get.input.format', change: 'enum-value-removed',
      detail: 'input property format enum value "html" removed',
    });
    expect(doc.compatible.map((c) => c['path'])).toEqual(['tools.notes.find.description', 'tools.notes.get.description']);
  });

  it('reports the discovery and listing cache hints the lock records, under the server', async () => {
    const dir = await project('base');
    await generated(dir);
    const manifest = join(dir, 'mcp.manifest.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('  version: 1.0.0\n', '  version: 1.0.0\n  cache: { ttlMs: 60000, scope: public }\n'));
    const r = await runCli(['diff', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { compatible: Record<string, string>[] };
    const server = doc.compatible.filter((c) => c['kind'] === 'server');
    expect(server.every((c) => c['name'] === 'notes')).toBe(true);
    // Discovery and the unscoped listings may now be shared; tools/list (scoped tools) stays private, only fresher.
    expect(server.map((c) => `${c['change']} ${c['path']}`)).toEqual([
      'listing-cache-ttl-changed cacheHints.prompts/list.ttlMs',
      'listing-cache-scope-widened cacheHints.prompts/list.cacheScope',
      'listing-cache-ttl-changed cacheHints.resources/list.ttlMs',
      'listing-cache-scope-widened cacheHints.resources/list.cacheScope',
      'listing-cache-ttl-changed cacheHints.resources/templates/list.ttlMs',
      'listing-cache-scope-widened cacheHints.resources/templates/list.cacheScope',
      'listing-cache-ttl-changed cacheHints.server/discover.ttlMs',
      'listing-cache-scope-widened cacheHints.server/discover.cacheScope',
      'listing-cache-ttl-changed cacheHints.tools/list.ttlMs',
    ]);
    const text = await runCli(['diff'], dir);
    expect(changeLines(text.stdout)).toContain('compatible server notes: server/discover results may now be cached public: shared caches may serve them to any caller');
  });

  it('--out names the output folder whose lock is the baseline', async () => {
    const dir = await project('base');
    await generated(dir, '--out', 'server');
    await use(dir, 'compatible');
    expect((await runCli(['diff'], dir)).code).toBe(1); // generated/notes does not exist
    const r = await runCli(['diff', '--out', 'server'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('vs server/mcp.lock.json: 0 breaking changes, 3 compatible changes.');
  });
});

describe('mcp-gen diff --against a lock file', () => {
  it('reads the given file', async () => {
    const dir = await project('base');
    await generated(dir, '--out', 'v1');
    await use(dir, 'breaking');
    const r = await runCli(['diff', '--against', 'v1/mcp.lock.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('mcp.manifest.yaml vs v1/mcp.lock.json: 5 breaking changes, 2 compatible changes.');
    expect(changeLines(r.stdout)).toEqual(BREAKING_LINES);
  });

  it('a missing or invalid baseline is a user error (exit 1, no stack)', async () => {
    const dir = await project('base');
    const missing = await runCli(['diff'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error: no baseline: generated/notes/mcp.lock.json does not exist');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    await writeFile(join(dir, 'bad.json'), '{"tools": ');
    const bad = await runCli(['diff', '--against', 'bad.json'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: bad.json is not valid JSON');
    await writeFile(join(dir, 'other.json'), '{"name": "not a lock"}');
    const other = await runCli(['diff', '--against', 'other.json'], dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('error: other.json is not an mcp-gen lock file');
    expect(other.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('mcp-gen diff --against a git ref', () => {
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });

  it('reads <out>/mcp.lock.json as committed at the ref', async () => {
    const dir = await project('base');
    git(dir, 'init', '-q');
    await generated(dir);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'v1');
    await use(dir, 'compatible');
    await generated(dir);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'v2');
    await use(dir, 'breaking');

    const first = await runCli(['diff', '--against', 'HEAD~1'], dir);
    expect(first.code).toBe(1);
    expect(first.stdout.split('\n')[0]).toBe('mcp.manifest.yaml vs HEAD~1:generated/notes/mcp.lock.json: 5 breaking changes, 2 compatible changes.');
    expect(changeLines(first.stdout)).toEqual(BREAKING_LINES);

    const head = await runCli(['diff', '--against', 'HEAD', '--json'], dir);
    expect(head.code).toBe(1);
    const doc = JSON.parse(head.stdout) as { breaking: { change: string; path: string }[]; compatible: { change: string; path: string }[] };
    expect(doc.breaking.map((c) => `${c.change} ${c.path}`)).toEqual([
      'renamed tools.notes.find',
      'property-removed tools.notes.find.input.limit', // added in v2, gone again
      'enum-value-removed tools.notes.get.input.format',
      'enum-value-removed tools.notes.get.input.format',
      'made-optional tools.notes.get.output.tags',
      'mime-type-changed resources.note.mimeType',
      'argument-made-required prompts.summarize.arguments.days',
    ]);
    expect(doc.compatible.map((c) => c.path)).toEqual(['tools.notes.find.description', 'tools.notes.get.description', 'prompts.summarize.description']);

    // A ref that exists but whose tree has no lock there, and a name that is neither file nor ref.
    const noLock = await runCli(['diff', '--against', 'HEAD', '--out', 'elsewhere'], dir);
    expect(noLock.code).toBe(1);
    expect(noLock.stderr).toContain('error: no baseline: HEAD:elsewhere/mcp.lock.json does not exist');
    const unknown = await runCli(['diff', '--against', 'no-such-branch'], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: --against no-such-branch: no such file, and not a git ref');
  });
});
