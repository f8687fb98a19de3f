/**
 * The multi-step checks of the contract suites. A generated test is one call to one of these with the
 * primitive's data (names, inputs, expected listings), so a suite for a thousand primitives stays a table
 * of readable cases that compiles quickly, and a fix to a check reaches every suite with an upgrade.
 * The gate checks (`toolGates`, `resourceGates`, `promptGates`) run on a fresh connection with the
 * primitive's handler spied and assert the handler never ran where it must not.
 */
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { AuthorizeRequest, ServerOptions } from '../runtime/index.js';
import {
  argsFor,
  callAccepted,
  expand,
  expectProtocolError,
  freshKey,
  getPromptOrSkip,
  issuesOf,
  listedInstances,
  readOrSkip,
  receiptFor,
  skipIfStub,
  textOf,
  type Around,
  type Connection,
  type Elicit,
  type Era,
  type HandlerKind,
  type Skippable,
  type Spy,
} from './index.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;
/** A generated schema: anything with a Standard Schema validator. */
type Schema = { '~standard': { validate(v: unknown): unknown } };

/** The listing kinds {@link expectListed} can look an entry up in. */
export type ListingKind = 'tool' | 'resource' | 'resourceTemplate' | 'prompt';

/** Asserts the server lists the primitive exactly as `expected` (found by name, or by URI for fixed resources). */
export async function expectListed(h: Connection, kind: ListingKind, expected: Obj): Promise<void> {
  let found: unknown;
  if (kind === 'tool') found = (await h.client.listTools()).tools.find((t) => t.name === expected['name']);
  else if (kind === 'resource') found = (await h.client.listResources()).resources.find((r) => r.uri === expected['uri']);
  else if (kind === 'resourceTemplate') found = (await h.client.listResourceTemplates()).resourceTemplates.find((r) => r.name === expected['name']);
  else found = (await h.client.listPrompts()).prompts.find((p) => p.name === expected['name']);
  expect(found).toEqual(expected);
}

/** What a tool example must give besides success: valid structured content and/or exactly this value. */
export interface ExampleExpectations {
  readonly output?: Schema;
  readonly exact?: unknown;
}

/** Calls a tool with a known-good input: it succeeds (todo while the handler is a stub) and the output conforms. */
export async function expectExample(h: Connection, context: Skippable, name: string, args: Obj, expected: ExampleExpectations = {}): Promise<void> {
  const result = await h.client.callTool({ name, arguments: args });
  skipIfStub(result, context);
  expect(result.isError, textOf(result)).toBeFalsy();
  if (expected.output !== undefined) expect(await issuesOf(expected.output, result.structuredContent)).toEqual([]);
  if ('exact' in expected) expect(result.structuredContent).toEqual(expected.exact);
}

/** Calls a tool with an input derived from its schema: validation accepts it (the handler may still refuse it). */
export async function expectAccepted(h: Connection, context: Skippable, name: string, args: Obj): Promise<void> {
  const result = await callAccepted(h, name, args);
  if (!result) context.skip(NEEDS_ELICITATION);
  skipIfStub(result, context);
  expect(textOf(result)).not.toMatch(/^Input validation error/);
}

/** Why a check that got past validation cannot go on: the harness client declares no elicitation. */
const NEEDS_ELICITATION = 'accepted, then asked the client for input the harness cannot give (elicitation); nothing more to check';
/** Why a check with made-up values cannot go on: the handler rightly found nothing. */
const NOT_FOUND = 'the handler found nothing for made-up values (a domain refusal or not found); nothing more to check';

/** What a resource read must give. */
export interface ContentExpectations {
  readonly mimeType: string;
  /** Text content (otherwise a base64 blob). */
  readonly textual: boolean;
  /** The schema JSON content must satisfy. */
  readonly schema?: Schema;
}

type ReadResult = Awaited<ReturnType<Client['readResource']>>;

async function expectContent(result: ReadResult, expected: ContentExpectations): Promise<void> {
  const first = result.contents[0] as { mimeType?: string; text?: unknown; blob?: unknown } | undefined;
  expect(first?.mimeType).toBe(expected.mimeType);
  if (expected.textual) expect(typeof first?.text).toBe('string');
  else expect(typeof first?.blob).toBe('string');
  if (expected.schema !== undefined) expect(await issuesOf(expected.schema, JSON.parse(first?.text as string))).toEqual([]);
}

