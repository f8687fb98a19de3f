/**
 * `mcp-gen/testing`: what generated contract suites run on — an in-memory connection to the real server in
 * either protocol era, handler spies for the attack cases, test-only approval receipts, and assertions.
 * Each generated `contract/harness.gen.ts` binds {@link contractHarness} to its server and re-exports the rest,
 * so a fix here reaches every generated suite with an upgrade instead of a regeneration.
 */
import { randomUUID } from 'node:crypto';
import { Client, UriTemplate } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import { memoryStore, sha256Of, startStdioServer, type AuthorizeRequest, type ServerOptions } from '../runtime/index.js';
import { promptGates, resourceGates, toolGates, type PromptGates, type PromptUnderTest, type ResourceGates, type ResourceUnderTest, type ToolGates, type ToolUnderTest } from './checks.js';

export * from './checks.js';
export { expectReadCache, expectToolListCache, expectedCache, readIsPerCaller, type DeclaredCache, type ExpectedCache } from './cache.js';
export * from './scenario.js';
export * from './evidence.js';
export * from './gates.js';
export * from './canary.js';
export * from './composition.js';
export { declaredTool, expectedAnnotations, expectedInputSchema, type DeclaredTool } from './declared.js';

export type { AuthorizeRequest };

/** The protocol eras every suite runs in. */
export const eras = [
  { name: '2025-11-25', negotiation: { mode: 'legacy' } },
  { name: '2026-07-28', negotiation: { mode: { pin: '2026-07-28' } } },
] as const;

export type Era = (typeof eras)[number];

/** A client connected to a fresh server. */
export interface Connection {
  readonly client: Client;
  close(): Promise<void>;
}

/** The approval receipt the contract suites' verifier accepts: bound to the exact input. */
export function receiptFor(input: unknown): string {
  return `contract-approved:${sha256Of(input)}`;
}

/**
 * Options every contract connection starts from: no audit noise, handlers' `ctx.log` lines and the
 * error reporter's lines kept off the test output (set `MCPGEN_TEST_LOGS=1` to see them), test
 * receipts accepted. Suites that check what was logged pass their own `stderr`.
 */
export const contractOptions: ServerOptions = {
  audit: false,
  stderr: { write: (text: string) => (process.env['MCPGEN_TEST_LOGS'] ? process.stderr.write(text) : true) },
  approval: { verifyReceipt: ({ receipt, inputSha256 }) => receipt === `contract-approved:${inputSha256}` },
};

/** A fresh idempotency key, so suites never replay each other's calls. */
export function freshKey(label = 'contract'): string {
  return `${label}-${randomUUID()}`;
}

/** What a client answers to an `elicitation/create` request. */
export type ElicitAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' | 'cancel' };
/**
 * How the client answers the server's confirmation requests; `none` declares no elicitation support. A
 * function answers each request itself (scenarios record what was asked and what the user said).
 */
export type Elicit = 'none' | 'accept' | 'decline' | ((params: { message?: string; requestedSchema?: unknown }) => ElicitAnswer);

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
/** The running test's context, which can skip it (as a todo). */
export interface Skippable {
  skip(note?: string): never;
}

/** The text blocks of a tool result, joined. */
export function textOf(result: ToolResult): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

const STUB = /Not implemented/;

/** True for the SDK's refusal to ask a client for input it did not declare it can give (-32021; -32603 on 2025 shims). */
function needsCapability(e: unknown): boolean {
  const code = (e as { code?: number }).code;
  return code === -32021 || (code === -32603 && /declare the required capability/.test(String((e as Error).message)));
}

/**
 * Calls a tool with an input that must pass validation. A tool that needs a client capability the
 * harness does not declare (elicitation) answers -32021 after accepting the input: undefined then.
 */
export async function callAccepted(h: Connection, name: string, args: Record<string, unknown>): Promise<ToolResult | undefined> {
  try {
    return await h.client.callTool({ name, arguments: args });
  } catch (e) {
    if (needsCapability(e)) return undefined;
    throw e;
  }
}

