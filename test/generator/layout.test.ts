import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../helpers/paths.js';

// Emitted files are laid out by their templates and the printer, and nothing edits them afterwards
// (`tidy` only ends a file with one newline). So every committed output — the examples' generated
// folders, kept equal to the generator's output by `npm run check`, and the golden fixtures — must
// already be clean: a template or printer that leaves a trailing blank or a double blank line fails here.
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|md|json)$/.test(name) ? [path] : [];
  });
}

const roots = [join(repoRoot, 'generated'), join(repoRoot, 'test', 'golden')];
const all = roots.flatMap(files);

describe('layout of every emitted file', () => {
  it('finds the committed outputs', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it.each(all.map((path) => [relative(repoRoot, path), path]))('%s: no trailing blanks, no double blank line, one final newline', (_, path) => {
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').flatMap((line, i) => (/[ \t]$/.test(line) ? [i + 1] : []))).toEqual([]);
    expect(text.indexOf('\n\n\n')).toBe(-1);
    expect(text.endsWith('\n') && !text.endsWith('\n\n')).toBe(true);
  });
});
