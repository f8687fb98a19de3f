/**
 * The published reference servers (pinned devDependencies) are imported, generated and started; the
 * generated server's catalog must equal the original's field by field (key order ignored) in both
 * protocol eras, except the fields the importer reported as inexpressible. `verify` passes against
 * each original and fails, naming the field, against a deliberately altered manifest. The imported
 * manifests are goldens: re-importing gives the committed bytes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type Scalar, type YAMLMap } from 'yaml';
import { generate } from '../../generator/pipeline.js';
import { analyseManifest } from '../../generator/pipeline.js';
import { readCatalog, type Catalog } from '../../generator/remote/catalog.js';
import { diffCatalogs, isInexpressible } from '../../generator/remote/compare.js';
import { connectTo, type Era, type ServerTarget } from '../../generator/remote/connect.js';
import { verifyServer } from '../../generator/verify/index.js';

const root = resolve(import.meta.dirname, '../..');
const scratch = join(root, 'test/import-server/.tmp-proof');
const fixtures = join(root, 'test/fixtures/import-server');

/** The pinned published servers: their command, and whether they serve 2026-07-28 themselves (on SDK v2). */
const SERVERS: readonly { name: string; bin: string; args: string[]; modern?: boolean }[] = [
  { name: 'everything', bin: 'mcp-server-everything', args: ['stdio'] },
  { name: 'filesystem', bin: 'mcp-server-filesystem', args: ['test/fixtures/import-server'] },
  { name: 'memory', bin: 'mcp-server-memory', args: [] },
  { name: 'sequential-thinking', bin: 'mcp-server-sequential-thinking', args: [] },
  { name: 'playwright', bin: 'playwright-mcp', args: [] },
  { name: 'notion', bin: 'notion-mcp-server', args: [] },
  { name: 'context7', bin: 'context7-mcp', args: [], modern: true },
];
const bin = (name: string) => `node_modules/.bin/${SERVERS.find((s) => s.name === name)!.bin}`;

async function catalogOf(target: ServerTarget, era: Era = '2025-11-25'): Promise<Catalog> {
  const client = await connectTo(target, era);
  try {
    return await readCatalog(client);
  } finally {
    await client.close();
  }
}

function importServer(name: string, args: string[], out: string): string {
  return execFileSync(process.execPath, ['bin/mcp-gen.js', 'import', 'server', '--out', out, '--force', '--', bin(name), ...args], { cwd: root, encoding: 'utf8' });
}

