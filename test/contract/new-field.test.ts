/**
 * Where a new field of every primitive goes (docs/architecture.md): the manifest schema, the raw types,
 * the primitive base (`IrPrimitiveBase`, `buildBase`) and `LISTED_BASE_FIELDS` in the contract phase.
 * This exercise stands in for the first three with an IR whose primitives all carry an `icons` field, and
 * for the last with the contract option that extends the listed fields; nothing else is touched. The
 * server must then register the field for every primitive, the lock record it, the contract suites
 * expect it in every listing and diff report its change.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LISTED_BASE_FIELDS, buildContract } from '../../generator/contract/index.js';
import { emitAll, type EmittedFile } from '../../generator/emit/index.js';
import { compareLocks, type Lock } from '../../generator/diff/index.js';
import type { Ir, IrPrimitiveBase } from '../../generator/ir/types.js';
import { loadManifest } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';

const icons = (p: IrPrimitiveBase) => [{ src: `https://example.com/${p.id}.png`, mimeType: 'image/png' }];

/** The IR as `buildBase` would build it once it reads `icons` for every primitive. */
function withIcons(ir: Ir): Ir {
  const add = <P extends IrPrimitiveBase>(p: P): P => ({ ...p, icons: icons(p) });
  return { ...ir, tools: ir.tools.map(add), resources: ir.resources.map(add), prompts: ir.prompts.map(add) };
}

describe('a new optional field on every primitive', () => {
  let ir: Ir;
  let before: readonly EmittedFile[];
  let after: readonly EmittedFile[];
  const file = (files: readonly EmittedFile[], path: string) => files.find((f) => f.path === path)!.content;

  beforeAll(async () => {
    ir = (await loadManifest(join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml'))).ir!;
    before = await emitAll(ir, buildContract(ir));
    const next = withIcons(ir);
    after = await emitAll(next, buildContract(next, { listedBaseFields: [...LISTED_BASE_FIELDS, 'icons'] }));
  });

  it('is registered with the SDK for every tool, resource and prompt', () => {
    const server = file(after, 'server.gen.ts');
    const all = [...ir.tools, ...ir.resources, ...ir.prompts];
    for (const p of all) expect(server, p.name).toContain(`https://example.com/${p.id}.png`);
    expect(server.match(/ {6}icons: \[/g)).toHaveLength(all.length);
    expect(file(before, 'server.gen.ts')).not.toContain('icons');
  });

  it('is recorded in the lock for every primitive, and diff reports it', () => {
    const lockOf = (files: readonly EmittedFile[]) => JSON.parse(file(files, 'mcp.lock.json')) as Lock;
    const lock = lockOf(after);
    for (const section of ['tools', 'resources', 'prompts'] as const) {
      for (const [name, entry] of Object.entries(lock[section])) expect(entry.contract['icons'], `${section}.${name}`).toBeDefined();
    }
    const none = new Map<string, string>();
    const changes = compareLocks(lockOf(before), lock, { tool: none, resource: none, prompt: none });
    const paths = [...changes.breaking, ...changes.compatible].map((c) => c.path);
    expect(paths.filter((p) => p.endsWith('.icons'))).toHaveLength(ir.tools.length + ir.resources.length + ir.prompts.length);
  });

  it('is expected, as declared, in every listing test of the contract suites', () => {
    const suites = after.filter((f) => f.path.startsWith('contract/') && f.path.endsWith('.test.ts')).map((f) => f.content).join('\n');
    for (const p of [...ir.tools, ...ir.resources, ...ir.prompts]) expect(suites, p.name).toContain(`https://example.com/${p.id}.png`);
  });

  it('changes nothing else in any file', () => {
    const strip = (s: string) => s.replace(/\n\s*icons: \[[^\]]*\],?/g, '').replace(/,\s*"icons": \[[^\]]*\]/g, '').replace(/"sha256:[0-9a-f]+"/g, 'HASH');
    const changed = after.filter((f, i) => f.content !== before[i]!.content).map((f) => f.path);
    expect(changed.sort()).toEqual(['contract/prompts.gen.test.ts', 'contract/resources.gen.test.ts', 'contract/tools.gen.test.ts', 'mcp.lock.json', 'server.gen.ts']);
    for (const path of changed.filter((p) => p.endsWith('.ts'))) expect(strip(file(after, path)), path).toBe(strip(file(before, path)));
  });
});
