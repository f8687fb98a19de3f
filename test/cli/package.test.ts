/**
 * `mcp-gen package`: `server.json` valid against the MCP registry's published schema (test/schemas/) and
 * an MCP Bundle `manifest.json` valid against the schema of the pinned @anthropic-ai/mcpb, accepted by
 * `mcpb validate` and packed by `mcpb pack`; the unpacked bundle, launched as its manifest says, lists
 * the manifest's tools.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';
import { listToolsOf } from '../helpers/registrations.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const mcpbDir = join(repoRoot, 'node_modules/@anthropic-ai/mcpb');
const mcpb = join(mcpbDir, 'dist/cli/cli.js');
const root = join(repoRoot, 'test', `.tmp-package-${process.pid}`);
const project = join(root, 'project');
const tools = ['tickets.get', 'tickets.search', 'refunds.create_draft', 'refunds.submit'];

/** A project folder whose node_modules resolves to this repository's (mcp-gen itself included); tsx copied, so it lies inside. */
function linkModules(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(join(repoRoot, 'node_modules/tsx'), join(dir, 'node_modules/tsx'), { recursive: true });
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry !== 'tsx') symlinkSync(join(repoRoot, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  symlinkSync(repoRoot, join(dir, 'node_modules/mcp-gen'));
}

function validator(schemaFile: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
}

let packaged = { code: 0 as number | null, stdout: '', stderr: '' };

beforeAll(async () => {
  cpSync(join(repoRoot, 'manifests/support-desk'), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'support-desk-mcp', version: '1.2.3', type: 'module', license: 'MIT', repository: { type: 'git', url: 'git+https://github.com/acme/support-desk.git' }, homepage: 'https://acme.example/support-desk' }));
  writeFileSync(join(project, '.mcpbignore'), 'node_modules/\n');
  linkModules(project);
  const gen = await runCli(['generate'], project);
  expect(gen.code, gen.stderr).toBe(0);
  packaged = await runCli(['package', '--url', 'https://mcp.acme.example/mcp'], project);
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('server.json', () => {
  it('is valid against the registry schema and carries name, description, version, package, variables and remote', () => {
    expect(packaged.code, packaged.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(project, 'server.json'), 'utf8'));
    const validate = validator(join(repoRoot, 'test/schemas/server.schema.json'));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, description: 'x'.repeat(101) })).toBe(false); // the schema holds the 100-character limit
    expect(doc).toMatchObject({ name: 'io.github.acme/support-desk', description: 'Tickets, refund policy and refund workflows.', version: '1.4.0', repository: { url: 'https://github.com/acme/support-desk', source: 'github' } });
    expect(doc.packages).toEqual([expect.objectContaining({ registryType: 'npm', identifier: 'support-desk-mcp', version: '1.2.3', transport: { type: 'stdio' } })]);
    expect(doc.packages[0].environmentVariables.map((v: { name: string; isSecret: boolean }) => [v.name, v.isSecret])).toEqual([['MCP_PRINCIPAL', false], ['MCP_TENANT', false], ['MCP_SCOPES', false]]);
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: 'https://mcp.acme.example/mcp' }]);
  });

  it('validates against the schema file vendored byte for byte as the registry publishes it', () => {
    const bytes = readFileSync(join(repoRoot, 'test/schemas/server.schema.json'));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe('584809339e86dce04fa7d39cd8a4de6eca2f92594863f93ebb5ea5ed7cff8f71');
  });

  it('says how to claim the name in package.json, which the registry verifies', () => {
    expect(packaged.stderr).toContain('add "mcpName": "io.github.acme/support-desk" to package.json');
  });

  it('refuses a description over 100 characters and a name that is not reverse-DNS, writing nothing', async () => {
    const before = readFileSync(join(project, 'server.json'), 'utf8');
    const bad = await runCli(['package', '--name', 'support desk'], project);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not reverse-DNS namespace/name');
    const manifest = readFileSync(join(project, 'mcp.manifest.yaml'), 'utf8');
    writeFileSync(join(project, 'long.manifest.yaml'), manifest.replace(/description: Tickets, refund policy and refund workflows\./, `description: ${'A very long description. '.repeat(5)}`));
    const long = await runCli(['package', 'long.manifest.yaml'], project);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('server.description is 124 characters, and the MCP registry takes at most 100');
    expect(readFileSync(join(project, 'server.json'), 'utf8')).toBe(before);
  });
});

