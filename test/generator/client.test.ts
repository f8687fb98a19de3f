/**
 * The typed client offers a gated tool exactly the control arguments the server accepts for it: the
 * `call` parameter comes from the same table (runtime/control.ts) as the published schema and the
 * runtime's gates. A tool with an idempotency gate and no approval gate once took an `approvalReceipt`,
 * which the server then refused as an undeclared property.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeHostClient } from '../../generated/code-host/client.gen.js';
import { handlers } from '../../generated/code-host/handlers.gen.js';
import { createServer } from '../../generated/code-host/server.gen.js';
import { compileManifest } from '../../generator/pipeline.js';
import { contractHarness, eras, freshKey, receiptFor, type Connection } from '../../generator/testing/index.js';
import { repoRoot } from '../helpers/paths.js';

const harness = contractHarness(createServer, handlers);
const issue = { repo: { owner: 'acme', name: 'rocket' }, title: 'Launch fails at T-0', labels: ['bug' as const] };

describe('typed client control arguments', () => {
  let h: Connection;
  let client: CodeHostClient;
  beforeAll(async () => {
    h = await harness.connect(eras[1]);
    client = new CodeHostClient(h.client);
  });
  afterAll(async () => {
    await h.close();
  });

  it('does not offer an approvalReceipt to a tool without an approval gate, which the server would refuse', async () => {
    // @ts-expect-error issues.create has no approval gate: its call takes an idempotency key only
    const refused = client.tools.issuesCreate(issue, { idempotencyKey: freshKey(), approvalReceipt: receiptFor(issue) });
    await expect(refused).rejects.toThrow(/approvalReceipt/);
    const accepted = await client.tools.issuesCreate(issue, { idempotencyKey: freshKey() });
    expect(accepted).toMatchObject({ title: 'Launch fails at T-0', labels: ['bug'] });
  });

  it('gives every gated tool of every example exactly the control arguments its published schema adds', async () => {
    const manifests = readdirSync(join(repoRoot, 'manifests')).map((m) => join(repoRoot, 'manifests', m, 'mcp.manifest.yaml'));
    let gated = 0;
    for (const manifest of manifests) {
      const { files, ir } = await compileManifest(manifest, { cwd: repoRoot });
      const lock = JSON.parse(files.find((f) => f.path === 'mcp.lock.json')!.content) as { tools: Record<string, { contract: { inputSchema: { properties?: object } } }> };
      const client = files.find((f) => f.path === 'client.gen.ts')!.content;
      for (const t of ir.tools) {
        const signature = new RegExp(`\\n    ${t.id}: \\(([^\\n]*)\\): `).exec(client)?.[1];
        expect(signature, `${t.name} has a client method`).toBeDefined();
        const offered = [...(/call: \{ ([^}]*) \}/.exec(signature!)?.[1] ?? '').matchAll(/(\w+)\??: string/g)].map((m) => m[1]);
        const declared = Object.keys(lock.tools[t.name]!.contract.inputSchema.properties ?? {});
        const expected = [...(t.idempotency === 'required' ? ['idempotencyKey'] : []), ...(t.approval === 'required' ? ['approvalReceipt'] : [])].filter((n) => !declared.includes(n));
        expect(offered, `${manifest}: ${t.name}`).toEqual(expected);
        if (expected.length > 0) gated++;
      }
    }
    expect(gated).toBeGreaterThan(3);
  });
});