/** Reads a resource (todo while its handler is a stub); with `allowNotFound`, a not-found answer passes. */
export async function expectReadable(h: Connection, context: Skippable, uri: string, expected: ContentExpectations, allowNotFound = false): Promise<void> {
  const result = allowNotFound ? await readOrSkip(h, uri, context, true) : await readOrSkip(h, uri, context);
  if (!result) context.skip(NOT_FOUND);
  await expectContent(result, expected);
}

/** Reads a resource and compares its contents exactly. */
export async function expectContents(h: Connection, uri: string, contents: readonly Obj[]): Promise<void> {
  expect((await h.client.readResource({ uri })).contents).toEqual(contents);
}

/** The first instances a template's `list` handler returns read back with the declared content. */
export async function expectListedInstances(h: Connection, context: Skippable, template: string, expected: ContentExpectations): Promise<void> {
  for (const entry of (await listedInstances(h, template, context)).slice(0, 3)) {
    expect(entry.mimeType).toBe(expected.mimeType);
    await expectContent(await h.client.readResource({ uri: entry.uri }), expected);
  }
}

/**
 * Values (raw, as they appear in a URI) that a path-style handler would turn into an escape: an absolute
 * path, a `//host` authority, double encoding, fullwidth and two-dot-leader lookalike dots, `..` with a
 * blank. The runtime refuses them in every template variable whose schema does not opt out with
 * `x-mcp-gen-allow-paths`, `{+path}` included.
 */
export const PATH_CANARIES: readonly string[] = ['%2Fetc%2Fpasswd', '%2F%2Fevil.example%2Fx', '%252e%252e%252fsecret', '%EF%BC%8E%EF%BC%8E%2Fsecret', '%E2%80%A5%2Fsecret', '..%20%2Fsecret'];

/** Every canary (and every {@link PATH_CANARIES} value) put raw into `variable` of an otherwise valid URI is refused as invalid or not found. */
export async function expectCanariesRefused(h: Connection, template: string, values: Obj, variable: string, canaries: readonly string[]): Promise<void> {
  for (const canary of [...canaries, ...PATH_CANARIES]) {
    const uri = expand(template, values, { [variable]: canary });
    await expectProtocolError(h.client.readResource({ uri }), [-32602, -32002]);
  }
}

/** One expected prompt message: exactly this text, or an embedded resource of this MIME type. */
export type ExpectedMessage = { readonly role: string; readonly content: { readonly type: 'text'; readonly text: string } } | { readonly role: string; readonly resource: { readonly mimeType: string } };

/**
 * Gets a prompt and compares its messages. With a `context` (the prompt embeds handler-backed resources,
 * which may rightly not find made-up values) a refusal passes and a stub is a todo.
 */
export async function expectMessages(h: Connection, context: Skippable | undefined, name: string, args: Record<string, string>, expected: readonly ExpectedMessage[]): Promise<void> {
  const result = context ? await getPromptOrSkip(h, name, args, context) : await h.client.getPrompt({ name, arguments: args });
  if (!result) return context!.skip(NOT_FOUND);
  expected.forEach((m, i) => {
    if ('content' in m) expect(result.messages[i]).toEqual(m);
    else {
      expect(result.messages[i]?.role).toBe(m.role);
      expect(result.messages[i]?.content).toMatchObject({ type: 'resource', resource: { mimeType: m.resource.mimeType } });
    }
  });
}

/** A prompt with a handler builds at least one message from valid arguments (todo while it is a stub). */
export async function expectPromptBuilds(h: Connection, context: Skippable, name: string, args: Record<string, string>): Promise<void> {
  const result = await getPromptOrSkip(h, name, args, context);
  if (!result) context.skip(NOT_FOUND);
  expect(result.messages.length).toBeGreaterThan(0);
}

/** How the gate checks connect: `connectSpied` of the bound harness. */
export type SpiedConnect = (era: Era, kind: HandlerKind, id: string, options: ServerOptions, replace?: AnyFn | Around, elicit?: Elicit) => Promise<{ c: Connection; spy: Spy }>;
/** `connect` of the bound harness, for primitives without a handler to spy on. */
export type PlainConnect = (era: Era, handlers?: undefined, options?: ServerOptions) => Promise<Connection>;

