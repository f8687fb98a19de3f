/**
 * The seed's named gates must fail, naming their gate, when the fault they guard against is injected:
 * a hidden write in a resource handler (or a prompt that announces a change), a stale revision, and a
 * retry after an ambiguous timeout that runs the effect twice. Each check first passes against the
 * support-desk example as generated.
 */
import { describe, expect, it } from 'vitest';
import { createDraft, markInvoiceTicketsPending } from '../../generated/support-desk/handlers/data.js';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';
import { memoryStore, type ServerOptions, type StateStore } from '../../generator/runtime/index.js';
import type { SharedStore } from '../../generator/runtime/store/types.js';
import {
  contractHarness,
  eras,
  expectDeclaredRevision,
  expectNoHiddenEffect,
  expectRetryAfterTimeout,
  failureSummary,
  runScenario,
  spyOn,
  type Elicit,
  type Era,
  type ScenarioSpec,
  type SpiedConnect,
} from '../../generator/testing/index.js';

type Handlers = typeof handlers;
const harness = contractHarness(createServer, handlers);

/** `connect` bound to other handlers: the fault lives in them. */
const connectWith = (h: Handlers) => (era: Era, _handlers: undefined, options: ServerOptions, elicit?: Elicit) => harness.connect(era, h, options, elicit);

/** The ticket resource with a hidden write: reading a ticket marks its invoice's tickets pending. */
const hiddenWrite: Handlers = {
  ...handlers,
  resources: {
    ...handlers.resources,
    ticket: {
      ...handlers.resources.ticket,
      async read(params, ctx) {
        const ticket = await handlers.resources.ticket.read(params, ctx);
        if (ticket.invoiceId !== undefined) await markInvoiceTicketsPending(ctx.state, ticket.invoiceId);
        return ticket;
      },
    },
  },
};

/** A prompt whose get announces that a resource changed: an effect too. */
const noisyPrompt: Handlers = {
  ...handlers,
  prompts: {
    ...handlers.prompts,
    summarizeTicket: {
      async get(args, ctx) {
        await ctx.notifyResourceUpdated(`support://tickets/${args.ticketId}`);
        return handlers.prompts.summarizeTicket.get(args, ctx);
      },
    },
  },
};