describe('the MCP Bundle', () => {
  const manifest = () => JSON.parse(readFileSync(join(project, 'manifest.json'), 'utf8'));

  it('manifest.json is valid against the mcpb schema, and mcpb validate accepts it', () => {
    const validate = validator(join(mcpbDir, 'schemas/mcpb-manifest-v0.3.schema.json'));
    expect(validate(manifest()), JSON.stringify(validate.errors)).toBe(true);
    const r = spawnSync(process.execPath, [mcpb, 'validate', join(project, 'manifest.json')], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Manifest schema validation passes!');
  });

  it('lists every tool and prompt and maps user_config to the launch variables', () => {
    const m = manifest();
    expect(m.tools.map((t: { name: string }) => t.name)).toEqual(tools);
    expect(m.prompts.map((p: { name: string; arguments: string[] }) => [p.name, p.arguments])).toEqual([['draft_refund_review', ['ticketId', 'depth']], ['summarize_ticket', ['ticketId', 'maxWords']]]);
    expect(m.server.mcp_config.env).toEqual({ MCP_PRINCIPAL: '${user_config.principal}', MCP_TENANT: '${user_config.tenant}', MCP_SCOPES: '${user_config.scopes}' });
    expect(Object.keys(m.user_config)).toEqual(['principal', 'tenant', 'scopes']);
  });

  it('is packed by mcpb pack, and the unpacked bundle, launched as its manifest says, lists the tools', async () => {
    const bundle = join(root, 'support-desk.mcpb');
    const pack = spawnSync(process.execPath, [mcpb, 'pack', project, bundle], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(pack.status, pack.stdout + pack.stderr).toBe(0);
    const unpacked = join(root, 'installed');
    const unpack = spawnSync(process.execPath, [mcpb, 'unpack', bundle, unpacked], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(unpack.status, unpack.stdout + unpack.stderr).toBe(0);
    linkModules(unpacked); // a bundle ships its node_modules; here they come from this repository
    const m = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    const fill = (s: string) => s.replace('${__dirname}', unpacked);
    expect(await listToolsOf({ client: 'MCPB', command: process.execPath, args: m.server.mcp_config.args.map(fill) }, root)).toEqual(tools);
  }, 60_000);

  it('once packed and published, is listed in server.json as an mcpb package with its URL and SHA-256', async () => {
    const bundle = join(root, 'support-desk.mcpb');
    const url = 'https://github.com/acme/support-desk/releases/download/v1.4.0/support-desk.mcpb';
    const manifestBefore = readFileSync(join(project, 'manifest.json'), 'utf8');
    const r = await runCli(['package', '--url', 'https://mcp.acme.example/mcp', '--bundle', bundle, '--bundle-url', url], project);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(project, 'server.json'), 'utf8'));
    const validate = validator(join(repoRoot, 'test/schemas/server.schema.json'));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const sha = createHash('sha256').update(readFileSync(bundle)).digest('hex');
    expect(doc.packages.map((p: { registryType: string }) => p.registryType)).toEqual(['npm', 'mcpb']);
    expect(doc.packages[1]).toMatchObject({ registryType: 'mcpb', identifier: url, version: '1.4.0', fileSha256: sha, transport: { type: 'stdio' } });
    expect(doc.packages[1].environmentVariables).toEqual(doc.packages[0].environmentVariables);
    expect(validate({ ...doc, packages: [doc.packages[0], { ...doc.packages[1], fileSha256: 'not-a-hash' }] })).toBe(false);
    // The bundle holds manifest.json as packed: rewriting it the same keeps the published hash true.
    expect(readFileSync(join(project, 'manifest.json'), 'utf8')).toBe(manifestBefore);
  });

  it('refuses --bundle without --bundle-url, a bundle URL that is not https, and a missing bundle file, writing nothing', async () => {
    const before = readFileSync(join(project, 'server.json'), 'utf8');
    const alone = await runCli(['package', '--bundle', join(root, 'support-desk.mcpb')], project);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('--bundle <file.mcpb> and --bundle-url <https URL> go together');
    const http = await runCli(['package', '--bundle', join(root, 'support-desk.mcpb'), '--bundle-url', 'http://example.com/x.mcpb'], project);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('is not an https URL of the .mcpb file');
    const missing = await runCli(['package', '--bundle', join(root, 'nope.mcpb'), '--bundle-url', 'https://example.com/x.mcpb'], project);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.mcpb: no such file; pack the bundle first');
    expect(readFileSync(join(project, 'server.json'), 'utf8')).toBe(before);
  });
});
