/** `mcp-gen import openapi` as a user runs it: the draft, the summary, lint on the draft, and the normal loop after it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { importFixturesDir } from '../helpers/import-golden.js';
import { scratch } from './helpers.js';

const s = scratch('cli');
afterAll(() => s.cleanup());
const DOC = join(importFixturesDir, 'shop', 'openapi.yaml');

describe('mcp-gen import openapi', () => {
  it('writes the draft, prints the summary with lint findings by rule, and the draft passes generate, lint and check', { timeout: 120_000 }, async () => {
    const r = await runCli(['import', 'openapi', DOC, '--out', 'shop/mcp.manifest.yaml'], s.dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(OpenAPI 3.0) → shop/mcp.manifest.yaml');
    expect(r.stdout).toContain('11 operations → 8 tools, 1 resource template, 0 prompts; 2 excluded, 1 flagged');
    expect(r.stdout).toMatch(/flagged POST \/query: flagged, not imported/);
    expect(r.stdout).toMatch(/lint on the draft: (MG7\d\d ×\d+, )*MG7\d\d ×\d+/);
    const manifest = join(s.dir, 'shop', 'mcp.manifest.yaml');
    expect(readFileSync(manifest, 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../../../schema/manifest.schema.json');
    const gen = await runCli(['generate', 'shop/mcp.manifest.yaml', '--out', 'shop/out'], s.dir);
    expect(gen.code, gen.stderr).toBe(0);
    expect((await runCli(['check', 'shop/mcp.manifest.yaml', '--out', 'shop/out'], s.dir)).code).toBe(0);
    expect((await runCli(['lint', 'shop/mcp.manifest.yaml'], s.dir)).code).toBe(0);
    const diff = await runCli(['diff', 'shop/mcp.manifest.yaml', '--out', 'shop/out', '--json'], s.dir);
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ breaking: [] });
  });

  it('keeps an existing manifest unless --force, and reports the summary as JSON', async () => {
    const target = join(s.dir, 'keep.yaml');
    writeFileSync(target, 'mine\n');
    const r = await runCli(['import', 'openapi', DOC, '--out', 'keep.yaml'], s.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('keep.yaml exists; it is kept');
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    const j = await runCli(['import', 'openapi', DOC, '--out', 'keep.yaml', '--force', '--json'], s.dir);
    expect(JSON.parse(j.stdout)).toMatchObject({ sourceVersion: '3.0', operations: 11, tools: 8, resources: 1, flagged: [{ operation: 'POST /query' }] });
  });

  it('names the file and the problem for a document that is not OpenAPI, and writes nothing', async () => {
    writeFileSync(join(s.dir, 'not.yaml'), 'hello: world\n');
    const r = await runCli(['import', 'openapi', 'not.yaml', '--out', 'none.yaml'], s.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not\.yaml: /);
    expect(() => readFileSync(join(s.dir, 'none.yaml'))).toThrow();
    writeFileSync(join(s.dir, 'broken.yaml'), 'openapi: 3.0.0\ninfo: {title: x\n  bad');
    const broken = await runCli(['import', 'openapi', 'broken.yaml', '--out', 'none.yaml'], s.dir);
    expect(broken.stderr).toMatch(/^error: broken\.yaml:3:6: not valid YAML or JSON: .*; fix the syntax there$/m);
    writeFileSync(join(s.dir, 'dangling.yaml'), 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {200: {description: ok, content: {application/json: {schema: {$ref: "./nope.yaml"}}}}}\n');
    const dangling = await runCli(['import', 'openapi', 'dangling.yaml', '--out', 'none.yaml'], s.dir);
    expect(dangling.stderr).toMatch(/dangling\.yaml: a \$ref points at .*nope\.yaml, which does not exist/);
  });
});

describe('the import config file', () => {
  it('applies its overrides, and reports a bad key or value at its line and column', { timeout: 60_000 }, async () => {
    writeFileSync(join(s.dir, 'import.yaml'), 'server: shop\noverrides:\n  - tag: adoption\n    exclude: true\n');
    const ok = await runCli(['import', 'openapi', DOC, '--out', 'cfg.yaml', '--config', 'import.yaml', '--json'], s.dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).excluded).toContainEqual({ operation: 'POST /pets/{petId}/adopt', reason: 'excluded (import config overrides[0])' });
    expect(readFileSync(join(s.dir, 'cfg.yaml'), 'utf8')).toMatch(/^server:\n {2}name: shop$/m);
    writeFileSync(join(s.dir, 'bad.yaml'), 'overrides:\n  - path: /a/**\n    kind: resorce\n');
    const bad = await runCli(['import', 'openapi', DOC, '--out', 'cfg2.yaml', '--config', 'bad.yaml'], s.dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: bad.yaml:3:11: `kind: resorce` is not allowed; use tool, resource, both');
  });
});