beforeAll(() => mkdirSync(scratch, { recursive: true }));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(SERVERS)('imported $name', ({ name, args, modern }) => {
  const original: ServerTarget = { kind: 'stdio', command: bin(name), args, env: { MEMORY_FILE_PATH: join(scratch, `${name}-memory.jsonl`) } };
  const manifest = join(fixtures, name, 'mcp.manifest.yaml');
  const out = join(scratch, name);
  let originalCatalog: Catalog;

  beforeAll(async () => {
    originalCatalog = await catalogOf(original);
    await generate(manifest, { outDir: out, cwd: root });
  }, 120_000);

  it('re-imports to the committed manifest, byte for byte (golden), and names what it cannot express', () => {
    const again = join(scratch, `${name}.reimport`, 'mcp.manifest.yaml');
    const stdout = importServer(name, args, again);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(manifest, 'utf8'));
    if (name === 'everything') expect(stdout).toContain('capabilities.tasks: SDK v2 serves no tasks');
    if (name === 'sequential-thinking') expect(stdout).toContain('tools.sequentialthinking.execution: SDK v2 cannot publish `execution`');
  }, 60_000);

  it.each(['2025-11-25', '2026-07-28'] as const)('generates a server whose catalog equals the original (%s)', async (era) => {
    const generated: ServerTarget = { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', join(out, 'main.gen.ts')] };
    const catalog = await catalogOf(generated, era);
    // A server on SDK v2 answers 2026-07-28 itself; the others are compared with their 2025-11-25 catalog.
    const expected = modern && era === '2026-07-28' ? await catalogOf(original, era) : originalCatalog;
    const differences = diffCatalogs(expected, catalog);
    // Every field the generated server lacks is one the importer reported (execution, tasks).
    expect(differences.filter((d) => !(d.actual === undefined && isInexpressible({ ...d, expected: undefined, actual: d.expected })))).toEqual([]);
    expect(catalog.tools.length + catalog.resources.length + catalog.prompts.length).toBeGreaterThan(0);
  }, 60_000);

  it.runIf(name === 'sequential-thinking')('validates through the local pointer references the original publishes (#/properties/…)', async () => {
    const client = await connectTo({ kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', join(out, 'main.gen.ts')] });
    try {
      const tool = (await client.listTools()).tools[0]!;
      expect(JSON.stringify(tool.inputSchema)).toContain('"$ref":"#/properties/');
      const base = { thought: 't', nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 2 };
      // isRevision is `#/properties/nextThoughtNeeded` (boolean or string); needsMoreThoughts goes on through isRevision.
      const bad = await client.callTool({ name: tool.name, arguments: { ...base, needsMoreThoughts: 5 } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/Input validation error/);
      const good = await client.callTool({ name: tool.name, arguments: { ...base, isRevision: 'true', needsMoreThoughts: false } });
      expect(JSON.stringify(good.content)).not.toMatch(/Input validation error/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.runIf(name === 'memory')('imports the same manifest over Streamable HTTP (--url, --header) from the generated server', async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', join(out, 'main.gen.ts'), '--http', '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let seen = '';
        server.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const m = /listening on (\S+)/.exec(seen);
          if (m) ok(m[1]!);
        });
        server.on('exit', () => fail(new Error(`the server exited: ${seen}`)));
      });
      const viaHttp = join(scratch, 'memory.http', 'mcp.manifest.yaml');
      mkdirSync(join(scratch, 'memory.http', 'schemas'), { recursive: true });
      const stdout = execFileSync(process.execPath, ['bin/mcp-gen.js', 'import', 'server', '--url', url, '--header', 'Authorization: Bearer test-token', '--out', viaHttp], { cwd: root, encoding: 'utf8' });
      expect(stdout).toContain('9 tools, 1 resources');
      const strip = (text: string) => text.slice(text.indexOf('\nmcpgen: 1\n'));
      // The manifest itself is the same; only the header differs (its source, and the original's `execution` fields it names).
      expect(strip(readFileSync(viaHttp, 'utf8'))).toBe(strip(readFileSync(manifest, 'utf8')));
    } finally {
      server.kill();
    }
  }, 60_000);

  it('verify passes against the original', async () => {
    const analysis = await analyseManifest(manifest);
    const client = await connectTo(original);
    const report = await verifyServer(client, analysis.contract!).finally(() => client.close());
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  }, 60_000);

  it('verify fails against an altered manifest, naming the field', async () => {
    // Next to the original, so its schema files resolve; removed afterwards.
    const altered = join(fixtures, name, '.tmp-altered.mcp.manifest.yaml');
    const doc = parseDocument(readFileSync(manifest, 'utf8'));
    const tool = String((doc.get('tools') as YAMLMap<Scalar>).items[0]!.key.value);
    doc.setIn(['tools', tool, 'title'], `${String(doc.getIn(['tools', tool, 'title']) ?? '')} (altered)`);
    writeFileSync(altered, doc.toString({ lineWidth: 0 }));
    const analysis = await analyseManifest(altered).finally(() => rmSync(altered));
    expect(analysis.contract, JSON.stringify(analysis.diagnostics.slice(0, 2))).toBeDefined();
    const client = await connectTo(original);
    const report = await verifyServer(client, analysis.contract!).finally(() => client.close());
    const listing = report.checks.find((c) => c.name === 'listing is exactly as declared')!;
    expect(listing.ok).toBe(false);
    expect(listing.details.join('\n')).toContain(`tools[${JSON.stringify(tool)}].title`);
  }, 60_000);
});

describe('mcp-gen verify on the command line', () => {
  const run = (manifest: string, ...extra: string[]) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, ['bin/mcp-gen.js', 'verify', manifest, ...extra, '--', bin('memory')], { cwd: root, encoding: 'utf8', env: { ...process.env, MEMORY_FILE_PATH: join(scratch, 'cli-memory.jsonl') } }) };
    } catch (e) {
      const err = e as { status: number; stdout: string };
      return { code: err.status, out: err.stdout };
    }
  };

  it('exits 0 with a human report when the contract holds, 1 with the differing field when it is broken', () => {
    const good = run('test/fixtures/import-server/memory/mcp.manifest.yaml');
    expect(good.code, good.out).toBe(0);
    expect(good.out).toContain('✓ listing is exactly as declared');
    const altered = join(fixtures, 'memory', '.tmp-cli.mcp.manifest.yaml');
    writeFileSync(altered, readFileSync(join(fixtures, 'memory', 'mcp.manifest.yaml'), 'utf8').replace('title: Read Graph', 'title: Read The Graph'));
    try {
      const bad = run(altered, '--json');
      expect(bad.code).toBe(1);
      const report = JSON.parse(bad.out) as { ok: boolean; checks: { name: string; details: string[] }[] };
      expect(report.ok).toBe(false);
      expect(report.checks[0]!.details).toContain('tools["read_graph"].title: expected "Read The Graph", found "Read Graph"');
    } finally {
      rmSync(altered);
    }
  }, 60_000);
});
