/**
 * Composition checks: the server with each primitive kind alone, all three together, and after a
 * catalog change while a client is connected (a list-changed notification exactly where the capability
 * is declared: unasked in 2025-11-25, on a `subscriptions/listen` stream in 2026-07-28). A primitive kind must work without the others: a tool that only works once a prompt is
 * registered is a composition failure the per-primitive suites would not see.
 */
import { expect } from 'vitest';
import { registered, type Composed, type Connection, type Era, type HandlerKind } from './index.js';

/** What the manifest declares, as the composition checks compare it. */
export interface DeclaredCatalog {
  readonly tools: readonly string[];
  /** Fixed resource URIs. */
  readonly resources: readonly string[];
  /** Template resource names. */
  readonly templates: readonly string[];
  readonly prompts: readonly string[];
}

type ComposedConnect = (era: Era, keep: readonly HandlerKind[]) => Promise<Composed>;

const sorted = (names: readonly string[]) => [...names].sort();

/**
 * The names a listing answers, or [] when the capability is not there at all (-32601). Asked with a plain
 * request: the client's list helpers answer from their cache within a 2026 listing's `ttlMs`, and a catalog
 * change must be seen on the wire.
 */
async function names(c: Connection, kind: 'tools' | 'resources' | 'templates' | 'prompts'): Promise<string[]> {
  try {
    if (kind === 'tools') return sorted((await c.client.request({ method: 'tools/list', params: {} })).tools.map((t) => t.name));
    if (kind === 'prompts') return sorted((await c.client.request({ method: 'prompts/list', params: {} })).prompts.map((p) => p.name));
    if (kind === 'templates') return sorted((await c.client.request({ method: 'resources/templates/list', params: {} })).resourceTemplates.map((t) => t.name));
    return sorted((await c.client.request({ method: 'resources/list', params: {} })).resources.map((r) => r.uri));
  } catch (e) {
    if ((e as { code?: number }).code === -32601) return [];
    throw e;
  }
}

/** Asserts the connection serves exactly the declared primitives of the kinds in `keep`, and none of the others. */
async function expectServes(c: Connection, declared: DeclaredCatalog, keep: readonly HandlerKind[], label: string): Promise<void> {
  const want = (kind: HandlerKind, list: readonly string[]) => (keep.includes(kind) ? sorted(list) : []);
  expect(await names(c, 'tools'), `composition (${label}): tools listed`).toEqual(want('tools', declared.tools));
  expect(await names(c, 'prompts'), `composition (${label}): prompts listed`).toEqual(want('prompts', declared.prompts));
  expect(await names(c, 'templates'), `composition (${label}): resource templates listed`).toEqual(want('resources', declared.templates));
  const fixed = await names(c, 'resources');
  // Template instances are listed too; every declared fixed URI must be there, and nothing when resources are gone.
  if (keep.includes('resources')) for (const uri of declared.resources) expect(fixed, `composition (${label}): resource ${uri} listed`).toContain(uri);
  else expect(fixed, `composition (${label}): no resources listed`).toEqual([]);
}

/** One primitive kind alone: it is listed exactly as declared, the others are gone, and `probe` (a call, read or get of that kind) still works. */
export async function expectAlone(connect: ComposedConnect, era: Era, kind: HandlerKind, declared: DeclaredCatalog, probe?: (c: Connection) => Promise<void>): Promise<void> {
  const composed = await connect(era, [kind]);
  try {
    await expectServes(composed.c, declared, [kind], `${kind} alone`);
    await probe?.(composed.c);
  } finally {
    await composed.c.close();
  }
}

/** All three kinds together: everything declared is listed. */
export async function expectTogether(connect: ComposedConnect, era: Era, declared: DeclaredCatalog): Promise<void> {
  const composed = await connect(era, ['tools', 'resources', 'prompts']);
  try {
    await expectServes(composed.c, declared, ['tools', 'resources', 'prompts'], 'all three together');
  } finally {
    await composed.c.close();
  }
}

const NOTIFICATION: Readonly<Record<HandlerKind, string>> = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
};

const FLAG: Readonly<Record<HandlerKind, 'toolsListChanged' | 'resourcesListChanged' | 'promptsListChanged'>> = {
  tools: 'toolsListChanged',
  resources: 'resourcesListChanged',
  prompts: 'promptsListChanged',
};

type Listening = { close(): Promise<void> };

/**
 * 2026-07-28: change notifications travel only on `subscriptions/listen` streams, each type only to a
 * stream that asked for it. Opens one stream asking for the other kinds and one asking for `kind`, and
 * checks the acknowledgement: `kind` is honoured exactly when its `listChanged` is advertised.
 */
