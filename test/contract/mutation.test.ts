/**
 * The contract suites must catch a wrong derivation. The support-desk server is emitted twice into a
 * scratch folder: once as the contract phase computes it, once from a contract with four deliberate
 * mistakes (a wrong annotation, a wrong MIME type, a dropped prompt argument, a dropped control
 * argument). Both copies get the suites generated from the true IR, and both are run: the true copy
 * passes the listing tests, the mistaken one fails exactly the tests of the primitives it got wrong.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContract } from '../../generator/contract/index.js';
import type { Contract, PromptContract, ResourceContract, ToolContract } from '../../generator/contract/types.js';
import { emitAll } from '../../generator/emit/index.js';
import { loadManifest } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';

/** The contract with one mistake per kind, as a wrong derivation in the contract phase would make it. */
function mistaken(c: Contract): Contract {
  const tool = (t: ToolContract): ToolContract => {
    if (t.name === 'tickets.get') return { ...t, listing: { ...t.listing, annotations: { ...t.listing.annotations, readOnlyHint: false } } };
    if (t.name !== 'refunds.create_draft') return t;
    const schema = t.listing.inputSchema as { properties: Record<string, unknown>; required: string[] };
    const { idempotencyKey: _, ...properties } = schema.properties;
    return { ...t, listing: { ...t.listing, inputSchema: { ...schema, properties, required: schema.required.filter((n) => n !== 'idempotencyKey') } } };
  };
  const resource = (r: ResourceContract): ResourceContract =>
    r.name === 'refund-policy' ? { ...r, listing: { ...r.listing, mimeType: 'text/plain' }, content: { ...r.content, mimeType: 'text/plain' } } : r;
  const prompt = (p: PromptContract): PromptContract =>
    p.name === 'summarize_ticket'
      ? { ...p, listing: { ...p.listing, arguments: (p.listing.arguments ?? []).filter((a) => a.name !== 'maxWords') }, arguments: p.arguments.filter((a) => a.name !== 'maxWords') }
      : p;
  return { ...c, tools: c.tools.map(tool), resources: c.resources.map(resource), prompts: c.prompts.map(prompt) };
}

interface Report {
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

const LISTINGS = ['tool tickets.get is listed', 'tool refunds.create_draft is listed', 'resource refund-policy is listed', 'prompt summarize_ticket is listed'];

describe('contract suites against a wrong derivation', () => {
  const root = join(repoRoot, `.tmp-mutation-${randomBytes(4).toString('hex')}`);
  let report: Report;

  beforeAll(async () => {
    const ir = (await loadManifest(join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml'))).ir!;
    const truth = await emitAll(ir, buildContract(ir));
    const wrong = await emitAll(ir, mistaken(buildContract(ir)));
    const suites = truth.filter((f) => f.path.startsWith('contract/'));
    for (const [folder, files] of [['true', truth], ['mistaken', [...wrong.filter((f) => !f.path.startsWith('contract/')), ...suites]]] as const) {
      for (const f of files) {
        const path = join(root, folder, f.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, f.content);
      }
    }
    // Its own config: the repository's excludes scratch folders like this one.
    const config = join(root, 'vitest.config.mjs');
    await writeFile(config, `export default { test: { include: ['*/contract/*.test.ts'], testTimeout: 30000, hookTimeout: 30000 } };\n`);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const out = join(root, 'report.json');
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root, '--config', config, '--reporter=json', `--outputFile=${out}`], { cwd: root, env, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    report = JSON.parse(await readFile(out, 'utf8')) as Report;
  }, 240_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const results = (folder: string) => report.testResults.filter((r) => r.name.includes(`/${folder}/`)).flatMap((r) => r.assertionResults);
  const statusOf = (folder: string, title: string) => [...new Set(results(folder).filter((a) => a.fullName.includes(title)).map((a) => a.status))];

  it('passes the listing tests of the true server, in both eras', () => {
    for (const title of LISTINGS) expect(statusOf('true', title), title).toEqual(['passed']);
    expect(results('true').filter((a) => a.status === 'failed').map((a) => a.fullName)).toEqual([]);
  });

  it('fails the listing test of every primitive the mistaken contract got wrong, and only those', () => {
    for (const title of LISTINGS) expect(statusOf('mistaken', title), title).toEqual(['failed']);
    const failed = new Set(results('mistaken').filter((a) => a.status === 'failed').map((a) => a.fullName.replace(/^.*?\) /, '')));
    // draft_refund_review embeds refund-policy, so it sees the wrong MIME type as well.
    const touched = ['tool tickets.get', 'tool refunds.create_draft', 'resource refund-policy', 'prompt summarize_ticket', 'prompt draft_refund_review'];
    for (const name of failed) expect(touched.some((t) => name.startsWith(t)), name).toBe(true);
  });

  it('fails the read of the resource served with the wrong MIME type', () => {
    expect(statusOf('mistaken', 'resource refund-policy serves its source file with the declared MIME type')).toEqual(['failed']);
  });
});