/** Runs `body` on a fresh connection and closes it whatever happens. */
async function on(opened: Promise<{ c: Connection; spy: Spy }>, body: (c: Connection, spy: Spy) => Promise<void>): Promise<void> {
  const { c, spy } = await opened;
  try {
    await body(c, spy);
  } finally {
    await c.close();
  }
}

const OTHER_TENANT = { tenant: 'mcpgen-tenant-b', authorize: (req: AuthorizeRequest) => req.tenant === 'mcpgen-tenant-a' || 'Forbidden: another tenant' };

/** The tool under test: its handler id, wire name, a valid input and the gates that need control arguments. */
export interface ToolUnderTest {
  readonly id: string;
  readonly name: string;
  readonly input: Obj;
  /** Calls need an idempotency key. */
  readonly key?: boolean;
  /** Calls need an approval receipt. */
  readonly receipt?: boolean;
}

/**
 * The server's error reports of one gate check, kept instead of printed: the check provokes the error on
 * purpose, so it asserts the report rather than letting `[mcp-gen] error in …` lines reach the test output.
 */
function capturedErrors(): { lines: string[]; onError: NonNullable<ServerOptions['onError']> } {
  const lines: string[] = [];
  return { lines, onError: (error, source) => lines.push(`${source.kind} ${source.name}: ${error instanceof Error ? error.message : String(error)}`) };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The gate checks of one tool. */
export interface ToolGates {
  /** A caller without the tool's scopes is refused before validation, the handler never runs and the tool is not listed. */
  withoutScope(scopes: readonly string[]): Promise<void>;
  /** The authorize hook can refuse another tenant; it sees the context identity and the stripped input. */
  otherTenant(): Promise<void>;
  /** Input over the size bound is refused before the handler. */
  oversized(): Promise<void>;
  /** A handler output that violates the output schema becomes isError. */
  badOutput(): Promise<void>;
  /** A call without an idempotency key is refused before the handler. */
  missingKey(): Promise<void>;
  /** The same key and input replay the first result without running the handler again (`result`: what the handler returns). */
  replay(result: unknown): Promise<void>;
  /** The same key with another input is refused. */
  keyConflict(other: Obj, result: unknown): Promise<void>;
  /** A retry while the first call with the key still runs answers "in progress"; the handler runs once. */
  inProgress(result: unknown): Promise<void>;
  /** The same key with the input plus an own `__proto__` key (another input, whatever JavaScript makes of it) never runs twice. */
  prototypeKey(result: unknown): Promise<void>;
  /** A receipt that authorized one call is refused on the next, even under a fresh idempotency key. */
  receiptReused(result: unknown): Promise<void>;
  /** Without approval (the client cannot confirm) the call is refused and says what is missing. */
  noApproval(): Promise<void>;
  /** A receipt for another input is refused. */
  wrongReceipt(): Promise<void>;
  /** The user is asked through the client; a decline means the handler never runs. */
  declined(): Promise<void>;
  /** The handler runs once the user confirms through the client. */
  confirmed(): Promise<void>;
}

/** The gate checks of one tool, bound to a harness's `connectSpied`. */
export function toolGates(connectSpied: SpiedConnect, era: Era, t: ToolUnderTest): ToolGates {
  const gates = { ...(t.key ? { key: true } : {}), ...(t.receipt ? { receipt: true } : {}) };
  const args = (input: Obj) => (t.key || t.receipt ? argsFor(input, gates) : input);
  const spied = (options: ServerOptions, replace?: AnyFn, elicit: Elicit = 'none') => connectSpied(era, 'tools', t.id, options, replace, elicit);
  const call = (c: Connection, args: Obj) => c.client.callTool({ name: t.name, arguments: args });
  const refused = async (c: Connection, spy: Spy, args: Obj, message: RegExp) => {
    const r = await call(c, args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(message);
    expect(spy.calls).toHaveLength(0);
  };
  /** The input with its approval receipt (when the tool needs one), as the idempotency checks send it. */
  const approved = (input: Obj) => (t.receipt ? { ...input, approvalReceipt: receiptFor(input) } : input);
  const key = () => (t.key ? { idempotencyKey: freshKey() } : {});
  return {
    withoutScope: (scopes) =>
      on(spied({ scopes: [...scopes] }), async (c, spy) => {
        const r = await call(c, args(t.input));
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/^Forbidden/);
        expect(textOf(await call(c, { mcpgen_unexpected: 'x' }))).toMatch(/^Forbidden/);
        expect((await c.client.listTools()).tools.map((x) => x.name)).not.toContain(t.name);
        expect(spy.calls).toHaveLength(0);
      }),
    otherTenant: () => {
      const seen: AuthorizeRequest[] = [];
      const authorize = (req: AuthorizeRequest) => (seen.push(req), req.tenant === 'mcpgen-tenant-a' || 'Forbidden: this object belongs to another tenant.');
      return on(spied({ tenant: 'mcpgen-tenant-b', principal: 'mcpgen-mallory', authorize }), async (c, spy) => {
        const r = await call(c, args(t.input));
        expect(r.isError).toBe(true);
        expect(textOf(r)).toContain('another tenant');
        expect(spy.calls).toHaveLength(0);
        expect(seen[0]).toMatchObject({ kind: 'tool', name: t.name, principal: 'mcpgen-mallory', tenant: 'mcpgen-tenant-b', input: t.input });
      });
    },
    oversized: () => on(spied({ limits: { maxInputBytes: 2048 } }), (c, spy) => refused(c, spy, args({ ...t.input, mcpgen_padding: 'x'.repeat(4096) }), /^Input too large/)),
    badOutput: () => {
      const reported = capturedErrors();
      // Not an object: it breaks every output schema (their root is an object), however permissive its properties.
      return on(spied({ onError: reported.onError }, () => ['mcpgen-garbage']), async (c, spy) => {
        const r = await call(c, args(t.input));
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/Output validation error/);
        expect(spy.calls).toHaveLength(1);
        expect(reported.lines).toEqual([expect.stringMatching(new RegExp(`^tool ${escapeRegExp(t.name)}: .*Output validation error`))]);
      });
    },
    missingKey: () => on(spied({}), (c, spy) => refused(c, spy, approved(t.input), /^Missing idempotencyKey/)),
    replay: (result) =>
      on(spied({}, () => result), async (c, spy) => {
        const idempotencyKey = freshKey();
        const first = await call(c, { ...approved(t.input), idempotencyKey });
        expect(first.isError, textOf(first)).toBeFalsy();
        const second = await call(c, { ...approved(t.input), idempotencyKey });
        expect(second.content).toEqual(first.content);
        expect(spy.calls).toHaveLength(1);
      }),
    keyConflict: (other, result) =>
      on(spied({}, () => result), async (c, spy) => {
        const idempotencyKey = freshKey();
        const first = await call(c, { ...approved(t.input), idempotencyKey });
        expect(first.isError, textOf(first)).toBeFalsy();
        const second = await call(c, { ...approved(other), idempotencyKey });
        expect(second.isError).toBe(true);
        expect(textOf(second)).toMatch(/^Idempotency conflict/);
        expect(spy.calls).toHaveLength(1);
      }),
    inProgress: (result) => {
      const gate = latch();
      return on(spied({}, async () => (await gate.promise, result)), async (c, spy) => {
        const idempotencyKey = freshKey();
        const first = call(c, { ...approved(t.input), idempotencyKey });
        await until(() => spy.calls.length > 0);
        const retry = await call(c, { ...approved(t.input), idempotencyKey });
        expect(retry.isError).toBe(true);
        expect(textOf(retry)).toMatch(/^In progress/);
        gate.open();
        expect((await first).isError, 'the first call').toBeFalsy();
        expect(spy.calls).toHaveLength(1);
      });
    },
    prototypeKey: (result) =>
      on(spied({}, () => result), async (c, spy) => {
        const idempotencyKey = freshKey();
        const first = await call(c, { ...approved(t.input), idempotencyKey });
        expect(first.isError, textOf(first)).toBeFalsy();
        const { input: forged, nested } = withOwnProto(t.input);
        const second = await call(c, { ...approved(forged), idempotencyKey });
        // The SDK rebuilds the top level of `arguments`, dropping an own `__proto__` there: the server then
        // sees the first input again and replays it. Nested, the key arrives, and the input is another one.
        if (nested) expect(second.isError, 'the same key with another input').toBe(true);
        else if (!second.isError) expect(second.content).toEqual(first.content);
        expect(spy.calls).toHaveLength(1);
      }),
    receiptReused: (result) =>
      on(spied({}, () => result), async (c, spy) => {
        const approvalReceipt = receiptFor(t.input);
        const first = await call(c, { ...t.input, ...key(), approvalReceipt });
        expect(first.isError, textOf(first)).toBeFalsy();
        const again = await call(c, { ...t.input, ...key(), approvalReceipt });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toMatch(/^Approval refused: this approval was already used/);
        expect(spy.calls).toHaveLength(1);
      }),
    noApproval: () =>
      on(spied({}), async (c, spy) => {
        const r = await call(c, { ...t.input, ...key() });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/^Approval required/);
        expect(textOf(r)).toContain('approvalReceipt');
        expect(spy.calls).toHaveLength(0);
      }),
    wrongReceipt: () => on(spied({}), (c, spy) => refused(c, spy, { ...t.input, ...key(), approvalReceipt: receiptFor({ mcpgen: 'other input' }) }, /^Approval refused/)),
    declined: () => on(spied({}, undefined, 'decline'), (c, spy) => refused(c, spy, { ...t.input, ...key() }, /^Approval refused/)),
    confirmed: () => {
      // The stand-in result is no valid output: a report of that is expected, any other is not.
      const reported = capturedErrors();
      return on(spied({ onError: reported.onError }, () => 'mcpgen approved', 'accept'), async (c, spy) => {
        const r = await call(c, { ...t.input, ...key() });
        expect(textOf(r)).not.toMatch(/^Approval/);
        expect(spy.calls).toHaveLength(1);
        for (const line of reported.lines) expect(line).toMatch(/Output validation error/);
      });
    },
  };
}

