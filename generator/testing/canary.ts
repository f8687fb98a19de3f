/**
 * The hard gate's planted cross-tenant canary. The `authorize` hook check (in `checks.ts`) proves the hook
 * is consulted; this one proves the data itself stays with its tenant: a record is planted through the
 * author's own write handler as tenant B, in the state store both tenants share, and tenant A then reads
 * it by its identifier through every read that takes one. A read that hands A the record B reads is a
 * cross-tenant read, whatever the hook says.
 */
import { expect } from 'vitest';
import { memoryState, type ServerOptions } from '../runtime/index.js';
import { expand, freshKey, receiptFor, textOf, type Around, type Connection, type Elicit, type Era, type HandlerKind, type Skippable, type Spy } from './index.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;
type Connect = (era: Era, handlers: undefined, options: ServerOptions, elicit?: Elicit) => Promise<Connection>;
type SpiedConnect = (era: Era, kind: HandlerKind, id: string, options: ServerOptions, replace?: AnyFn | Around, elicit?: Elicit) => Promise<{ c: Connection; spy: Spy }>;

/** A read that names a record by one of its inputs: a read tool's argument or a template variable. */
export type CanaryRead = { readonly tool: string; readonly args: Obj; readonly param: string } | { readonly template: string; readonly values: Obj; readonly param: string };

/** What the canary check plants and reads back. */
export interface CanarySubject {
  /** The write tool (handler id and name) that creates the record, with a valid input. */
  readonly plant: { readonly id: string; readonly tool: string; readonly input: Obj; readonly key?: boolean; readonly receipt?: boolean };
  /** The output property that names the created record. */
  readonly link: string;
  readonly reads: readonly CanaryRead[];
}

/** The two tenants of the check. The owner plants; the other one must never see it. */
export const CANARY_TENANTS = {
  owner: { tenant: 'mcpgen-tenant-b', principal: 'mcpgen-canary-owner' },
  other: { tenant: 'mcpgen-tenant-a', principal: 'mcpgen-canary-reader' },
} as const;

/** What a read answered, as comparable text; undefined for a refusal, a not-found or an error result. */
async function answer(c: Connection, read: CanaryRead, id: unknown): Promise<string | undefined> {
  try {
    if ('tool' in read) {
      const result = await c.client.callTool({ name: read.tool, arguments: { ...read.args, [read.param]: id } });
      return result.isError ? undefined : JSON.stringify(result.structuredContent ?? textOf(result));
    }
    const { contents } = await c.client.readResource({ uri: expand(read.template, { ...read.values, [read.param]: id }) });
    return JSON.stringify(contents.map((e) => ('text' in e ? e.text : 'blob' in e ? e.blob : '')));
  } catch {
    return undefined;
  }
}

const described = (read: CanaryRead) => ('tool' in read ? `tool ${read.tool} (${read.param})` : `resource ${read.template} (${read.param})`);

/** Plants the record as the owner; returns its identifier, and whether the write handler looked at `ctx.tenant`. */
async function plant(connectSpied: SpiedConnect, era: Era, s: CanarySubject, options: ServerOptions, context: Skippable): Promise<{ id: unknown; tenantAware: boolean }> {
  let tenantAware = false;
  const watchTenant = (ctx: unknown) =>
    new Proxy(ctx as object, {
      get(target, property, receiver) {
        if (property === 'tenant') tenantAware = true;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  const around = (original: AnyFn): AnyFn => (...args) => original(...args.slice(0, -1), watchTenant(args[args.length - 1]));
  const { c } = await connectSpied(era, 'tools', s.plant.id, { ...options, ...CANARY_TENANTS.owner }, { around }, 'accept');
  try {
    const args = { ...s.plant.input, ...(s.plant.key ? { idempotencyKey: freshKey('canary') } : {}), ...(s.plant.receipt ? { approvalReceipt: receiptFor(s.plant.input) } : {}) };
    const result = await c.client.callTool({ name: s.plant.tool, arguments: args });
    if (result.isError) context.skip(/Not implemented/.test(textOf(result)) ? 'todo: handler not implemented yet' : `the canary could not be planted: ${s.plant.tool} answered "${textOf(result)}"`);
    return { id: (result.structuredContent as Obj | undefined)?.[s.link], tenantAware };
  } finally {
    await c.close();
  }
}

/**
 * Hard gate, cross-tenant canary (planted): tenant B creates a record through the write handler; tenant A,
 * on the same state store, reads it by its identifier through each read that takes one, and must not get
 * what B gets. Skips, with its reason, when the handlers keep no tenant with the record (the write handler
 * never reads `ctx.tenant`: a server without tenants) or when B itself cannot read the record back.
 */
export async function expectCanaryHidden(connect: Connect, connectSpied: SpiedConnect, era: Era, s: CanarySubject, context: Skippable): Promise<void> {
  const options: ServerOptions = { state: memoryState() };
  const { id, tenantAware } = await plant(connectSpied, era, s, options, context);
  if (!tenantAware) context.skip(`${s.plant.tool} never reads ctx.tenant: its records belong to no tenant, so there is no tenant-owned canary to plant`);
  if (id === undefined) context.skip(`${s.plant.tool} returned no ${s.link}: nothing names the planted canary`);
  const owner = await connect(era, undefined, { ...options, ...CANARY_TENANTS.owner });
  const other = await connect(era, undefined, { ...options, ...CANARY_TENANTS.other });
  try {
    let checked = 0;
    for (const read of s.reads) {
      const own = await answer(owner, read, id);
      if (own === undefined) continue;
      checked++;
      const seen = await answer(other, read, id);
      expect(seen, `hard gate · cross-tenant canary: tenant ${CANARY_TENANTS.other.tenant} read tenant ${CANARY_TENANTS.owner.tenant}'s record ${s.link}=${String(id)} through ${described(read)}`).not.toBe(own);
    }
    if (checked === 0) context.skip(`tenant ${CANARY_TENANTS.owner.tenant} cannot read its own ${s.link}=${String(id)} back through ${s.reads.map(described).join(', ')}`);
  } finally {
    await owner.close();
    await other.close();
  }
}
