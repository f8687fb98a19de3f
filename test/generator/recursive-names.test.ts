/**
 * A recursive local definition is declared as `<Type><Def>`; when another declaration already exports
 * that name (a named schema `CategoryNode` beside `Category`'s recursive `$defs/node`, a named
 * schema `TreesSaveInputNode` beside tool `trees.save`'s), the recursive one takes the next free number.
 * Two interfaces of one name would merge silently into a type neither schema describes.
 */
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { compileManifest } from '../../generator/pipeline.js';
import { recursiveTypeName } from '../../generator/ir/names.js';
import { repoRoot } from '../helpers/paths.js';

const manifest = join(repoRoot, 'test/fixtures/valid/recursive-name-taken/mcp.manifest.yaml');

const declared = (code: string): string[] => [...code.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);

describe('names of recursive definitions', () => {
  it('never declares a name twice, and each reference reaches its own declaration', async () => {
    const { files } = await compileManifest(manifest, { cwd: repoRoot });
    const types = files.find((f) => f.path === 'types.gen.ts')!.content;
    const names = declared(types);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['CategoryNode', 'CategoryNode2', 'TreesSaveInputNode', 'TreesSaveInputNode2']));
    // The named schema keeps its own shape; the recursive definition is the one that recurses.
    expect(types).toMatch(/export interface CategoryNode \{\n {2}label: string;/);
    expect(types).toMatch(/export interface CategoryNode2 \{\n {2}name: string;\n {2}children\?: CategoryNode2\[\];/);
    expect(types).toMatch(/export type TreesSaveInputNode = string;/);
    expect(types).toMatch(/export interface TreesSaveInputNode2 \{\n(?: {2}.*\n)* {2}children\?: TreesSaveInputNode2\[\];/);
    // No child of a tree is typed as the unrelated named schema.
    expect(types).not.toMatch(/TreesSaveInputNode\[\]|CategoryNode\[\]/);
    // The emitted file as it is, against a stand-in of the runtime types it imports.
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile('runtime.ts', 'export type HandlerContext = object; export type ToolReturn = unknown; export type ToolHandler<I, O> = (input: I) => O;');
    project.createSourceFile('types.ts', types.replace("from 'mcp-gen/runtime'", "from './runtime'"));
    const errors = project.getPreEmitDiagnostics().map((d) => `${d.getLineNumber()}: ${String(d.getMessageText())}`);
    expect(errors).toEqual([]);
  });

  it('is the same on every run', async () => {
    const a = (await compileManifest(manifest, { cwd: repoRoot })).files.find((f) => f.path === 'types.gen.ts')!.content;
    const b = (await compileManifest(manifest, { cwd: repoRoot })).files.find((f) => f.path === 'types.gen.ts')!.content;
    expect(a).toBe(b);
  });

  it('numbers past every taken name', () => {
    const taken = new Set(['TreeNode', 'TreeNode2']);
    expect(recursiveTypeName('Tree', 'Node', taken)).toBe('TreeNode3');
    expect(recursiveTypeName('Tree', 'Leaf', taken)).toBe('TreeLeaf');
    expect(taken.has('TreeNode3') && taken.has('TreeLeaf')).toBe(true);
  });
});
