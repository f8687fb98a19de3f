/**
 * The declared gates, checked from outside:
 * - scopes, over HTTP with bearer tokens: without a token the endpoint answers 401 with a Bearer
 *   challenge; with a credential that holds none of the declared scopes every scoped primitive is
 *   refused for its scopes (HTTP 403, or a refusal that says forbidden/scope), never served;
 * - `idempotency: required`: a call without the key is refused; the same key and input replays the
 *   first result; the same key with other input is refused;
 * - `approval: required`: a call without an approval is refused.
 * A refusal never runs anything, but a server that breaks its gate would: calls that could change
 * state on a broken server are made only with `allowWrites` (a test instance), with the manifest's
 * examples (or sample values) as input.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import type { Contract, PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { SampleMaker } from '../emit/samples.js';
import { fail, outcomeOf, pass, short, skip, toolErrorText, type CheckResult, type Obj, type Outcome } from './report.js';
import { sampleUri } from './resources.js';

/** What the gate checks may use. */
export interface GateOptions {
  /** A connection whose credential holds none of the manifest's scopes. */
  readonly unscoped?: Client;
  /** The HTTP endpoint, probed without credentials for the 401 challenge. */
  readonly challengeUrl?: string;
  /** The server is a test instance: calls that would change state on a broken server may be made. */
  readonly allowWrites?: boolean;
}

const SCOPE_REFUSAL = /forbidden|scope|unauthori[sz]ed|permission|not allowed/i;
const WRITES = 'not called: a server that broke this gate would change state; pass --allow-writes against a test instance';

/** The input a gate check calls a tool with: its first example, else a sample of its published input (without control arguments). */
function inputFor(t: ToolContract, samples: SampleMaker): Obj | undefined {
  const example = t.ir.examples[0]?.input;
  if (example !== undefined) return example as Obj;
  const value = samples.sample(t.input);
  return value === undefined ? undefined : (value as Obj);
}

const key = () => `mcpgen-verify-${randomUUID()}`;

/** Why an outcome is not a refusal for scopes, or undefined when it is one. */
function notScopeRefusal(o: Outcome, text: string | undefined): string | undefined {
  if (o.status === 403 || o.status === 401) return undefined;
  if (text === undefined) return 'it was served';
  return SCOPE_REFUSAL.test(text) ? undefined : `refused, but not for its scopes: ${short(text)}`;
}

async function toolScopeCheck(client: Client, t: ToolContract, o: GateOptions): Promise<CheckResult> {
  const name = `tool ${t.name} is refused without its scopes (${t.scopes.join(', ')})`;
  const required = (t.input as Obj)['required'];
  // Without input, a broken read tool answers; a broken write with required properties still refuses the empty input.
  if (t.sideEffect !== 'read' && !(Array.isArray(required) && required.length > 0) && !o.allowWrites) return skip(name, WRITES);
  const r = await outcomeOf(client.callTool({ name: t.name, arguments: {} }));
  const why = notScopeRefusal(r, toolErrorText(r));
  return why === undefined ? pass(name) : fail(name, why);
}

async function resourceScopeCheck(client: Client, r: ResourceContract, samples: SampleMaker): Promise<CheckResult> {
  const name = `resource ${r.name} is refused without its scopes (${r.scopes.join(', ')})`;
  const uri = sampleUri(samples, r);
  if (uri === undefined) return skip(name, 'no sample value validates against its params');
  const o = await outcomeOf(client.readResource({ uri }));
  const why = notScopeRefusal(o, o.result === undefined ? (o.message ?? '') : undefined);
  return why === undefined ? pass(name) : fail(name, `${uri}: ${why}`);
}

async function promptScopeCheck(client: Client, p: PromptContract, samples: SampleMaker): Promise<CheckResult> {
  const name = `prompt ${p.name} is refused without its scopes (${p.scopes.join(', ')})`;
  const args: Record<string, string> = {};
  for (const a of p.arguments) {
    const v = samples.sample(a.schema);
    if (a.required) args[a.name] = v === undefined ? 'sample' : typeof v === 'string' ? v : JSON.stringify(v);
  }
  const o = await outcomeOf(client.getPrompt({ name: p.name, arguments: args }));
  const why = notScopeRefusal(o, o.result === undefined ? (o.message ?? '') : undefined);
  return why === undefined ? pass(name) : fail(name, why);
}