/** A gate that holds a handler until `open()`. */
function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Waits (turn by turn of the event loop, a bounded number of turns, no clock) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(done(), 'the handler started').toBe(true);
}

/** `target` with an own `__proto__` property, as `JSON.parse` builds it (assignment would set the prototype instead). */
function ownProto(target: Obj): Obj {
  const out = { ...target };
  Object.defineProperty(out, '__proto__', { value: 'mcpgen-production', enumerable: true, writable: true, configurable: true });
  return out;
}

/** `input` with an own `__proto__` key in its first object-valued property (`nested`), else at the top level. */
function withOwnProto(input: Obj): { input: Obj; nested: boolean } {
  for (const [name, value] of Object.entries(input)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { input: { ...input, [name]: ownProto(value as Obj) }, nested: true };
  }
  return { input: ownProto(input), nested: false };
}

/** Opens a connection with the primitive's handler spied, or a plain one (and an empty spy) when it has none. */
function opener(connect: PlainConnect, connectSpied: SpiedConnect, era: Era, kind: HandlerKind, id: string | undefined) {
  return (options: ServerOptions, replace?: AnyFn): Promise<{ c: Connection; spy: Spy }> =>
    id !== undefined ? connectSpied(era, kind, id, options, replace) : connect(era, undefined, options).then((c) => ({ c, spy: { calls: [] } }));
}