async function listenFor(composed: Composed, kind: HandlerKind, declared: boolean): Promise<Listening[]> {
  const client = composed.c.client;
  const others = Object.fromEntries((Object.keys(FLAG) as HandlerKind[]).filter((k) => k !== kind).map((k) => [FLAG[k], true]));
  const elsewhere = await client.listen(others);
  const own = await client.listen({ [FLAG[kind]]: true });
  const honoured = own.honoredFilter[FLAG[kind]] === true;
  expect(honoured, `compatibility gate · capability vs behaviour: ${kind} listChanged is ${declared ? '' : 'not '}advertised, yet subscriptions/listen ${honoured ? 'honours' : 'does not honour'} ${FLAG[kind]}`).toBe(declared);
  return [elsewhere, own];
}

/**
 * A catalog change while connected: removing the first primitive of `kind` takes it off the listing, and
 * the client is told with a list-changed notification exactly when the server advertises `listChanged`
 * for that kind. A 2025-11-25 client gets it unasked; a 2026-07-28 client asks on a
 * `subscriptions/listen` stream, and gets it once, on the stream that asked for it, tagged with that
 * subscription's id (a stream that asked only for other kinds gets nothing).
 */
export async function expectCatalogChange(connect: ComposedConnect, era: Era, kind: HandlerKind): Promise<void> {
  const composed = await connect(era, ['tools', 'resources', 'prompts']);
  const streams: Listening[] = [];
  try {
    const server = composed.server();
    const [first] = server ? registered(server, kind) : [];
    expect(first, `composition (catalog change): no ${kind} to remove`).toBeDefined();
    const caps = (composed.c.client.getServerCapabilities() ?? {}) as Record<string, { listChanged?: boolean } | undefined>;
    const declared = caps[kind]?.listChanged === true;
    const modern = era.name !== '2025-11-25';
    if (modern) streams.push(...(await listenFor(composed, kind, declared)));
    const before = await names(composed.c, kind === 'resources' ? 'templates' : kind);
    first!.remove();
    const listed = kind === 'resources' ? [...(await names(composed.c, 'templates')), ...(await names(composed.c, 'resources'))] : await names(composed.c, kind);
    expect(listed, `composition (catalog change): ${kind} ${first!.name} is still listed after its removal`).not.toContain(first!.name);
    if (kind !== 'resources') expect(listed.length).toBe(before.length - 1);
    // Bounded turns of the event loop (no clock) for the notification to arrive.
    const heard = () => composed.received.filter((n) => n.method === NOTIFICATION[kind]);
    for (let i = 0; i < 50 && heard().length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    const got = heard().length > 0;
    expect(got, `compatibility gate · capability vs behaviour: ${kind} listChanged is ${declared ? '' : 'not '}advertised, yet a catalog change ${got ? 'sent' : 'did not send'} ${NOTIFICATION[kind]}`).toBe(declared);
    if (!modern || !declared) return;
    expect(heard().length, `composition (catalog change): ${NOTIFICATION[kind]} reached a subscriptions/listen stream that did not ask for it`).toBe(1);
    const tag = (heard()[0]!.params?.['_meta'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'];
    expect(typeof tag, `composition (catalog change): ${NOTIFICATION[kind]} carries no io.modelcontextprotocol/subscriptionId`).toBe('string');
  } finally {
    for (const stream of streams) await stream.close().catch(() => undefined);
    await composed.c.close();
  }
}

/** What a probe of one primitive calls, reads or gets. */
export type Probe = { readonly tool: string; readonly args: Record<string, unknown> } | { readonly uri: string } | { readonly prompt: string; readonly args: Record<string, string> };

/**
 * Probes one primitive on a composed server: it must still be served (a refusal, a domain error or a
 * stub's not-implemented answer is fine; the SDK's "not found" for the primitive itself is not).
 */
export async function expectServed(c: Connection, probe: Probe): Promise<void> {
  let message = '';
  try {
    if ('tool' in probe) await c.client.callTool({ name: probe.tool, arguments: probe.args });
    else if ('uri' in probe) await c.client.readResource({ uri: probe.uri });
    else await c.client.getPrompt({ name: probe.prompt, arguments: probe.args });
  } catch (e) {
    message = String((e as Error).message);
  }
  // The SDK's own answers for a name or URI it does not serve (a handler's domain "not found" is fine).
  const unknown = 'tool' in probe ? `Tool ${probe.tool} not found` : 'uri' in probe ? `Resource not found: ${probe.uri}` : `Prompt ${probe.prompt} not found`;
  expect(message, `composition: ${unknown} (the primitive is not served on its own)`).not.toContain(unknown);
}
