/**
 * verify's gate and resource checks against a generated server over Streamable HTTP behind a bearer
 * verifier (support-desk: scoped tools, resources and prompts, an approval-gated draft write and an
 * approval-gated irreversible tool, templates): the contract holds with every check green; a manifest that
 * claims a scope the server does not enforce fails, naming the primitive, both for the read and for the
 * listing that shows it; writes are only made with allowWrites.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { analyseManifest } from '../../generator/pipeline.js';
import { connectTo } from '../../generator/remote/connect.js';
import { verifyServer, type VerifyReport } from '../../generator/verify/index.js';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';

const root = resolve(import.meta.dirname, '../..');
const manifest = join(root, 'manifests/support-desk/mcp.manifest.yaml');
const expiresAt = Math.floor(Date.now() / 1000) + 3600;
let host: HttpServerHandle;

beforeAll(async () => {
  let known: Record<string, AuthInfo> = {};
  host = await startHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false, stderr: { write: () => true } }), {
    port: 0,
    stderr: { write: () => true },
    auth: { verifier: { verifyAccessToken: async (token: string) => known[token] ?? Promise.reject(new Error('unknown token')) } },
  });
  const every = ['tickets:read', 'refunds:draft', 'refunds:submit'];
  known = {
    full: { token: 'full', clientId: 'verifier', scopes: every, expiresAt, resource: new URL(host.url), extra: { sub: 'alice', tenant: 'acme', audiences: ['support-agents', 'billing-staff'] } },
    none: { token: 'none', clientId: 'verifier-2', scopes: [], expiresAt, resource: new URL(host.url), extra: { sub: 'bob', tenant: 'acme', audiences: ['support-agents', 'billing-staff'] } },
  };
});
afterAll(async () => host.close());

async function verify(path: string, allowWrites: boolean): Promise<VerifyReport> {
  const analysis = await analyseManifest(path);
  expect(analysis.contract, JSON.stringify(analysis.diagnostics.slice(0, 2))).toBeDefined();
  const client = await connectTo({ kind: 'http', url: host.url, headers: { Authorization: 'Bearer full' } });
  const unscoped = await connectTo({ kind: 'http', url: host.url, headers: { Authorization: 'Bearer none' } });
  try {
    return await verifyServer(client, analysis.contract!, { unscoped, challengeUrl: host.url, allowWrites });
  } finally {
    await Promise.all([client.close(), unscoped.close()]);
  }
}

const byName = (r: VerifyReport, name: string) => r.checks.find((c) => c.name === name);

describe('verify: gates and resources', () => {
  it('passes against the server that keeps the contract, gates included', async () => {
    const report = await verify(manifest, true);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    const names = report.checks.filter((c) => !c.skipped).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([
      'a request without a bearer token is refused with a Bearer challenge',
      'tool tickets.get is refused without its scopes (tickets:read)',
      'resource ticket is refused without its scopes (tickets:read)',
      'prompt summarize_ticket is refused without its scopes (tickets:read)',
      'tool refunds.create_draft refuses a call without an approval',
      'listings hide every scoped primitive from a caller without its scopes',
      'tool refunds.submit refuses a call without an approval',
      'resource template ticket serves a URI expanded from it',
      'an unknown resource URI is answered resource-not-found',
    ]));
  }, 60_000);

  it('does not call writes without allowWrites, and says so', async () => {
    const report = await verify(manifest, false);
    expect(byName(report, 'tool refunds.create_draft keeps its idempotency and approval gate')).toMatchObject({ ok: true, skipped: true });
    expect(byName(report, 'tool refunds.submit keeps its idempotency and approval gate')?.details[0]).toMatch(/--allow-writes/);
  }, 60_000);

  it('fails, naming the primitive, when the manifest declares a scope the server does not enforce', async () => {
    const altered = join(root, 'manifests/support-desk/.tmp-verify-altered.mcp.manifest.yaml');
    const text = readFileSync(manifest, 'utf8');
    writeFileSync(altered, text.replace('    source: ./content/logo.png\n', '    source: ./content/logo.png\n    scopes: [tickets:read]\n'));
    try {
      const report = await verify(altered, false);
      expect(report.ok).toBe(false);
      const failed = report.checks.filter((c) => !c.ok);
      expect(failed.map((c) => c.name)).toEqual(['resource brand-logo is refused without its scopes (tickets:read)', 'listings hide every scoped primitive from a caller without its scopes']);
      expect(failed[0]!.details[0]).toContain('support://brand/logo.png: it was served');
      expect(failed[1]!.details).toEqual(['resources/list shows resource brand-logo (support://brand/logo.png)']);
    } finally {
      rmSync(altered);
    }
  }, 60_000);
});