/** The resource under test: its handler id (none when it is served from a file), name, a readable URI, and whether it is a template. */
export interface ResourceUnderTest {
  readonly id?: string;
  readonly name: string;
  readonly uri: string;
  readonly template: boolean;
}

/** The gate checks of one resource. */
export interface ResourceGates {
  /** A reader without the resource's scopes is refused, the handler never runs and it is not listed. */
  withoutScope(scopes: readonly string[]): Promise<void>;
  /** The authorize hook can refuse another tenant before the handler. */
  otherTenant(): Promise<void>;
  /** Content that violates the resource's schema is refused. */
  badContent(): Promise<void>;
  /** A subscription (2025 `resources/subscribe`, 2026 `subscriptions/listen`) without the resource's scopes is refused. */
  subscribeWithoutScope(scopes: readonly string[]): Promise<void>;
  /** The authorize hook refuses another tenant's subscription. */
  subscribeOtherTenant(): Promise<void>;
}

/** Follows `uri` the way the era does: `resources/subscribe` (2025) or `subscriptions/listen` (2026). */
async function follow(c: Connection, era: Era, uri: string): Promise<unknown> {
  if (era.name === '2025-11-25') return c.client.subscribeResource({ uri });
  const subscription = await c.client.listen({ resourceSubscriptions: [uri] });
  await subscription.close();
  return subscription;
}

