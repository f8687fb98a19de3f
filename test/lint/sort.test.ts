/**
 * Diagnostics are sorted by file, line, column and code; lint findings inside a manifest entry are
 * located only when the sort needs their positions (diagnostics.ts `PendingPlace`). The order must be
 * the one a sort of the same diagnostics, every position computed first, gives.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { type Diagnostic, Findings, type PendingPlace, sortDiagnostics } from '../../generator/diagnostics.js';
import { diagnosticOf } from '../../generator/lint/located.js';
import { analyseManifest } from '../../generator/pipeline.js';
import type { SourceMap, SourcePiece } from '../../generator/manifest/source-map.js';
import { repoRoot } from '../helpers/paths.js';

const lintDir = join(repoRoot, 'test/fixtures/lint');
const MANIFESTS = [
  ...readdirSync(lintDir).flatMap((code) => readdirSync(join(lintDir, code)).filter((f) => f.endsWith('.yaml')).map((f) => join(lintDir, code, f))),
  ...readdirSync(join(repoRoot, 'manifests')).map((d) => join(repoRoot, 'manifests', d, 'mcp.manifest.yaml')),
];

const shown = (ds: readonly Diagnostic[]): string[] => ds.map((d) => JSON.stringify({ ...d }));

describe('sorting with positions left pending', () => {
  it.each(MANIFESTS)('%s: orders as a sort of located diagnostics does', async (manifest) => {
    for (const cache of [undefined, new GenerationCache('test')]) {
      const { diagnostics, findings } = await analyseManifest(manifest, cache ? { cache } : {});
      const warnings = shown(findings.warnings);
      const hints = findings.hints;
      expect(warnings).toEqual(shown(diagnostics.filter((d) => d.severity === 'warning')));
      expect(hints).toBe(diagnostics.filter((d) => d.severity === 'hint').length);
      // Read before the copy: a diagnostic whose position is pending computes it here.
      const located = diagnostics.map((d) => ({ ...d }));
      const reversed = [...located].reverse();
      expect(shown(diagnostics)).toEqual(shown(sortDiagnostics(located)));
      expect(shown(sortDiagnostics(reversed))).toEqual(shown(sortDiagnostics(located)));
    }
  });

  // Written as minified JSON every entry shares the one line: the pieces' columns must order what their lines cannot.
  it.each(MANIFESTS)('%s, written as minified JSON: orders as a sort of located diagnostics does', async (manifest) => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-sort-'));
    try {
      cpSync(dirname(manifest), dir, { recursive: true });
      const json = join(dir, 'mcp.manifest.json');
      writeFileSync(json, JSON.stringify(parse(readFileSync(manifest, 'utf8'), { maxAliasCount: -1 })));
      for (const cache of [undefined, new GenerationCache('test')]) {
        const { diagnostics } = await analyseManifest(json, cache ? { cache } : {});
        const located = diagnostics.map((d) => ({ ...d }));
        expect(shown(diagnostics)).toEqual(shown(sortDiagnostics(located)));
        expect(shown(sortDiagnostics([...located].reverse()))).toEqual(shown(sortDiagnostics(located)));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the warnings in order and counts the hints without locating a hint', () => {
    const at = (code: string, severity: Diagnostic['severity'], line: number): Diagnostic => ({ code, severity, message: code, path: 'tools.a', file: 'm.yaml', line, column: 1 });
    const pending = (code: string): Diagnostic => ({
      code, severity: 'hint', message: code, path: 'tools.b', file: 'm.yaml',
      get line(): number { throw new Error(`${code} was located`); },
      get column(): number { throw new Error(`${code} was located`); },
    });
    const findings = new Findings([at('MG701', 'warning', 9), pending('MG708'), at('MG702', 'warning', 3), pending('MG728'), at('MG703', 'hint', 1)]);
    expect(findings.hints).toBe(3);
    expect(findings.warnings.map((d) => d.code)).toEqual(['MG702', 'MG701']);
    expect(() => findings.sorted).toThrow('was located');
  });

  it('locates a finding on a section\'s or an entry\'s own key without parsing its piece', () => {
    // A section's piece is the whole section: parsing it for the tool catalog's budget finding took most of a regeneration.
    const text = 'server:\n  name: x\ntools:\n  # the first tool\n  a.b:\n    description: d\n';
    const piece = (path: string[], from: number, to: number): SourcePiece => ({
      path, from, to, column: 1, lastColumn: Infinity, text: text.split('\n').slice(from - 1, to).join('\n') + '\n',
      firstLine: () => text.split('\n')[from - 1]!,
      locate: () => { throw new Error(`${path.join('.')} was parsed`); },
      locateInString: () => { throw new Error(`${path.join('.')} was parsed`); },
    });
    const pieces = { tools: piece(['tools'], 3, 6), entry: piece(['tools', 'a.b'], 5, 6) };
    const map = { pieceOf: (path: readonly unknown[]) => (path.length === 1 ? pieces.tools : pieces.entry), lineText: (n: number) => text.split('\n')[n - 1] } as unknown as SourceMap;
    const section = diagnosticOf({ file: 'm.yaml', map }, 'MG723', 'warning', { path: ['tools'], at: 'key', message: 'over budget', hint: 'h' }).diagnostic;
    expect({ line: section.line, column: section.column, sourceLine: section.sourceLine }).toEqual({ line: 3, column: 1, sourceLine: 'tools:' });
    const entry = diagnosticOf({ file: 'm.yaml', map }, 'MG728', 'hint', { path: ['tools', 'a.b'], at: 'key', message: 'no outcome', hint: 'h' }).diagnostic;
    expect({ line: entry.line, column: entry.column, sourceLine: entry.sourceLine }).toEqual({ line: 5, column: 3, sourceLine: '  a.b:' });
    // Anything else in the piece is found by parsing it.
    expect(() => diagnosticOf({ file: 'm.yaml', map }, 'MG708', 'hint', { path: ['tools', 'a.b', 'description'], message: 'x', hint: 'h' }).diagnostic.line).toThrow('was parsed');
  });

  it('puts a diagnostic at the start of an entry first only when its code sorts first, or the pending one lies later', () => {
    const at = (code: string, line: number, column: number): Diagnostic => ({ code, severity: 'hint', message: code, path: 'tools.a', file: 'm.yaml', line, column });
    const piece = {};
    /** A diagnostic of the entry at lines 5–9 (its key at 5:3) whose position, `line`:`column`, is computed on first read. */
    const pending = (code: string, line: number, column: number): [Diagnostic, PendingPlace] => {
      let read = false;
      const d: Diagnostic = { ...at(code, 0, 0), get line() { read = true; return line; }, get column() { read = true; return column; } };
      return [d, { piece, from: 5, to: 9, spot: code, start: { line: 5, column: 3 }, known: () => read }];
    };
    const order = (located: Diagnostic, [d, place]: [Diagnostic, PendingPlace]) =>
      sortDiagnostics([d, located], new Map([[d, place]])).map((x) => x.code);
    // At the same position as the entry's key: the code decides, whichever is pending.
    expect(order(at('MG730', 5, 3), pending('MG708', 5, 3))).toEqual(['MG708', 'MG730']);
    expect(order(at('MG708', 5, 3), pending('MG730', 5, 3))).toEqual(['MG708', 'MG730']);
    // Later in the entry: the key's diagnostic comes first, whatever the codes.
    expect(order(at('MG730', 5, 3), pending('MG708', 6, 5))).toEqual(['MG730', 'MG708']);
  });

  it('orders pieces that share a line by their columns, and locates only where those do not decide', () => {
    const at = (code: string, line: number, column: number): Diagnostic => ({ code, severity: 'hint', message: code, path: 'tools.a', file: 'm.json', line, column });
    const located = new Set<string>();
    /** Diagnostic `name` of a piece of line 1 spanning columns `from`–`to`, at column `column` once computed. */
    const pending = (name: string, code: string, from: number, to: number, column: number): [Diagnostic, PendingPlace] => {
      const d: Diagnostic = { ...at(code, 0, 0), get line() { located.add(name); return 1; }, get column() { located.add(name); return column; } };
      return [d, { piece: { name }, from: 1, to: 1, columns: { from, to }, spot: code, start: { line: 1, column: from }, known: () => located.has(name) }];
    };
    const shown = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.column}`);
    const a = pending('a', 'MG708', 10, 40, 30);
    const b = pending('b', 'MG708', 42, 80, 50);
    const c = pending('c', 'MG701', 42, 80, 45);
    const between = at('MG730', 1, 41);
    const before = at('MG730', 1, 9);
    const sorted = sortDiagnostics([b[0], c[0], between, a[0], before], new Map([a, b, c]));
    // Only B's two findings, which share their piece's columns, needed positions.
    expect([...located].sort()).toEqual(['b', 'c']);
    expect(shown(sorted)).toEqual(['MG730@9', 'MG708@30', 'MG730@41', 'MG701@45', 'MG708@50']);
    // A finding located inside a piece is ordered by the position of the piece's own finding.
    located.clear();
    expect(shown(sortDiagnostics([a[0], at('MG730', 1, 20), at('MG730', 1, 35)], new Map([a])))).toEqual(['MG730@20', 'MG708@30', 'MG730@35']);
    // Pieces of whole lines (no columns) compare as lines: a finding located on the piece's line needs its position.
    located.clear();
    const whole: [Diagnostic, PendingPlace] = [a[0], { ...a[1], columns: undefined }];
    const lines = sortDiagnostics([whole[0], at('MG730', 1, 50)], new Map([whole]));
    expect([...located]).toEqual(['a']);
    expect(shown(lines)).toEqual(['MG708@30', 'MG730@50']);
  });

  it('has manifests with several findings in one entry', async () => {
    let within = 0;
    for (const manifest of MANIFESTS) {
      const { diagnostics } = await analyseManifest(manifest);
      const entries = diagnostics.map((d) => d.path.split('.').slice(0, 2).join('.'));
      within += entries.filter((e, i) => entries.indexOf(e) !== i).length;
    }
    expect(within).toBeGreaterThan(10);
  });
});