describe.each(eras)('named gates under injected faults ($name)', (era) => {
  describe('hard gate · hidden side effect', () => {
    it('passes for the example as written', async () => {
      await expectNoHiddenEffect(harness.connect, era, { kind: 'resource', uri: 'support://tickets/T-1001', list: true });
      await expectNoHiddenEffect(harness.connect, era, { kind: 'prompt', name: 'summarize_ticket', args: { ticketId: 'T-1001' } });
    });

    it('fails when a resource handler writes state', async () => {
      await expect(expectNoHiddenEffect(connectWith(hiddenWrite), era, { kind: 'resource', uri: 'support://tickets/T-1001' })).rejects.toThrow(
        /hard gate · hidden side effect: reading support:\/\/tickets\/T-1001 changed state \(resource ticket set tickets/,
      );
    });

    it('fails when a prompt announces a change', async () => {
      await expect(expectNoHiddenEffect(connectWith(noisyPrompt), era, { kind: 'prompt', name: 'summarize_ticket', args: { ticketId: 'T-1001' } })).rejects.toThrow(
        /hard gate · hidden side effect: getting prompt summarize_ticket changed state \(prompt summarize_ticket resource-updated/,
      );
    });

    it('fails a scenario whose read step writes, and names the gate and the step', async () => {
      const spec: ScenarioSpec = { name: 'hidden-write', steps: [{ read: 'support://tickets/T-1001', resource: 'ticket' }] };
      const pack = await runScenario(connectWith(hiddenWrite), era, spec);
      expect(pack.verdict.passed).toBe(false);
      expect(pack.verdict.failedGates).toEqual(['hard: hidden side effect']);
      expect(failureSummary(pack)).toEqual([expect.stringMatching(/^hard gate · hidden side effect \(step 1\): resources\/read support:\/\/tickets\/T-1001 changed state: resource ticket set tickets/)]);
    });
  });

  describe('quality gate · stale revision', () => {
    it('passes at the declared revision, in the suite check and in a scenario', async () => {
      const h = await harness.connect(era);
      try {
        await expectDeclaredRevision(h, { name: 'refund-policy', uri: 'support://policies/refunds/2026-09', revision: '2026-09' });
      } finally {
        await h.close();
      }
      const pack = await runScenario(harness.connect, era, { name: 'current', steps: [{ read: 'support://policies/refunds/2026-09', resource: 'refund-policy', revision: '2026-09' }] });
      expect(pack.verdict.passed).toBe(true);
    });

    it('fails when the server serves an older revision than the manifest declares', async () => {
      const h = await harness.connect(era);
      try {
        await expect(expectDeclaredRevision(h, { name: 'refund-policy', uri: 'support://policies/refunds/2026-09', revision: '2026-10' })).rejects.toThrow(
          /quality gate · stale revision: refund-policy is listed at revision 2026-09, the manifest declares 2026-10/,
        );
      } finally {
        await h.close();
      }
    });

    it('fails a scenario that relies on another revision than the one served', async () => {
      const spec: ScenarioSpec = { name: 'stale', steps: [{ read: 'support://policies/refunds/2026-09', resource: 'refund-policy', revision: '2026-10' }] };
      const pack = await runScenario(harness.connect, era, spec);
      expect(pack.verdict.failedGates).toEqual(['quality: stale revision']);
      expect(failureSummary(pack)).toEqual(['quality gate · stale revision (step 1): support://policies/refunds/2026-09 serves revision 2026-09, the flow relies on 2026-10']);
    });
  });

  describe('recovery gate · retry after an ambiguous timeout', () => {
    const subject = { id: 'refundsCreateDraft', name: 'refunds.create_draft', input: { invoiceId: 'INV-2001', amountMinor: 1500, currency: 'EUR', reasonCode: 'duplicate' }, receipt: true, result: { draftId: 'RD-9', invoiceId: 'INV-2001', amountMinor: 1500, currency: 'EUR', reasonCode: 'duplicate', status: 'draft' } };

    // A retry brings the same receipt, which the first attempt used up: where the first run failed, the
    // retry is refused before the handler. This case confirms each attempt afresh instead (the user
    // answers every confirmation request), so only the idempotency gate stands between the runs.
    const confirming = { ...subject, receipt: false };

    it('passes with the runtime as it is', async () => {
      await expectRetryAfterTimeout(harness.connectSpied, era, subject);
    });

    it('fails when the outcome of the first call is lost, so the retry runs the effect again', async () => {
      const forgetful: SpiedConnect = (e, kind, id, options, replace, elicit) => harness.connectSpied(e, kind, id, { ...options, store: forgetsOutcomes(memoryStore()) }, replace, elicit);
      await expect(expectRetryAfterTimeout(forgetful, era, subject)).rejects.toThrow(/recovery gate · retry after an ambiguous timeout: the retry ran refunds.create_draft again \(a duplicate effect\)/);
    });

    it('fails when the handler makes its effect and then fails because the caller gave up, so the retry makes it again', async () => {
      const committing = spyOn(handlers, 'tools', 'refundsCreateDraft', { around: () => async (...args: unknown[]) => {
        const [input, ctx] = args as [Parameters<typeof createDraft>[1], { state: StateStore; signal: AbortSignal }];
        // Writes without looking for the same draft first, then gives up because the client did.
        const draft = await createDraft(ctx.state, input);
        if (ctx.signal.aborted) throw new Error('the caller is gone');
        return draft;
      } }).handlers;
      const connectSpied: SpiedConnect = (e, kind, id, options, replace) => contractHarness(createServer, committing).connectSpied(e, kind, id, options, replace, 'accept');
      await expect(expectRetryAfterTimeout(connectSpied, era, confirming)).rejects.toThrow(/recovery gate · retry after an ambiguous timeout: the retry ran refunds.create_draft again \(a duplicate effect\): 2 runs under one key changed state/);
    });

    it('fails when an attempt is audited without its key (the audit chain is broken)', async () => {
      const keyless: SpiedConnect = (e, kind, id, options, replace, elicit) =>
        harness.connectSpied(e, kind, id, { ...options, audit: undefined, auditStream: { write: (text) => options.auditStream!.write(withoutKeys(text)) } }, replace, elicit);
      await expect(expectRetryAfterTimeout(keyless, era, subject)).rejects.toThrow(/recovery gate · retry after an ambiguous timeout: an attempt is audited without its idempotency key/);
    });
  });
});

/** Audit lines with the idempotency key dropped, as a broken audit sink would write them. */
function withoutKeys(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line) return line;
      const { idempotencyKey: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join('\n');
}

/** A store that claims every key anew and takes every receipt as unused: it never remembers that a call with the key completed. */
function forgetsOutcomes(store: SharedStore): SharedStore {
  return {
    ...store,
    name: 'forgetful',
    claimIdempotency: (claim) => store.claimIdempotency({ ...claim, key: `${claim.key}:${Math.random()}` }),
    renewIdempotencyLease: () => Promise.resolve(true),
    completeIdempotency: () => Promise.resolve(true),
    releaseIdempotency: () => Promise.resolve(),
    consumeOnce: () => Promise.resolve(true),
  };
}
