/**
 * Data of the support-desk example: a handful of tickets, the invoices they refer to, and the refund
 * drafts created through the tools. What changes (ticket statuses, drafts, counters) lives in the
 * handlers' state store (`ctx.state`): by default one per process, shared by every server instance; the
 * contract suites give each flow its own and see every write, so a read that changes state is caught.
 * Invoices and histories never change and stay constants.
 */
import type { StateStore } from 'mcp-gen/runtime';
import type { Invoice, RefundDraft, Ticket } from '../types.gen.js';

/** One event of a ticket's history; kept apart from `Ticket`, whose schema is closed. */
export interface TicketEvent {
  readonly at: string;
  readonly actor: string;
  readonly text: string;
}

const SEED_TICKETS: readonly Ticket[] = [
  { id: 'T-1001', status: 'open', subject: 'Charged twice for the September Pro plan', customerId: 'C-501', invoiceId: 'INV-2001' },
  { id: 'T-1002', status: 'pending', subject: 'Cannot log in after password reset', customerId: 'C-502' },
  { id: 'T-1003', status: 'closed', subject: 'Charged twice after plan upgrade', customerId: 'C-503', invoiceId: 'INV-2003' },
  { id: 'T-1004', status: 'open', subject: 'Refund for the 12 September outage', customerId: 'C-501', invoiceId: 'INV-2004' },
  { id: 'T-1005', status: 'closed', subject: 'Invoice shows the wrong VAT rate', customerId: 'C-504', invoiceId: 'INV-2005' },
  { id: 'T-1006', status: 'open', subject: 'CSV export times out for large workspaces', customerId: 'C-505' },
];

const history: Record<string, readonly TicketEvent[]> = {
  'T-1001': [
    { at: '2026-09-03T08:12:00Z', actor: 'customer', text: 'My card was charged 15.00 EUR twice on 1 September.' },
    { at: '2026-09-03T09:40:00Z', actor: 'agent:mia', text: 'Confirmed two identical lines on INV-2001; asked billing to check the payment run.' },
  ],
  'T-1002': [
    { at: '2026-09-10T14:02:00Z', actor: 'customer', text: 'The reset link works, but logging in afterwards fails.' },
    { at: '2026-09-10T15:30:00Z', actor: 'agent:ole', text: 'Cleared the stale session; waiting for the customer to retry.' },
  ],
  'T-1003': [
    { at: '2026-08-20T10:00:00Z', actor: 'customer', text: 'Upgrading to Pro charged me for both plans.' },
    { at: '2026-08-21T11:15:00Z', actor: 'agent:mia', text: 'Refunded the Basic plan charge (RD-1); customer confirmed receipt.' },
  ],
  'T-1004': [{ at: '2026-09-13T07:45:00Z', actor: 'customer', text: 'The service was down for most of 12 September; I would like a partial refund.' }],
  'T-1005': [
    { at: '2026-07-02T16:20:00Z', actor: 'customer', text: 'The invoice uses 19% VAT; my country uses 21%.' },
    { at: '2026-07-03T09:05:00Z', actor: 'agent:ole', text: 'Billing reissued the invoice with the right rate. Closed.' },
  ],
  'T-1006': [{ at: '2026-09-15T12:00:00Z', actor: 'customer', text: 'Exporting 40k rows to CSV never finishes.' }],
};

const invoices: Invoice[] = [
  {
    id: 'INV-2001',
    customerId: 'C-501',
    amountMinor: 3000,
    currency: 'EUR',
    lines: [
      { description: 'Pro plan, September 2026', amountMinor: 1500 },
      { description: 'Pro plan, September 2026 (second charge)', amountMinor: 1500 },
    ],
  },
  {
    id: 'INV-2003',
    customerId: 'C-503',
    amountMinor: 2400,
    currency: 'USD',
    lines: [
      { description: 'Basic plan, August 2026', amountMinor: 900 },
      { description: 'Pro plan, August 2026', amountMinor: 1500 },
    ],
  },
  { id: 'INV-2004', customerId: 'C-501', amountMinor: 4500, currency: 'EUR', lines: [{ description: 'Team plan, September 2026', amountMinor: 4500 }] },
  { id: 'INV-2005', customerId: 'C-504', amountMinor: 1815, currency: 'EUR', lines: [{ description: 'Pro plan, June 2026 incl. 21% VAT', amountMinor: 1815 }] },
];

type StoredDraft = RefundDraft & { paymentReference?: string };

/** RD-1 is an earlier, already paid refund. */
const SEED_DRAFTS: Readonly<Record<string, StoredDraft>> = {
  'RD-1': { draftId: 'RD-1', invoiceId: 'INV-2003', amountMinor: 900, currency: 'USD', reasonCode: 'duplicate', status: 'submitted', paymentReference: 'PAY-2026-0001' },
};
const SEED_COUNTERS = { nextDraft: 2, nextPayment: 2 };

