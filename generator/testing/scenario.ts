/**
 * Runs a manifest's scenario through a real SDK client against the real server with the author's handlers,
 * and builds its evidence pack. The connection gets its own state store (so the final state is this flow's
 * alone), an effect observer (a read or a get that changes state fails the hidden side-effect gate), the
 * server's audit stream (the flow's audit events) and a client that answers confirmations as the step says.
 */
import { isDeepStrictEqual } from 'node:util';
import { memoryState, sha256Of, type AuditEvent, type Effect, type ServerOptions } from '../runtime/index.js';
import { catalogHashes, type AssertionVerdict, type EvidencePack, type GateVerdict } from './evidence.js';
import type { ScenarioAssert, ScenarioStep } from '../runtime/scenario-steps.js';
import type { Connection, ElicitAnswer, Elicit, Era } from './index.js';

export type { ScenarioAssert, ScenarioStep };

/** The runtime's answer while a handler is still the generated stub. */
const STUB = /Not implemented: (tool|resource|prompt) .* has no handler yet/;

/** A declared scenario. */
export interface ScenarioSpec {
  readonly name: string;
  readonly description?: string;
  readonly steps: readonly ScenarioStep[];
}

/** How a scenario connects: the bound harness's `connect`. */
export type ScenarioConnect = (era: Era, handlers: undefined, options: ServerOptions, elicit: Elicit) => Promise<Connection>;

/** Options of {@link runScenario}. */
export interface RunScenarioOptions {
  /** `mcp.lock.json`, whose hashes go into the pack next to the served ones. */
  readonly lockFile?: string;
  /** Server options merged over the scenario's own (tests inject faults here). */
  readonly server?: ServerOptions;
}

/** Everything a run records while its steps go by. */
interface Recorder {
  step: number;
  readonly effects: (Effect & { step: number })[];
  readonly audit: string[];
  readonly asked: { step: number; message?: string; requestedSchema?: unknown; answer: string }[];
  readonly results: Map<string, { kind: 'prompt' | 'read' | 'call'; value: unknown; isError?: boolean }>;
  readonly steps: Record<string, unknown>[];
  readonly gates: GateVerdict[];
  readonly assertions: AssertionVerdict[];
  readonly reads: Record<string, unknown>[];
  /** Steps that reached a handler that is still the generated stub. */
  readonly stubbed: number[];
  confirm: 'accept' | 'decline';
}

/** Runs `spec` in `era` and returns its evidence pack (never throws for a failed check: the pack says so). */
export async function runScenario(connect: ScenarioConnect, era: Era, spec: ScenarioSpec, options: RunScenarioOptions = {}): Promise<EvidencePack> {
  const startedAt = new Date().toISOString();
  const rec: Recorder = { step: 0, effects: [], audit: [], asked: [], results: new Map(), steps: [], gates: [], assertions: [], reads: [], stubbed: [], confirm: 'decline' };
  const state = memoryState();
  const elicit = (params: { message?: string; requestedSchema?: unknown }): ElicitAnswer => {
    rec.asked.push({ step: rec.step, ...params, answer: rec.confirm });
    return rec.confirm === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
  };
  const serverOptions: ServerOptions = {
    audit: undefined,
    auditStream: { write: (text) => rec.audit.push(text) },
    state,
    onEffect: (effect) => rec.effects.push({ ...effect, step: rec.step }),
    ...options.server,
  };
  const h = await connect(era, undefined, serverOptions, elicit);
  try {
    const client = h.client;
    const capabilityManifest = { serverInfo: client.getServerVersion(), capabilities: client.getServerCapabilities(), ...(client.getInstructions() === undefined ? {} : { instructions: client.getInstructions()! }) };
    const catalog = await catalogHashes(client, options.lockFile);
    rec.effects.length = 0; // listing is not part of the flow
    for (const [i, step] of spec.steps.entries()) {
      rec.step = i + 1;
      await runStep(h, spec, step, rec);
      if (STUB.test(JSON.stringify(rec.steps.at(-1) ?? {}))) rec.stubbed.push(rec.step);
    }
    // The audit stream writes in batches after the current turn: let the last batch out.
    await new Promise((resolve) => setImmediate(resolve));
    const audit = rec.audit.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
    const gates = rec.gates;
    const failedGates = [...new Set(gates.filter((g) => !g.passed).map((g) => `${g.gate}: ${g.check}`))];
    const passed = failedGates.length === 0 && rec.assertions.every((a) => a.passed);
    return {
      evidence: 'mcp-gen/scenario@1',
      scenario: spec.name,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      nondeterministic: ['startedAt', 'finishedAt', 'audit[].time', 'audit[].durationMs'],
      startedAt,
      finishedAt: new Date().toISOString(),
      protocolVersion: client.getNegotiatedProtocolVersion(),
      capabilityManifest,
      catalog,
      steps: rec.steps,
      approvals: approvals(rec, audit),
      finalState: { state: Object.fromEntries(await state.entries()), reads: rec.reads },
      effects: rec.effects,
      audit,
      gates,
      verdict: { passed, assertions: rec.assertions, failedGates },
      ...(rec.stubbed.length === 0 ? {} : { stubbedSteps: rec.stubbed }),
    };
  } finally {
    await h.close();
  }
}