/** The gate checks of one resource, bound to a harness's connections. */
export function resourceGates(connect: PlainConnect, connectSpied: SpiedConnect, era: Era, r: ResourceUnderTest): ResourceGates {
  const open = opener(connect, connectSpied, era, 'resources', r.id);
  const read = (c: Connection) => c.client.readResource({ uri: r.uri });
  return {
    withoutScope: (scopes) =>
      on(open({ scopes: [...scopes] }), async (c, spy) => {
        await expectProtocolError(read(c), [-32602], 'Forbidden');
        if (r.template) expect((await c.client.listResourceTemplates()).resourceTemplates.map((x) => x.name)).not.toContain(r.name);
        else expect((await c.client.listResources()).resources.map((x) => x.uri)).not.toContain(r.uri);
        expect(spy.calls).toHaveLength(0);
      }),
    otherTenant: () =>
      on(open(OTHER_TENANT), async (c, spy) => {
        await expectProtocolError(read(c), [-32602], 'another tenant');
        expect(spy.calls).toHaveLength(0);
      }),
    badContent: () => {
      const reported = capturedErrors();
      return on(open({ onError: reported.onError }, () => ({ mcpgen_garbage: true })), async (c) => {
        await expectProtocolError(read(c), [-32603], 'does not match its schema');
        expect(reported.lines).toEqual([expect.stringMatching(/does not match its schema/)]);
      });
    },
    subscribeWithoutScope: (scopes) => on(open({ scopes: [...scopes] }), (c) => expectProtocolError(follow(c, era, r.uri), [-32602], 'Forbidden')),
    subscribeOtherTenant: () => on(open(OTHER_TENANT), (c) => expectProtocolError(follow(c, era, r.uri), [-32602], 'another tenant')),
  };
}

/** The prompt under test: its handler id (none when its messages are declared), name and valid arguments. */
export interface PromptUnderTest {
  readonly id?: string;
  readonly name: string;
  readonly args: Record<string, string>;
}

/** The gate checks of one prompt. */
export interface PromptGates {
  /** A caller without the prompt's scopes is refused before validation, and it is not listed. */
  withoutScope(scopes: readonly string[]): Promise<void>;
  /** The authorize hook can refuse another tenant before the handler. */
  otherTenant(): Promise<void>;
  /** Arguments over the size bound (padding `argument`) are refused before the handler. */
  oversized(argument: string): Promise<void>;
}

/** The gate checks of one prompt, bound to a harness's connections. */
export function promptGates(connect: PlainConnect, connectSpied: SpiedConnect, era: Era, p: PromptUnderTest): PromptGates {
  const open = opener(connect, connectSpied, era, 'prompts', p.id);
  const get = (c: Connection, args: Record<string, string>) => c.client.getPrompt({ name: p.name, arguments: args });
  return {
    withoutScope: (scopes) =>
      on(open({ scopes: [...scopes] }), async (c, spy) => {
        await expectProtocolError(get(c, p.args), [-32602], 'Forbidden');
        await expectProtocolError(get(c, {}), [-32602], 'Forbidden');
        expect((await c.client.listPrompts()).prompts.map((x) => x.name)).not.toContain(p.name);
        expect(spy.calls).toHaveLength(0);
      }),
    otherTenant: () =>
      on(open(OTHER_TENANT), async (c, spy) => {
        await expectProtocolError(get(c, p.args), [-32602], 'another tenant');
        expect(spy.calls).toHaveLength(0);
      }),
    oversized: (argument) =>
      on(open({ limits: { maxInputBytes: 2048 } }), async (c, spy) => {
        await expectProtocolError(get(c, { ...p.args, [argument]: 'x'.repeat(4096) }), [-32602], 'too large');
        expect(spy.calls).toHaveLength(0);
      }),
  };
}