/** A copy, so callers cannot mutate the constants by accident. */
const copy = <T extends object>(value: T): T => structuredClone(value);

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` alone: every read-modify-write of the store goes through here, so two concurrent calls
 * never both take the same draft number or both miss each other's draft.
 */
export function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

const ticketsOf = async (state: StateStore): Promise<Ticket[]> => (await state.get<Ticket[]>('tickets')) ?? SEED_TICKETS.map(copy);
const draftsOf = async (state: StateStore): Promise<Record<string, StoredDraft>> => (await state.get<Record<string, StoredDraft>>('drafts')) ?? copy(SEED_DRAFTS);
const countersOf = async (state: StateStore): Promise<typeof SEED_COUNTERS> => (await state.get<typeof SEED_COUNTERS>('counters')) ?? { ...SEED_COUNTERS };

export async function findTicket(state: StateStore, id: string): Promise<Ticket | undefined> {
  return (await ticketsOf(state)).find((t) => t.id === id);
}

export async function allTickets(state: StateStore): Promise<Ticket[]> {
  return ticketsOf(state);
}

export function ticketHistory(id: string): readonly TicketEvent[] {
  return history[id] ?? [];
}

/** Ids of known tickets starting with `prefix`, for completion. */
export async function ticketIdsStartingWith(state: StateStore, prefix: string): Promise<string[]> {
  return (await ticketsOf(state)).map((t) => t.id).filter((id) => id.startsWith(prefix));
}

/** Moves the open tickets of an invoice to `pending`; returns the ids that changed. */
export async function markInvoiceTicketsPending(state: StateStore, invoiceId: string): Promise<string[]> {
  const tickets = await ticketsOf(state);
  const changed = tickets.filter((t) => t.invoiceId === invoiceId && t.status === 'open');
  if (changed.length === 0) return [];
  for (const t of changed) t.status = 'pending';
  await state.set('tickets', tickets);
  return changed.map((t) => t.id);
}

export function findInvoice(id: string): Invoice | undefined {
  const found = invoices.find((i) => i.id === id);
  return found && copy(found);
}

/** Sum already promised to the customer for an invoice (open drafts and paid refunds). */
export async function refundedOrDrafted(state: StateStore, invoiceId: string): Promise<number> {
  let sum = 0;
  for (const d of Object.values(await draftsOf(state))) if (d.invoiceId === invoiceId) sum += d.amountMinor;
  return sum;
}

/** The open draft with exactly these terms, so a retried call returns it instead of a duplicate. */
export async function findSameDraft(state: StateStore, terms: Omit<RefundDraft, 'draftId' | 'status'>): Promise<RefundDraft | undefined> {
  for (const d of Object.values(await draftsOf(state))) {
    if (d.status === 'draft' && d.invoiceId === terms.invoiceId && d.amountMinor === terms.amountMinor && d.currency === terms.currency && d.reasonCode === terms.reasonCode) {
      return toDraft(d);
    }
  }
  return undefined;
}

export async function createDraft(state: StateStore, terms: Omit<RefundDraft, 'draftId' | 'status'>): Promise<RefundDraft> {
  const counters = await countersOf(state);
  const drafts = await draftsOf(state);
  const draft: RefundDraft = { draftId: `RD-${counters.nextDraft++}`, ...toTerms(terms), status: 'draft' };
  drafts[draft.draftId] = draft;
  await state.set('counters', counters);
  await state.set('drafts', drafts);
  return copy(draft);
}

export async function findDraft(state: StateStore, id: string): Promise<StoredDraft | undefined> {
  const drafts = await draftsOf(state);
  return Object.hasOwn(drafts, id) ? drafts[id] : undefined;
}

/** Marks a draft submitted and returns its new payment reference. */
export async function submitDraft(state: StateStore, id: string): Promise<string> {
  const drafts = await draftsOf(state);
  const draft = Object.hasOwn(drafts, id) ? drafts[id] : undefined;
  if (!draft) throw new Error(`unknown draft ${id}`);
  const counters = await countersOf(state);
  const reference = `PAY-2026-${String(counters.nextPayment++).padStart(4, '0')}`;
  draft.status = 'submitted';
  draft.paymentReference = reference;
  await state.set('counters', counters);
  await state.set('drafts', drafts);
  return reference;
}

/** The terms of a draft, without whatever else the caller's object carries. */
function toTerms(t: Omit<RefundDraft, 'draftId' | 'status'>): Omit<RefundDraft, 'draftId' | 'status'> {
  const { invoiceId, amountMinor, currency, reasonCode } = t;
  return { invoiceId, amountMinor, currency, reasonCode };
}

/** A `RefundDraft` without store-only fields (the output schema is closed). */
function toDraft(d: RefundDraft): RefundDraft {
  const { draftId, invoiceId, amountMinor, currency, reasonCode, status } = d;
  return { draftId, invoiceId, amountMinor, currency, reasonCode, status };
}