async function runStep(h: Connection, spec: ScenarioSpec, step: ScenarioStep, rec: Recorder): Promise<void> {
  if ('prompt' in step) return promptStep(h, step, rec);
  if ('read' in step) return readStep(h, step, rec);
  if ('call' in step) return callStep(h, spec, step, rec);
  return assertStep(h, step, rec);
}

/** Reads and gets must leave state alone: any effect recorded during the step fails the hard gate. */
function hiddenEffects(rec: Recorder, what: string): void {
  const made = rec.effects.filter((e) => e.step === rec.step);
  rec.gates.push({
    gate: 'hard',
    check: 'hidden side effect',
    step: rec.step,
    passed: made.length === 0,
    detail: made.length === 0 ? `${what} changed no state` : `${what} changed state: ${made.map((e) => `${e.primitive.kind} ${e.primitive.name} ${e.op} ${e.target}`).join(', ')}`,
  });
}

async function promptStep(h: Connection, step: Extract<ScenarioStep, { prompt: string }>, rec: Recorder): Promise<void> {
  const entry: Record<string, unknown> = { step: rec.step, ...(step.id ? { id: step.id } : {}), kind: 'prompt', prompt: step.prompt, arguments: step.arguments };
  rec.steps.push(entry);
  try {
    const result = await h.client.getPrompt({ name: step.prompt, arguments: { ...step.arguments } });
    Object.assign(entry, { rendered: { ...(result.description === undefined ? {} : { description: result.description }), messages: result.messages }, sha256: `sha256:${sha256Of(result.messages)}` });
    if (step.id) rec.results.set(step.id, { kind: 'prompt', value: result.messages });
  } catch (error) {
    entry['error'] = errorOf(error);
    rec.assertions.push({ step: rec.step, passed: false, because: `prompt ${step.prompt} renders`, expected: 'messages', actual: entry['error'] });
  }
  hiddenEffects(rec, `prompts/get ${step.prompt}`);
}

/** The revision a read serves: the content's `_meta.revision`, else the listing's. */
async function servedRevision(h: Connection, uri: string, resource: string, content: { _meta?: Record<string, unknown> } | undefined): Promise<string | undefined> {
  const own = content?._meta?.['revision'];
  if (typeof own === 'string') return own;
  const fixed = (await h.client.listResources()).resources.find((r) => r.uri === uri);
  const listed = fixed ?? (await h.client.listResourceTemplates()).resourceTemplates.find((t) => t.name === resource);
  const revision = (listed?._meta as Record<string, unknown> | undefined)?.['revision'];
  return typeof revision === 'string' ? revision : undefined;
}

async function readStep(h: Connection, step: Extract<ScenarioStep, { read: string }>, rec: Recorder): Promise<void> {
  const entry: Record<string, unknown> = { step: rec.step, ...(step.id ? { id: step.id } : {}), kind: 'read', uri: step.read, resource: step.resource };
  rec.steps.push(entry);
  let contents: Record<string, unknown>[] | undefined;
  try {
    contents = (await h.client.readResource({ uri: step.read })).contents as Record<string, unknown>[];
    Object.assign(entry, { contents: contents.map(summarised), sha256: `sha256:${sha256Of(contents)}` });
    if (step.id) rec.results.set(step.id, { kind: 'read', value: valueOf(contents[0]) });
  } catch (error) {
    entry['error'] = errorOf(error);
    rec.assertions.push({ step: rec.step, passed: false, because: `${step.read} is readable`, expected: 'contents', actual: entry['error'] });
  }
  hiddenEffects(rec, `resources/read ${step.read}`);
  const served = contents ? await servedRevision(h, step.read, step.resource, contents[0] as { _meta?: Record<string, unknown> }) : undefined;
  entry['revision'] = { ...(step.revision === undefined ? {} : { expected: step.revision }), served: served ?? null };
  if (step.revision === undefined) return;
  rec.gates.push({
    gate: 'quality',
    check: 'stale revision',
    step: rec.step,
    passed: served === step.revision,
    detail: served === step.revision ? `${step.read} is at revision ${served}` : `${step.read} serves revision ${served ?? '(none stated)'}, the flow relies on ${step.revision}`,
  });
}