/** Skips the running test (as a todo) while the handler is still the generated stub. */
export function skipIfStub(result: ToolResult, context: Skippable): void {
  if (result.isError && STUB.test(textOf(result))) context.skip('todo: handler not implemented yet');
}

/** Asserts a tool call is refused by input validation and names the offending field. */
export async function expectInvalidInput(h: Connection, name: string, input: Record<string, unknown>, field: string): Promise<void> {
  const result = await h.client.callTool({ name, arguments: input });
  expect(result.isError, 'invalid input must give an isError result').toBe(true);
  expect(textOf(result)).toContain(field);
}

/** Asserts a promise rejects with a JSON-RPC error of one of the given codes (and optionally a message fragment). */
export async function expectProtocolError(promise: Promise<unknown>, codes: readonly number[], fragment?: string): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error, 'expected a protocol error').toBeDefined();
  expect(codes).toContain((error as { code?: number }).code);
  if (fragment !== undefined) expect(String((error as Error).message)).toContain(fragment);
}

/** Validation issues of a value against one of the generated schemas (empty when valid). */
export async function issuesOf(schema: { '~standard': { validate(v: unknown): unknown } }, value: unknown): Promise<string[]> {
  const result = (await schema['~standard'].validate(value)) as { issues?: readonly { message: string }[] };
  return result.issues ? result.issues.map((i) => i.message) : [];
}

/**
 * Builds a URI from a template: variables are percent-encoded; `raw` values are inserted as given
 * (used for canaries that must reach the server unencoded).
 */
export function expand(template: string, values: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) strings[k] = k in raw ? `MCPGENRAW${k}MCPGENRAW` : String(v);
  let uri = new UriTemplate(template).expand(strings);
  for (const [k, v] of Object.entries(raw)) uri = uri.split(`MCPGENRAW${k}MCPGENRAW`).join(v);
  return uri;
}

type ReadResult = Awaited<ReturnType<Client['readResource']>>;

/** Reads a resource, skipping the test while its handler is a stub. With `allowNotFound`, a not-found answer yields undefined. */
export async function readOrSkip(h: Connection, uri: string, context: Skippable): Promise<ReadResult>;
export async function readOrSkip(h: Connection, uri: string, context: Skippable, allowNotFound: true): Promise<ReadResult | undefined>;
export async function readOrSkip(h: Connection, uri: string, context: Skippable, allowNotFound = false): Promise<ReadResult | undefined> {
  try {
    return await h.client.readResource({ uri });
  } catch (e) {
    const message = String((e as Error).message);
    if (STUB.test(message)) context.skip('todo: handler not implemented yet');
    if (allowNotFound && /not found/i.test(message)) return undefined;
    throw e;
  }
}

/** The listed instances of a template, skipping the test while its `list` handler is a stub. */
export async function listedInstances(h: Connection, template: string, context: Skippable) {
  const { resources } = await h.client.listResources();
  const matcher = new UriTemplate(template);
  const listed = resources.filter((r) => matcher.match(r.uri) !== null);
  if (listed.length === 0) context.skip('todo: the list handler returned no instances (or is not implemented yet)');
  return listed;
}

/**
 * Gets a prompt with arguments that pass validation, skipping the test while its handler is a stub.
 * The values may be made up from the schema, so a handler's domain refusal (-32602 that is not an
 * argument validation error, or a resource not found) yields undefined, and so does a prompt that asks
 * for input the harness client cannot give (-32021); an argument validation error or an internal error
 * fails the test.
 */
export async function getPromptOrSkip(h: Connection, name: string, args: Record<string, string>, context: Skippable) {
  try {
    return await h.client.getPrompt({ name, arguments: args });
  } catch (e) {
    const message = String((e as Error).message);
    if (STUB.test(message)) context.skip('todo: handler not implemented yet');
    const code = (e as { code?: number }).code;
    if ((code === -32602 || code === -32002) && !/Invalid arguments for prompt/.test(message)) return undefined;
    if (needsCapability(e)) return undefined; // accepted, but needs a client capability the harness does not declare
    throw e;
  }
}

