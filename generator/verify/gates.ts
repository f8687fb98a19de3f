/**
 * The declared tool gates, checked from outside (scopes are in scopes.ts):
 * - `idempotency: required`: a call without the key is refused; the same key and input replays the
 *   first result; the same key with other input is refused;
 * - `approval: required`: a call without an approval is refused.
 * A refusal never runs anything, but a server that breaks its gate would: calls that could change
 * state on a broken server are made only with `allowWrites` (a test instance), with the manifest's
 * examples (or sample values) as input.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import type { Contract, ToolContract } from '../contract/types.js';
import { variantOf, type SampleMaker } from '../emit/samples.js';
import { fail, outcomeOf, pass, short, skip, toolErrorText, type CheckResult, type Obj } from './report.js';

/** What the gate checks may use. */
export interface GateOptions {
  /** A connection whose caller holds none of the manifest's scopes (a second credential, or a second stdio process). */
  readonly unscoped?: Client;
  /** Without `unscoped`: why there is none and how to give one, reported as the skipped scope check's reason. */
  readonly noUnscoped?: string;
  /** The HTTP endpoint, probed without credentials for the 401 challenge. */
  readonly challengeUrl?: string;
  /** The server is a test instance: calls that would change state on a broken server may be made. */
  readonly allowWrites?: boolean;
}

/** Why a check that would call a write or irreversible tool was skipped. */
export const WRITES = 'not called: a server that broke this gate would change state; pass --allow-writes against a test instance';

/** The input a gate check calls a tool with: its first example, else a sample of its published input (without control arguments). */
function inputFor(t: ToolContract, samples: SampleMaker): Obj | undefined {
  const example = t.ir.examples[0]?.input;
  if (example !== undefined) return example as Obj;
  const value = samples.sample(t.input);
  return value === undefined ? undefined : (value as Obj);
}

const key = () => `mcpgen-verify-${randomUUID()}`;

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
  if (second === undefined) out.push(skip(conflict, 'no second example, and no other input valid against its schema could be derived'));
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
    else out.push(...(await idempotencyChecks(client, t, input, variantOf(samples, t.input, input, t.ir.examples.map((e) => e.input)))));
  }
  return out;
}
