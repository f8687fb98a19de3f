/**
 * Contract cards carry every field of the seed's card for every primitive, and the context cost they
 * print is the count lint's MG723 budgets (its finding names the same total).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileManifest, loadManifest } from '../../generator/pipeline.js';

const SUPPORT = join('manifests', 'support-desk', 'mcp.manifest.yaml');
const SEED_FIELDS = ['Outcome', 'Controller', 'Data owner', 'Freshness', 'Side effect', 'Permission check', 'Audit event', 'Failures', 'Context cost', 'Rollback'];

async function cards(manifest: string): Promise<string> {
  const out = await compileManifest(manifest);
  return out.files.find((f) => f.path === 'CONTRACTS.md')!.content;
}

/** Card sections by heading (`Tool \`tickets.get\``), each with its rows label → value. */
function parse(md: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const section of md.split(/^### /m).slice(1)) {
    const heading = section.split('\n')[0]!.replace(/ — .*$/, '');
    const rows = new Map<string, string>();
    for (const m of section.matchAll(/^\| ([^|]+?) \| (.+) \|$/gm)) rows.set(m[1]!, m[2]!);
    out.set(heading, rows);
  }
  return out;
}

describe('contract cards', () => {
  it('give every primitive every field of the seed card, shapes included', async () => {
    const all = parse(await cards(SUPPORT));
    expect(all.size).toBe(10);
    for (const [heading, rows] of all) {
      for (const field of SEED_FIELDS) expect(rows.has(field), `${heading}: ${field}`).toBe(true);
      if (heading.startsWith('Tool')) for (const f of ['Input', 'Output']) expect(rows.has(f), `${heading}: ${f}`).toBe(true);
      if (heading.startsWith('Resource')) for (const f of ['MIME type', 'Classification', 'Audience', 'Size budget']) expect(rows.has(f), `${heading}: ${f}`).toBe(true);
      if (heading.startsWith('Prompt')) expect(rows.has('Arguments')).toBe(true);
    }
  });

  it('state the declared outcome, owner, freshness, budget, permission, audit fields and rollback', async () => {
    const all = parse(await cards(SUPPORT));
    const policy = all.get('Resource `refund-policy`')!;
    expect(policy.get('Outcome')).toBe('The assistant cites the approved refund policy revision it reviewed against.');
    expect(policy.get('Data owner')).toBe('finance policy office');
    expect(policy.get('Classification')).toBe('internal');
    expect(policy.get('Freshness')).toContain('revision `2026-09`');
    // Asked public, sent private: only its audience may read it.
    expect(policy.get('Freshness')).toContain('`ttlMs` 86400000 ms (1 d), `cacheScope` private (private: audience-restricted)');
    expect(policy.get('Permission check')).toMatch(/^audience `support-agents` \(checked before anything else: .*-32602 `Resource not found`/);
    expect(policy.get('Failures')).toContain('a caller outside the audience → the same -32602 as an unknown URI');
    expect(policy.get('Size budget')).toContain('65536 bytes');
    expect(policy.get('Rollback')).toContain('`MCP_DISABLE=resource:refund-policy`');
    expect(policy.get('Rollback')).toContain('prompts that embed it: `draft_refund_review`');
    // The ticket declares public-ish defaults but is scoped and confidential: sent private.
    expect(all.get('Resource `ticket`')!.get('Freshness')).toContain('`cacheScope` private');
    const submit = all.get('Tool `refunds.submit`')!;
    expect(submit.get('Permission check')).toContain('scopes `refunds:submit`');
    expect(submit.get('Permission check')).toContain('`authorize`');
    expect(submit.get('Audit event')).toContain('`idempotencyKey`');
    expect(submit.get('Audit event')).toContain('`approval`');
    expect(submit.get('Rollback')).toContain('`--disable tool:refunds.submit`');
    expect(submit.get('Rollback')).toContain('tools that mention it: `refunds.create_draft`');
    expect(all.get('Tool `tickets.get`')!.get('Audit event')).not.toContain('idempotencyKey');
  });

  it('print per tool and for the catalog the token count lint MG723 budgets', async () => {
    const md = await cards(SUPPORT);
    const tools = [...parse(md)].filter(([h]) => h.startsWith('Tool')).map(([, rows]) => Number(/≈ (\d+) tokens/.exec(rows.get('Context cost')!)![1]));
    const total = Number(/tools ≈ (\d+)/.exec(md)![1]);
    expect(tools.reduce((a, b) => a + b, 0)).toBe(total);
    // Lint's own finding, with a budget of one token, names the same total.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-cards-'));
    try {
      cpSync(join('manifests', 'support-desk'), dir, { recursive: true });
      const file = join(dir, 'mcp.manifest.yaml');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nlint:\n  budget: { contextBudgetTokens: 1 }\n`);
      const r = await loadManifest(file);
      const mg723 = r.diagnostics.find((d) => d.code === 'MG723');
      expect(mg723?.message).toContain(`costs about ${total} tokens`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('say when outcome and owner are missing', async () => {
    const all = parse(await cards(join('test', 'fixtures', 'lint', 'MG729', 'fail.yaml')));
    const p = all.get('Prompt `review_refund`')!;
    expect(p.get('Outcome')).toContain('not declared');
    expect(p.get('Data owner')).toContain('not declared');
  });
});
