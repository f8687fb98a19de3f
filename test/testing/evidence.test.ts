/**
 * The evidence pack of the support-desk case, item by item, and its determinism: two runs differ only in
 * the fields the pack names as nondeterministic.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';
import { contractHarness, eras, failureSummary, runScenario, type EvidencePack, type ScenarioSpec } from '../../generator/testing/index.js';

const harness = contractHarness(createServer, handlers);
const lockFile = 'generated/support-desk/mcp.lock.json';
const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { catalogHash: string; tools: Record<string, { hash: string }> };

/** The support case, as the manifest declares it (taken from the generated suite's source of truth, the manifest). */
const supportCase: ScenarioSpec = {
  name: 'refund-review',
  steps: [
    { id: 'review', prompt: 'draft_refund_review', arguments: { ticketId: 'T-1001', depth: 'full' } },
    { id: 'policy', read: 'support://policies/refunds/2026-09', resource: 'refund-policy', revision: '2026-09' },
    { id: 'ticket', call: 'tickets.get', input: { ticketId: 'T-1001' }, key: false, expect: 'ok' },
    { id: 'draft', call: 'refunds.create_draft', input: { invoiceId: 'INV-2001', amountMinor: 1500, currency: 'EUR', reasonCode: 'duplicate' }, key: true, confirm: 'accept', expect: 'ok' },
    { id: 'submit', call: 'refunds.submit', input: { draftId: 'RD-2' }, key: true, confirm: 'accept', expect: 'ok' },
    { assert: { result: 'submit', path: '/status', equals: 'submitted' } },
    { assert: { read: 'support://tickets/T-1001', path: '/status', equals: 'pending', because: 'the ticket waits for the refund' } },
  ],
};

/** The pack without the fields it names as nondeterministic. */
function stable(pack: EvidencePack): unknown {
  const { startedAt: _s, finishedAt: _f, audit, ...rest } = pack;
  return { ...rest, audit: audit.map(({ time: _t, durationMs: _d, ...event }) => event) };
}

describe.each(eras)('evidence pack of the support case ($name)', (era) => {
  it('holds every item the review needs', async () => {
    const pack = await runScenario(harness.connect, era, supportCase, { lockFile });
    expect(failureSummary(pack)).toEqual([]);
    expect(pack.protocolVersion).toBe(era.name);
    expect(pack.capabilityManifest.serverInfo).toMatchObject({ name: 'support-desk', version: '1.4.0' });
    expect(pack.capabilityManifest.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(pack.catalog.served.tools['tickets.get']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(pack.catalog.lock?.catalogHash).toBe(lock.catalogHash);
    expect(pack.catalog.lock?.tools['refunds.submit']).toBe(lock.tools['refunds.submit']!.hash);
    const [prompt, read, ticket, draft, submit] = pack.steps;
    expect(prompt).toMatchObject({ kind: 'prompt', prompt: 'draft_refund_review', sha256: expect.stringMatching(/^sha256:/) });
    expect(JSON.stringify((prompt!['rendered'] as { messages: unknown }).messages)).toContain('Review ticket T-1001 at full depth.');
    expect(read).toMatchObject({ kind: 'read', uri: 'support://policies/refunds/2026-09', revision: { expected: '2026-09', served: '2026-09' } });
    expect(ticket).toMatchObject({ kind: 'call', tool: 'tickets.get', input: { ticketId: 'T-1001' }, result: { isError: false, structuredContent: { id: 'T-1001', invoiceId: 'INV-2001' } } });
    expect(draft).toMatchObject({ tool: 'refunds.create_draft', idempotencyKey: 'scenario:refund-review:4', confirm: 'accept', result: { structuredContent: { draftId: 'RD-2', status: 'draft' } } });
    expect(submit).toMatchObject({ tool: 'refunds.submit', confirm: 'accept', result: { structuredContent: { status: 'submitted' } } });
    // The draft write passes its own confirmation, before and apart from the submission's.
    expect(pack.approvals).toEqual([
      expect.objectContaining({ step: 4, tool: 'refunds.create_draft', answer: 'accept', receipt: 'elicitation', outcome: 'ok', request: expect.objectContaining({ message: expect.stringContaining('INV-2001') }) }),
      expect.objectContaining({ step: 5, tool: 'refunds.submit', answer: 'accept', receipt: 'elicitation', outcome: 'ok', request: expect.objectContaining({ message: expect.stringContaining('RD-2') }) }),
    ]);
    const drafts = pack.finalState.state['drafts'] as Record<string, { status: string }>;
    expect(drafts['RD-2']?.status).toBe('submitted');
    expect(pack.finalState.reads).toEqual([expect.objectContaining({ uri: 'support://tickets/T-1001' })]);
    expect(pack.audit.map((e) => `${e.kind} ${e.name} ${e.outcome}`)).toEqual([
      'prompt draft_refund_review ok',
      'resource refund-policy ok',
      'tool tickets.get ok',
      'tool refunds.create_draft approval_required',
      'tool refunds.create_draft ok',
      // The server asks for the user's confirmation first (audited), then runs the confirmed call.
      'tool refunds.submit approval_required',
      'tool refunds.submit ok',
      'resource ticket ok',
    ]);
    expect(pack.effects.map((e) => `${e.step} ${e.primitive.name} ${e.op} ${e.target}`)).toContain('5 refunds.submit resource-updated support://tickets/T-1001');
    expect(pack.gates.map((g) => `${g.gate}: ${g.check} ${g.passed}`)).toContain('quality: stale revision true');
    expect(pack.verdict.assertions.map((a) => a.passed)).toEqual([true, true, true, true, true]);
    expect(pack.verdict.passed).toBe(true);
  });

  it('is the same on a second run apart from the fields it names', async () => {
    const first = await runScenario(harness.connect, era, supportCase, { lockFile });
    const second = await runScenario(harness.connect, era, supportCase, { lockFile });
    expect(first.nondeterministic).toEqual(['startedAt', 'finishedAt', 'audit[].time', 'audit[].durationMs']);
    expect(stable(second)).toEqual(stable(first));
  });

  it('records a failed assertion as the reviewer verdict, naming the step', async () => {
    const spec: ScenarioSpec = { name: 'wrong', steps: [{ id: 't', call: 'tickets.get', input: { ticketId: 'T-1001' }, key: false, expect: 'ok' }, { assert: { result: 't', path: '/status', equals: 'closed', because: 'the ticket is closed' } }] };
    const pack = await runScenario(harness.connect, era, spec);
    expect(pack.verdict.passed).toBe(false);
    expect(failureSummary(pack)).toEqual(['reviewer verdict (step 2) the ticket is closed: expected "closed", got "open"']);
  });
});