/** Adds the control arguments a gated tool needs: a fresh idempotency key and/or a receipt for `input`. */
export function argsFor(input: Record<string, unknown>, gates: { key?: boolean; receipt?: boolean }): Record<string, unknown> {
  return { ...input, ...(gates.key ? { idempotencyKey: freshKey() } : {}), ...(gates.receipt ? { approvalReceipt: receiptFor(input) } : {}) };
}

/** Calls recorded by {@link spyOn}. */
export interface Spy {
  readonly calls: unknown[][];
}

type AnyFn = (...args: unknown[]) => unknown;

/** Which handler group a spy replaces. */
export type HandlerKind = 'tools' | 'resources' | 'prompts';

/** Runs the author's handler inside `around`, instead of replacing it (a check that watches the real thing). */
export interface Around {
  readonly around: (original: AnyFn) => AnyFn;
}

/**
 * Returns a copy of `handlers` whose `kind`/`id` handler (or its `read`/`get`, for resources and prompts)
 * records every call; with `replace`, the spy runs `replace` instead of the real handler, or the real
 * handler wrapped by `replace.around`.
 */
export function spyOn<H>(handlers: H, kind: HandlerKind, id: string, replace?: AnyFn | Around): { handlers: H; spy: Spy } {
  const spy: Spy = { calls: [] };
  const group = (handlers as unknown as Record<string, Record<string, unknown>>)[kind] ?? {};
  const original = group[id];
  const wrap = (fn: AnyFn | undefined): AnyFn => {
    const run = typeof replace === 'function' ? replace : replace !== undefined && fn !== undefined ? replace.around(fn) : fn;
    return (...args) => {
      spy.calls.push(args);
      return run?.(...args);
    };
  };
  let replaced: unknown;
  if (kind === 'tools') replaced = wrap(original as AnyFn);
  else {
    const obj = original as Record<string, AnyFn>;
    const method = kind === 'resources' ? 'read' : 'get';
    replaced = { ...obj, [method]: wrap(obj[method]?.bind(obj)) };
  }
  const copy = { ...(handlers as object), [kind]: { ...group, [id]: replaced } } as H;
  return { handlers: copy, spy };
}

/** A connection to a server composed of some primitive kinds (see `connectComposed`). */
export interface Composed {
  readonly c: Connection;
  server(): McpServer | undefined;
  readonly notifications: string[];
  /** The same notifications, whole (2026 ones carry their subscription's id in `_meta`). */
  readonly received: { readonly method: string; readonly params?: Record<string, unknown> }[];
}

const LIST_CHANGED = ['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'];

/** The SDK's registries of each kind (each entry has a public `remove()`). */
const REGISTRIES: Readonly<Record<HandlerKind, readonly string[]>> = {
  tools: ['_registeredTools'],
  resources: ['_registeredResources', '_registeredResourceTemplates'],
  prompts: ['_registeredPrompts'],
};

/** The registered entries of one kind on `server`, each with its `remove()`. */
export function registered(server: McpServer, kind: HandlerKind): { name: string; remove(): void }[] {
  const fields = server as unknown as Record<string, Record<string, { remove(): void }> | undefined>;
  return REGISTRIES[kind].flatMap((field) => Object.entries(fields[field] ?? {}).map(([name, entry]) => ({ name, remove: () => entry.remove() })));
}

/** Removes every primitive whose kind is not in `keep` (before connecting: no notification is due). */
function keepOnly(server: McpServer, keep: readonly HandlerKind[]): void {
  for (const kind of ['tools', 'resources', 'prompts'] as const) if (!keep.includes(kind)) for (const entry of registered(server, kind)) entry.remove();
}

