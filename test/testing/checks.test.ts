/**
 * The contract suites' checks (`mcp-gen/testing`) must fail when the behaviour they check is missing.
 * Each check runs once against the support-desk example as generated (it passes) and once with the
 * gate it exercises switched off or the expectation changed (it must reject).
 */
import { describe, expect, it } from 'vitest';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import * as S from '../../generated/support-desk/schemas.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';
import type { ServerOptions } from '../../generator/runtime/index.js';
import {
  argsFor,
  contractHarness,
  eras,
  expectCanariesRefused,
  expectExample,
  expectListed,
  expectMessages,
  expectPromptBuilds,
  expectReadable,
  promptGates,
  resourceGates,
  toolGates,
  type Connection,
  type PlainConnect,
  type SpiedConnect,
} from '../../generator/testing/index.js';

const harness = contractHarness(createServer, handlers);
const era = eras[1];
const skippable = { skip: (note?: string): never => { throw new Error(`skipped: ${note}`); } };

/** `connectSpied` with one server option removed: the gate that option drives is switched off. */
const without = (option: keyof ServerOptions): SpiedConnect => (e, kind, id, options, replace, elicit) => {
  const rest = { ...options };
  delete rest[option];
  return harness.connectSpied(e, kind, id, rest, replace, elicit);
};
/** `connectSpied` that ignores the replacement handler (the real one answers) or the client's confirmation answer. */
const realHandler: SpiedConnect = (e, kind, id, options, _replace, elicit) => harness.connectSpied(e, kind, id, options, undefined, elicit);
const noConfirmation: SpiedConnect = (e, kind, id, options, replace) => harness.connectSpied(e, kind, id, options, replace, 'none');
const plainWithout = (option: keyof ServerOptions): PlainConnect => (e, _h, options = {}) => {
  const rest = { ...options };
  delete rest[option];
  return harness.connect(e, undefined, rest);
};

const ticket = { id: 'ticketsGet', name: 'tickets.get', input: { ticketId: 'T-1001' } };
const draft = { id: 'refundsCreateDraft', name: 'refunds.create_draft', input: { invoiceId: 'INV-2001', amountMinor: 1500, currency: 'EUR', reasonCode: 'duplicate' }, key: true, receipt: true };
const submit = { id: 'refundsSubmit', name: 'refunds.submit', input: { draftId: 'RD-0' }, key: true, receipt: true };
const draftResult = { draftId: 'RD-0', invoiceId: 'INV-2001', amountMinor: 1500, currency: 'EUR', reasonCode: 'duplicate', status: 'draft' };

describe('tool gate checks', () => {
  it('pass against the generated server', async () => {
    const gates = harness.toolGates(era, ticket);
    await gates.withoutScope(['refunds:draft']);
    await gates.otherTenant();
    await gates.oversized();
    await gates.badOutput();
    const keyed = harness.toolGates(era, draft);
    await keyed.missingKey();
    await keyed.replay(draftResult);
    await keyed.keyConflict({ ...draft.input, amountMinor: 1600 }, draftResult);
    await keyed.inProgress(draftResult);
    await keyed.prototypeKey(draftResult);
    const approved = harness.toolGates(era, submit);
    await approved.inProgress({ draftId: 'sample', status: 'submitted', paymentReference: 'sample' });
    await approved.receiptReused({ draftId: 'sample', status: 'submitted', paymentReference: 'sample' });
    await approved.noApproval();
    await approved.wrongReceipt();
    await approved.declined();
    await approved.confirmed();
  });

  it('fail when the scope, authorize, size or output gate is off', async () => {
    await expect(toolGates(without('scopes'), era, ticket).withoutScope(['refunds:draft'])).rejects.toThrow();
    await expect(toolGates(without('authorize'), era, ticket).otherTenant()).rejects.toThrow();
    await expect(toolGates(without('limits'), era, ticket).oversized()).rejects.toThrow();
    await expect(toolGates(realHandler, era, ticket).badOutput()).rejects.toThrow();
  });

  it('fail against a tool without the idempotency gate', async () => {
    await expect(toolGates(harness.connectSpied, era, ticket).missingKey()).rejects.toThrow();
    await expect(toolGates(realHandler, era, ticket).replay({ ok: true })).rejects.toThrow();
    await expect(toolGates(harness.connectSpied, era, ticket).keyConflict({ ticketId: 'T-1002' }, { ok: true })).rejects.toThrow();
    await expect(toolGates(harness.connectSpied, era, { ...ticket, key: true }).inProgress({ id: 'T-1001', status: 'open' })).rejects.toThrow();
    await expect(toolGates(harness.connectSpied, era, { ...ticket, key: true }).prototypeKey({ id: 'T-1001', status: 'open' })).rejects.toThrow();
  });

  it('fail when a receipt may authorize a second call', async () => {
    await expect(toolGates(harness.connectSpied, era, ticket).receiptReused({ id: 'T-1001', status: 'open' })).rejects.toThrow();
  });

  it('fail against a tool without the approval gate, and when the client does not confirm', async () => {
    const readOnly = toolGates(harness.connectSpied, era, ticket);
    await expect(readOnly.noApproval()).rejects.toThrow();
    await expect(readOnly.wrongReceipt()).rejects.toThrow();
    await expect(readOnly.declined()).rejects.toThrow();
    await expect(toolGates(noConfirmation, era, submit).confirmed()).rejects.toThrow();
  });
});

