/**
 * `mcp-gen lint --format sarif`: the findings as a SARIF 2.1.0 log, the format code-scanning services read.
 * One run, one rule descriptor per design rule (MG7xx) and per other code that occurs, one result per
 * finding located by file (relative to the working directory), line and column. Builds a string; never prints.
 */
import { type Diagnostic, reported } from '../diagnostics.js';
import { CONFIG_CODE } from './engine.js';
import type { LintReport } from './report.js';
import { ruleDoc } from './report.js';
import { RULES } from './rules/index.js';

/** The schema every SARIF 2.1.0 log names (the OASIS standard's, errata 01). */
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Diagnostic['severity'], 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', hint: 'note' };

interface RuleDescriptor {
  id: string;
  name?: string;
  shortDescription?: { text: string };
  defaultConfiguration?: { level: 'error' | 'warning' | 'note' };
  properties?: { docs: string };
}

function descriptors(codes: readonly string[]): RuleDescriptor[] {
  const lintCodes = RULES.map((r) => r.code);
  const others = [...new Set(codes)].filter((c) => !lintCodes.includes(c)).sort();
  const fromRules = RULES.map((r): RuleDescriptor => ({
    id: r.code,
    name: r.name,
    shortDescription: { text: r.description },
    defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
    properties: { docs: ruleDoc(r.code)! },
  }));
  return [...fromRules, ...others.map((id): RuleDescriptor => (id === CONFIG_CODE ? { id, name: 'lint-config', properties: { docs: ruleDoc(id)! } } : { id }))];
}

/** The file of a finding as a relative URI reference (SARIF resolves it against `%SRCROOT%`). */
function artifactUri(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join('/');
}

function result(d: Diagnostic, index: ReadonlyMap<string, number>) {
  const snippet = reported(d).sourceLine;
  return {
    ruleId: d.code,
    ruleIndex: index.get(d.code)!,
    level: LEVEL[d.severity],
    message: { text: d.hint ? `${d.message}. Fix: ${d.hint}` : d.message },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: artifactUri(d.file), uriBaseId: '%SRCROOT%' },
        region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.column), ...(snippet !== undefined ? { snippet: { text: snippet } } : {}) },
      },
      ...(d.path ? { logicalLocations: [{ fullyQualifiedName: d.path, kind: 'member' }] } : {}),
    }],
  };
}

/** The SARIF 2.1.0 log of a lint run; `version` is mcp-gen's. */
export function renderLintSarif(reports: readonly LintReport[], version: string): string {
  const all = reports.flatMap((r) => r.diagnostics);
  const rules = descriptors(all.map((d) => d.code));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'mcp-gen', version, semanticVersion: version, rules } },
      results: all.map((d) => result(d, index)),
    }],
  };
  return JSON.stringify(log, null, 2);
}