async function callStep(h: Connection, spec: ScenarioSpec, step: Extract<ScenarioStep, { call: string }>, rec: Recorder): Promise<void> {
  // A key of its own per scenario and step: a rerun of the pack uses the same one.
  const key = step.key ? { idempotencyKey: `scenario:${spec.name}:${rec.step}` } : {};
  const args = { ...step.input, ...key };
  const entry: Record<string, unknown> = { step: rec.step, ...(step.id ? { id: step.id } : {}), kind: 'call', tool: step.call, input: step.input, ...key, ...(step.confirm ? { confirm: step.confirm } : {}) };
  rec.steps.push(entry);
  rec.confirm = step.confirm ?? 'decline';
  let isError = true;
  try {
    const result = await h.client.callTool({ name: step.call, arguments: args });
    isError = result.isError === true;
    entry['result'] = { isError, content: result.content, ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }) };
    if (step.id) rec.results.set(step.id, { kind: 'call', value: result.structuredContent ?? textOf(result.content), isError });
  } catch (error) {
    entry['error'] = errorOf(error);
  }
  rec.assertions.push({ step: rec.step, passed: (step.expect === 'error') === isError, because: `${step.call} ${step.expect === 'error' ? 'is refused' : 'succeeds'}`, expected: step.expect, actual: isError ? 'error' : 'ok' });
}

async function assertStep(h: Connection, step: Extract<ScenarioStep, { assert: ScenarioAssert }>, rec: Recorder): Promise<void> {
  const a = step.assert;
  rec.steps.push({ step: rec.step, ...(step.id ? { id: step.id } : {}), kind: 'assert', assert: a });
  let subject: { value: unknown; isError?: boolean } | undefined;
  if (a.result !== undefined) subject = rec.results.get(a.result);
  else {
    try {
      const contents = (await h.client.readResource({ uri: a.read! })).contents as Record<string, unknown>[];
      rec.reads.push({ step: rec.step, uri: a.read, contents: contents.map(summarised) });
      subject = { value: valueOf(contents[0]) };
    } catch (error) {
      rec.reads.push({ step: rec.step, uri: a.read, error: errorOf(error) });
    }
    hiddenEffects(rec, `resources/read ${a.read}`);
  }
  const checks: [boolean, unknown, unknown][] = [];
  const at = subject === undefined ? undefined : pointer(subject.value, a.path ?? '');
  if (a.equals !== undefined) checks.push([isDeepStrictEqual(at, a.equals), a.equals, at]);
  if (a.contains !== undefined) checks.push([(typeof at === 'string' ? at : JSON.stringify(at) ?? '').includes(a.contains), { contains: a.contains }, at]);
  if (a.isError !== undefined) checks.push([subject?.isError === a.isError, { isError: a.isError }, { isError: subject?.isError }]);
  for (const [passed, expected, actual] of checks) rec.assertions.push({ step: rec.step, passed, ...(a.because === undefined ? {} : { because: a.because }), expected, actual: actual ?? null });
}

/** The approval evidence: what the server asked, what the user answered, and the audited approval. */
function approvals(rec: Recorder, audit: readonly AuditEvent[]): Record<string, unknown>[] {
  return rec.asked.map((asked) => {
    const call = rec.steps.find((s) => s['step'] === asked.step);
    const event = audit.find((e) => e.kind === 'tool' && e.name === call?.['tool'] && e.approval !== undefined);
    return { step: asked.step, tool: call?.['tool'], request: { message: asked.message, requestedSchema: asked.requestedSchema }, answer: asked.answer, receipt: event?.approval ?? null, outcome: event?.outcome ?? null };
  });
}

/** A read's entry: text as served, a blob by size and hash only (packs stay readable). */
function summarised(c: Record<string, unknown>): Record<string, unknown> {
  if (typeof c['blob'] !== 'string') return c;
  const { blob, ...rest } = c;
  return { ...rest, blobSha256: `sha256:${sha256Of(blob)}`, blobLength: (blob as string).length };
}

function valueOf(c: Record<string, unknown> | undefined): unknown {
  const text = c?.['text'];
  if (typeof text !== 'string') return c?.['blob'];
  try {
    return /json/.test(String(c?.['mimeType'])) ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

function textOf(content: unknown): string {
  return ((content ?? []) as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** RFC 6901: `''` is the whole value. */
function pointer(value: unknown, path: string): unknown {
  if (path === '') return value;
  let cur = value;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function errorOf(error: unknown): { code?: number; message: string } {
  const code = (error as { code?: unknown }).code;
  return { ...(typeof code === 'number' ? { code } : {}), message: error instanceof Error ? error.message : String(error) };
}