/** Without a token the endpoint answers 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750, RFC 9728). */
async function challengeCheck(url: string): Promise<CheckResult> {
  const name = 'a request without a bearer token is refused with a Bearer challenge';
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-gen', version: '1' } } };
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) }).catch((e: unknown) => e as Error);
  if (res instanceof Error) return fail(name, `the request failed: ${res.message}`);
  await res.body?.cancel();
  const challenge = res.headers.get('www-authenticate') ?? '';
  if (res.status !== 401) return fail(name, `HTTP ${res.status}, expected 401`);
  return /^Bearer\b/i.test(challenge) ? pass(name) : fail(name, `WWW-Authenticate: ${JSON.stringify(challenge)}, expected a Bearer challenge`);
}

/** Scope gates: the 401 challenge, and each scoped primitive refused to a caller without its scopes. */
export async function scopeChecks(contract: Contract, samples: SampleMaker, o: GateOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const scoped = [...contract.tools, ...contract.resources, ...contract.prompts].some((p) => p.scopes.length > 0);
  if (!scoped) return out;
  if (o.challengeUrl !== undefined) out.push(await challengeCheck(o.challengeUrl));
  if (o.unscoped === undefined) return out;
  for (const t of contract.tools) if (t.scopes.length) out.push(await toolScopeCheck(o.unscoped, t, o));
  for (const r of contract.resources) if (r.scopes.length) out.push(await resourceScopeCheck(o.unscoped, r, samples));
  for (const p of contract.prompts) if (p.scopes.length) out.push(await promptScopeCheck(o.unscoped, p, samples));
  return out;
}

const same = (a: Obj | undefined, b: Obj | undefined) => JSON.stringify([a?.['content'], a?.['structuredContent']]) === JSON.stringify([b?.['content'], b?.['structuredContent']]);

async function idempotencyChecks(client: Client, t: ToolContract, input: Obj, second: Obj | undefined): Promise<CheckResult[]> {
  const call = (args: Obj) => outcomeOf(client.callTool({ name: t.name, arguments: args }));
  const missing = `tool ${t.name} refuses a call without idempotencyKey`;
  const replay = `tool ${t.name} replays the first result for the same idempotencyKey`;
  const conflict = `tool ${t.name} refuses the same idempotencyKey with other input`;
  const out: CheckResult[] = [];
  const without = toolErrorText(await call(input));
  out.push(without === undefined ? fail(missing, 'the call without a key was served') : /idempotency/i.test(without) ? pass(missing) : fail(missing, `refused, but not for the key: ${short(without)}`));
  const k = key();
  const first = await call({ ...input, idempotencyKey: k });
  const firstError = toolErrorText(first);
  if (firstError !== undefined) return [...out, skip(replay, `the first call failed (${short(firstError)}), so there is nothing to replay`), skip(conflict, 'the first call failed')];
  const again = await call({ ...input, idempotencyKey: k });
  out.push(same(first.result, again.result) ? pass(replay) : fail(replay, `the second call answered ${short(JSON.stringify(again.result?.['content'] ?? again.message))}`));
  if (second === undefined) out.push(skip(conflict, 'the manifest has one example, and other input is needed'));
  else {
    const other = toolErrorText(await call({ ...second, idempotencyKey: k }));
    out.push(other === undefined ? fail(conflict, 'the call with other input was served') : /conflict|idempotency/i.test(other) ? pass(conflict) : fail(conflict, `refused, but not as a conflict: ${short(other)}`));
  }
  return out;
}

async function approvalCheck(client: Client, t: ToolContract, input: Obj): Promise<CheckResult> {
  const name = `tool ${t.name} refuses a call without an approval`;
  const args = t.idempotency === 'required' ? { ...input, idempotencyKey: key() } : input;
  const text = toolErrorText(await outcomeOf(client.callTool({ name: t.name, arguments: args })));
  if (text === undefined) return fail(name, 'the call without an approval was served');
  return /approv|confirm/i.test(text) ? pass(name) : fail(name, `refused, but not for an approval: ${short(text)}`);
}

/** Idempotency and approval gates of every tool that declares them. */
export async function toolGateChecks(client: Client, contract: Contract, samples: SampleMaker, o: GateOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const t of contract.tools) {
    if (t.idempotency !== 'required' && t.approval !== 'required') continue;
    const label = `tool ${t.name} keeps its ${[t.idempotency === 'required' ? 'idempotency' : '', t.approval === 'required' ? 'approval' : ''].filter(Boolean).join(' and ')} gate`;
    if (!o.allowWrites) {
      out.push(skip(label, WRITES));
      continue;
    }
    const input = inputFor(t, samples);
    if (input === undefined) {
      out.push(skip(label, 'no example, and no sample value validates against its input'));
      continue;
    }
    // An approval gate refuses every call made here, so replay cannot be observed behind it.
    if (t.approval === 'required') out.push(await approvalCheck(client, t, input));
    else out.push(...(await idempotencyChecks(client, t, input, t.ir.examples[1]?.input as Obj | undefined)));
  }
  return out;
}
