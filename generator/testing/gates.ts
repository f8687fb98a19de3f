/**
 * The checks behind the seed's named gates that are not per-call refusals (those live in `checks.ts`):
 * hidden side effects of reads and gets (hard), the revision a resource serves (quality), capabilities
 * against what their methods do (compatibility), and a retry after an ambiguous timeout (recovery).
 * Each runs on a connection of its own and says in its failure message which gate broke.
 */
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { memoryState, type AuditEvent, type Effect, type ServerOptions } from '../runtime/index.js';
import { type Around, type Connection, type Elicit, type Era, type HandlerKind, type Spy, receiptFor } from './index.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;
type Connect = (era: Era, handlers: undefined, options: ServerOptions, elicit?: Elicit) => Promise<Connection>;
type SpiedConnect = (era: Era, kind: HandlerKind, id: string, options: ServerOptions, replace?: AnyFn | Around, elicit?: Elicit) => Promise<{ c: Connection; spy: Spy }>;

/** A connection whose handlers' state and effects are watched, and whose audit stream is kept. */
interface Watched {
  readonly c: Connection;
  readonly effects: Effect[];
  audit(): Promise<AuditEvent[]>;
}

function watchedOptions(extra: ServerOptions = {}): { options: ServerOptions; effects: Effect[]; audit: () => Promise<AuditEvent[]> } {
  const effects: Effect[] = [];
  const lines: string[] = [];
  const options: ServerOptions = { audit: undefined, auditStream: { write: (t) => lines.push(t) }, state: memoryState(), onEffect: (e) => effects.push(e), ...extra };
  const audit = async () => {
    // The default sink writes its batch once the current turn is done.
    await new Promise((resolve) => setImmediate(resolve));
    return lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent);
  };
  return { options, effects, audit };
}

async function watched(connect: Connect, era: Era, extra?: ServerOptions): Promise<Watched> {
  const w = watchedOptions(extra);
  return { c: await connect(era, undefined, w.options), effects: w.effects, audit: w.audit };
}

async function settle<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch {
    // A refusal or not-found is fine here: the gate is about state, not about the answer.
    return undefined;
  }
}

const described = (effects: readonly Effect[]) => effects.map((e) => `${e.primitive.kind} ${e.primitive.name} ${e.op} ${e.target}`).join(', ');

/** What the hidden side-effect gate reads or gets. */
export type ReadOnlySubject = { readonly kind: 'resource'; readonly uri: string; readonly list?: boolean } | { readonly kind: 'prompt'; readonly name: string; readonly args: Record<string, string> };

/**
 * Hard gate, hidden side effect: reading a resource (and listing it), or getting a prompt, twice, leaves
 * the handlers' state untouched and announces no change. Effects are those the handlers make through
 * their context (`ctx.state` writes, `ctx.notifyResourceUpdated`).
 */
export async function expectNoHiddenEffect(connect: Connect, era: Era, subject: ReadOnlySubject): Promise<void> {
  const w = await watched(connect, era);
  try {
    for (let i = 0; i < 2; i++) {
      if (subject.kind === 'resource') {
        await settle(w.c.client.readResource({ uri: subject.uri }));
        if (subject.list) await settle(w.c.client.listResources());
      } else await settle(w.c.client.getPrompt({ name: subject.name, arguments: subject.args }));
    }
    const what = subject.kind === 'resource' ? `reading ${subject.uri}` : `getting prompt ${subject.name}`;
    expect(w.effects, `hard gate · hidden side effect: ${what} changed state (${described(w.effects)})`).toEqual([]);
  } finally {
    await w.c.close();
  }
}

/**
 * Hard gate, unauthorized write: a tool declared `sideEffect: read` runs under read scopes, with no
 * idempotency key and no approval, and clients may call it freely; called twice, it must leave the
 * handlers' state untouched and announce no change. A write there is one no write scope or approval
 * authorized.
 */
