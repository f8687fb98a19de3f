/** generate warns when the project lacks a package the generated code imports. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingDependencies } from '../../generator/write/dependencies.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-deps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakePackage(root: string, name: string): void {
  mkdirSync(join(root, 'node_modules', name), { recursive: true });
  writeFileSync(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name }));
}

describe('missingDependencies', () => {
  it('names every package generated code imports when none is installed', () => {
    expect(missingDependencies(join(dir, 'empty', 'generated', 'x'))).toEqual({
      dependencies: ['mcp-gen', '@modelcontextprotocol/server', '@modelcontextprotocol/client'],
      devDependencies: ['vitest', 'tsx'],
    });
  });

  it('finds packages installed in an ancestor folder', () => {
    const project = join(dir, 'project');
    for (const name of ['mcp-gen', '@modelcontextprotocol/server', 'vitest']) fakePackage(project, name);
    expect(missingDependencies(join(project, 'generated', 'x'))).toEqual({ dependencies: ['@modelcontextprotocol/client'], devDependencies: ['tsx'] });
  });

  it('finds nothing missing for the examples in this repository', () => {
    expect(missingDependencies(join(import.meta.dirname, '../../generated/support-desk'))).toEqual({ dependencies: [], devDependencies: [] });
  });
});