/** The server-specific part of the harness, from {@link contractHarness}. */
export interface ContractHarness<H> {
  /** Connects an SDK client to a fresh server over an in-memory transport in the given era. */
  connect(era: Era, handlers?: H, options?: ServerOptions, elicit?: Elicit): Promise<Connection>;
  /** Connects with one handler spied (see {@link spyOn}); options are merged over {@link contractOptions}. */
  connectSpied(era: Era, kind: HandlerKind, id: string, options: ServerOptions, replace?: AnyFn | Around, elicit?: Elicit): Promise<{ c: Connection; spy: Spy }>;
  /**
   * Connects to a server holding only the primitive kinds in `keep` (the others are removed before the
   * client connects); `server()` is the instance serving, for changing its catalog while connected, and
   * `notifications` the list-changed notifications the client received.
   */
  connectComposed(era: Era, keep: readonly HandlerKind[], options?: ServerOptions): Promise<Composed>;
  /** The gate checks of one tool in one era (see `checks.ts`). */
  toolGates(era: Era, tool: ToolUnderTest): ToolGates;
  /** The gate checks of one resource in one era. */
  resourceGates(era: Era, resource: ResourceUnderTest): ResourceGates;
  /** The gate checks of one prompt in one era. */
  promptGates(era: Era, prompt: PromptUnderTest): PromptGates;
}

/** Binds the harness to one generated server: its `createServer` and the author's handlers. */
export function contractHarness<H>(createServer: (handlers: H, options?: ServerOptions) => McpServer, defaultHandlers: H): ContractHarness<H> {
  async function connect(era: Era, handlers: H = defaultHandlers, options: ServerOptions = {}, elicit: Elicit = 'none', onServer?: (server: McpServer) => void): Promise<Connection> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A store per connection: a receipt consumed (or a key claimed) by one case never reaches another.
    const merged = { ...contractOptions, store: memoryStore(), ...options };
    // The runtime's stdio host, as generated mains use it: its gates (2026 listen) are part of the contract.
    const host = startStdioServer((context) => {
      const server = createServer(handlers, { ...merged, era: context.era });
      onServer?.(server);
      return server;
    }, { transport: serverSide });
    // The harness client can answer sampling and roots requests with canned values; elicitation (which is
    // how approvals are asked) only when a test says how to answer.
    const capabilities = { sampling: {}, roots: {}, ...(elicit === 'none' ? {} : { elicitation: { form: {} } }) };
    const client = new Client({ name: 'mcp-gen-contract', version: '1.0.0' }, { versionNegotiation: era.negotiation, capabilities });
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'contract' }, model: 'mcp-gen-contract' }));
    client.setRequestHandler('roots/list', () => ({ roots: [] }));
    if (typeof elicit === 'function') client.setRequestHandler('elicitation/create', (request) => elicit(request.params as { message?: string; requestedSchema?: unknown }));
    else if (elicit !== 'none') {
      client.setRequestHandler('elicitation/create', () => (elicit === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }));
    }
    await client.connect(clientSide);
    return {
      client,
      async close() {
        await client.close();
        await host.close();
      },
    };
  }
  async function connectSpied(era: Era, kind: HandlerKind, id: string, options: ServerOptions, replace?: AnyFn | Around, elicit: Elicit = 'none') {
    const { handlers, spy } = spyOn(defaultHandlers, kind, id, replace);
    return { c: await connect(era, handlers, options, elicit), spy };
  }
  async function connectComposed(era: Era, keep: readonly HandlerKind[], options: ServerOptions = {}): Promise<Composed> {
    let serving: McpServer | undefined;
    const c = await connect(era, defaultHandlers, options, 'none', (server) => {
      keepOnly(server, keep);
      serving = server;
    });
    const notifications: string[] = [];
    const received: Composed['received'] = [];
    for (const method of LIST_CHANGED) {
      c.client.setNotificationHandler(method as 'notifications/tools/list_changed', (n) => {
        notifications.push(method);
        received.push({ method, ...(n.params === undefined ? {} : { params: n.params as Record<string, unknown> }) });
      });
    }
    return { c, server: () => serving, notifications, received };
  }
  return {
    connect,
    connectComposed,
    connectSpied,
    toolGates: (era, tool) => toolGates(connectSpied, era, tool),
    resourceGates: (era, resource) => resourceGates(connect, connectSpied, era, resource),
    promptGates: (era, prompt) => promptGates(connect, connectSpied, era, prompt),
  };
}