export async function expectReadToolUnchanged(connect: Connect, era: Era, subject: { readonly tool: string; readonly args: Obj }): Promise<void> {
  const w = await watched(connect, era);
  try {
    for (let i = 0; i < 2; i++) await settle(w.c.client.callTool({ name: subject.tool, arguments: subject.args }));
    expect(w.effects, `hard gate · unauthorized write: tool ${subject.tool} is declared sideEffect read, yet calling it changed state (${described(w.effects)})`).toEqual([]);
  } finally {
    await w.c.close();
  }
}

/**
 * Quality gate, stale revision: the resource is listed at the revision the manifest declares, and a read
 * that states a revision in its content metadata states the same one.
 */
export async function expectDeclaredRevision(h: Connection, subject: { readonly name: string; readonly uri?: string; readonly readUri?: string; readonly revision: string }): Promise<void> {
  const listed = subject.uri !== undefined
    ? (await h.client.listResources()).resources.find((r) => r.uri === subject.uri)
    : (await h.client.listResourceTemplates()).resourceTemplates.find((t) => t.name === subject.name);
  const revision = (listed?._meta as Obj | undefined)?.['revision'];
  expect(revision, `quality gate · stale revision: ${subject.name} is listed at revision ${String(revision)}, the manifest declares ${subject.revision}`).toBe(subject.revision);
  const uri = subject.readUri ?? subject.uri;
  if (uri === undefined) return;
  const read = await settle(h.client.readResource({ uri }));
  for (const content of read?.contents ?? []) {
    const own = (content._meta as Obj | undefined)?.['revision'];
    if (own !== undefined) expect(own, `quality gate · stale revision: reading ${uri} serves revision ${String(own)}, the manifest declares ${subject.revision}`).toBe(subject.revision);
  }
}

const LIST_METHODS: Readonly<Record<string, string>> = { tools: 'tools/list', resources: 'resources/list', prompts: 'prompts/list' };

/**
 * Compatibility gate, capability vs behaviour: each advertised primitive capability answers its list
 * method, each one not advertised answers -32601, and `completions` (when advertised) answers a request
 * for one of the completions the manifest declares.
 */
export async function expectCapabilitiesBehave(h: Connection, completion?: { readonly ref: Obj; readonly argument: string }): Promise<void> {
  const caps = (h.client.getServerCapabilities() ?? {}) as Obj;
  for (const [capability, method] of Object.entries(LIST_METHODS)) {
    let code: number | undefined;
    try {
      await h.client.request({ method: method as 'tools/list', params: {} });
    } catch (e) {
      code = (e as { code?: number }).code ?? -1;
    }
    if (capability in caps) expect(code, `compatibility gate · capability vs behaviour: ${capability} is advertised but ${method} fails (${code})`).toBeUndefined();
    else expect(code, `compatibility gate · capability vs behaviour: ${capability} is not advertised but ${method} answers`).toBe(-32601);
  }
  if (completion !== undefined) {
    expect(caps, 'compatibility gate · capability vs behaviour: completions are declared but not advertised').toHaveProperty('completions');
    const result = await h.client.complete({ ref: completion.ref as never, argument: { name: completion.argument, value: '' } });
    expect(Array.isArray(result.completion.values), 'compatibility gate · capability vs behaviour: completion/complete answers no values list').toBe(true);
  }
}

/** The tool a recovery check retries: handler id, name, a valid input and its gates. */
export interface RetrySubject {
  readonly id: string;
  readonly name: string;
  readonly input: Obj;
  readonly receipt?: boolean;
  /** What the stand-in handler returns while the author's handler is still the generated stub: a valid output. */
  readonly result: unknown;
}

/** What the handler runs of one recovery check did: per run, whether it completed and how many effects it made. */
interface Runs {
  readonly effects: number[];
  readonly completed: boolean[];
  stub: boolean;
}

/**
 * Recovery gate, retry after an ambiguous timeout: the client gives up on a call (its request is
 * cancelled) while the handler is held; the author's handler then runs to its end, its effect done. A
 * retry with the same idempotency key must not make the effect again: when the first run completed it
 * must not run the handler again, and at most one run may change state (through `ctx.state`). The audit
 * trail keeps both attempts under that key. While the handler is still the generated stub, a stand-in
 * that returns `result` takes its place, so the runtime's part is checked all the same.
 */