describe('resource and prompt gate checks', () => {
  const ticketResource = { id: 'ticket', name: 'ticket', uri: 'support://tickets/T-0965', template: true };
  const policy = { name: 'refund-policy', uri: 'support://policies/refunds/2026-09', template: false };
  const prompt = { id: 'summarizeTicket', name: 'summarize_ticket', args: { ticketId: 'T-0965' } };

  it('pass against the generated server', async () => {
    const r = harness.resourceGates(era, ticketResource);
    await r.withoutScope(['refunds:draft']);
    await r.otherTenant();
    await r.badContent();
    await harness.resourceGates(era, policy).otherTenant();
    const p = harness.promptGates(era, prompt);
    await p.otherTenant();
    await p.oversized('ticketId');
  });

  it('fail when the gate is off', async () => {
    const plain = harness.connect;
    await expect(resourceGates(plain, without('scopes'), era, ticketResource).withoutScope(['refunds:draft'])).rejects.toThrow();
    await expect(resourceGates(plain, without('authorize'), era, ticketResource).otherTenant()).rejects.toThrow();
    await expect(resourceGates(plainWithout('authorize'), harness.connectSpied, era, policy).otherTenant()).rejects.toThrow();
    await expect(resourceGates(plain, realHandler, era, ticketResource).badContent()).rejects.toThrow();
    await expect(promptGates(plain, without('authorize'), era, prompt).otherTenant()).rejects.toThrow();
    await expect(promptGates(plain, without('limits'), era, prompt).oversized('ticketId')).rejects.toThrow();
  });
});

describe('listing, example and content checks', () => {
  const withConnection = async (body: (h: Connection) => Promise<void>) => {
    const h = await harness.connect(era);
    try {
      await body(h);
    } finally {
      await h.close();
    }
  };

  it('fail when the listing, the output or the messages differ from what is expected', async () => {
    await withConnection(async (h) => {
      const { tools } = await h.client.listTools();
      const listed = tools.find((t) => t.name === 'tickets.get')!;
      await expectListed(h, 'tool', listed as Record<string, unknown>);
      await expect(expectListed(h, 'tool', { ...listed, description: `${listed.description} ` })).rejects.toThrow();
      await expect(expectListed(h, 'prompt', { name: 'no.such.prompt' })).rejects.toThrow();

      await expectExample(h, skippable, 'tickets.get', { ticketId: 'T-1001' }, { output: S.ticketsGetOutput });
      await expect(expectExample(h, skippable, 'tickets.get', { ticketId: 'T-1001' }, { exact: { id: 'T-9999' } })).rejects.toThrow();
      await expect(expectExample(h, skippable, 'refunds.create_draft', draft.input)).rejects.toThrow(); // no idempotency key: isError
      await expectExample(h, skippable, 'refunds.create_draft', argsFor(draft.input, { key: true, receipt: true }));

      const rendered = await h.client.getPrompt({ name: 'draft_refund_review', arguments: { ticketId: 'T-0965' } });
      const first = rendered.messages[0] as { role: string; content: { type: 'text'; text: string } };
      await expectMessages(h, undefined, 'draft_refund_review', { ticketId: 'T-0965' }, [first]);
      await expect(expectMessages(h, undefined, 'draft_refund_review', { ticketId: 'T-0965' }, [{ ...first, content: { ...first.content, text: 'other' } }])).rejects.toThrow();
    });
  });

  it('canary check fails when a "canary" is a value the server accepts', async () => {
    await withConnection(async (h) => {
      await expectCanariesRefused(h, 'support://tickets/{ticketId}', { ticketId: 'T-0965' }, 'ticketId', ['..%2F..%2Fetc%2Fpasswd']);
      await expect(expectCanariesRefused(h, 'support://tickets/{ticketId}', { ticketId: 'T-0965' }, 'ticketId', ['T-1001'])).rejects.toThrow();
    });
  });

  it('skip with their reason, instead of passing without an assertion, when the handler finds nothing', async () => {
    await withConnection(async (h) => {
      const nothing = /skipped: the handler found nothing for made-up values/;
      await expect(expectReadable(h, skippable, 'support://tickets/T-9999', { mimeType: 'application/json', textual: true }, true)).rejects.toThrow(nothing);
      await expect(expectPromptBuilds(h, skippable, 'summarize_ticket', { ticketId: 'T-9999' })).rejects.toThrow(nothing);
      await expectReadable(h, skippable, 'support://tickets/T-1001', { mimeType: 'application/json', textual: true }, true);
    });
  });
});