export async function expectRetryAfterTimeout(connectSpied: SpiedConnect, era: Era, t: RetrySubject): Promise<void> {
  const real = await retryOnce(connectSpied, era, t, undefined);
  if (real.stub) await retryOnce(connectSpied, era, t, async () => t.result);
}

async function retryOnce(connectSpied: SpiedConnect, era: Era, t: RetrySubject, standIn: AnyFn | undefined): Promise<Runs> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const w = watchedOptions();
  const runs: Runs = { effects: [], completed: [], stub: false };
  const around = (original: AnyFn): AnyFn => async (...args) => {
    await held;
    const before = w.effects.length;
    try {
      const out = await (standIn ?? original)(...args);
      runs.completed.push(!(out as { isError?: unknown } | undefined)?.isError);
      return out;
    } catch (error) {
      if (/Not implemented/.test(String((error as Error)?.message))) runs.stub = true;
      runs.completed.push(false);
      throw error;
    } finally {
      runs.effects.push(w.effects.length - before);
    }
  };
  const { c, spy } = await connectSpied(era, 'tools', t.id, w.options, { around });
  try {
    const idempotencyKey = `recovery-${t.name}`;
    const args = { ...t.input, idempotencyKey, ...(t.receipt ? { approvalReceipt: receiptFor(t.input) } : {}) };
    const gaveUp = new AbortController();
    const first = c.client.callTool({ name: t.name, arguments: args }, { signal: gaveUp.signal }).then(() => 'answered', () => 'gave up');
    await turnsUntil(() => spy.calls.length > 0, `recovery gate · retry after an ambiguous timeout: ${t.name} was never run`);
    gaveUp.abort('ambiguous timeout');
    expect(await first).toBe('gave up');
    release();
    await turnsUntil(() => runs.effects.length > 0, `recovery gate · retry after an ambiguous timeout: the first run of ${t.name} never finished`);
    if (runs.stub) return runs;
    const retry = await retryUntilSettled(c.client, t.name, args);
    await turnsUntil(() => runs.effects.length === spy.calls.length, `recovery gate · retry after an ambiguous timeout: a run of ${t.name} never finished`);
    const duplicate = `recovery gate · retry after an ambiguous timeout: the retry ran ${t.name} again (a duplicate effect)`;
    if (runs.completed[0]) expect(spy.calls.length, duplicate).toBe(1);
    const changing = runs.effects.filter((n) => n > 0).length;
    expect(changing, `${duplicate}: ${changing} runs under one key changed state (${described(w.effects)})`).toBeLessThanOrEqual(1);
    expect(retry.isError === true && /^In progress/.test(textOf(retry)), `recovery gate · retry after an ambiguous timeout: the retry is still "in progress" after the first call finished`).toBe(false);
    const chain = (await w.audit()).filter((e) => e.kind === 'tool' && e.name === t.name);
    expect(chain.length, 'recovery gate · retry after an ambiguous timeout: the audit trail lost an attempt').toBeGreaterThanOrEqual(2);
    expect(chain.every((e) => e.idempotencyKey === idempotencyKey), 'recovery gate · retry after an ambiguous timeout: an attempt is audited without its idempotency key').toBe(true);
    return runs;
  } finally {
    release();
    await c.close();
  }
}

/** Retries while the server still reports the first attempt in progress (bounded, no clock). */
async function retryUntilSettled(client: Client, name: string, args: Obj) {
  let result = await client.callTool({ name, arguments: args });
  for (let i = 0; i < 200 && result.isError === true && /^In progress/.test(textOf(result)); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    result = await client.callTool({ name, arguments: args });
  }
  return result;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** Waits (turn by turn of the event loop, a bounded number of turns, no clock) until `done()` holds. */
async function turnsUntil(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(done(), what).toBe(true);
}
