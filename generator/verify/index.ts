/**
 * `mcp-gen verify`: a manifest's contract checked against any running server, generated or not.
 * The listing must be exactly as declared (field by field); tools refuse invalid input, unknown
 * names and URIs are protocol errors, prompts refuse a missing required argument. Only read tools
 * are called with input (a write on a real server is not the verifier's to make), and only with
 * input the server must refuse or the manifest's own examples.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Contract, ToolContract } from '../contract/types.js';
import { readCatalog } from '../remote/catalog.js';
import { diffCatalogs, formatDifference, isInexpressible } from '../remote/compare.js';
import { expectedCatalog } from '../remote/expected.js';

/** The outcome of one check. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  /** Why it failed (one line each), or why it was skipped. */
  readonly details: readonly string[];
  readonly skipped?: boolean;
  /** Published fields no manifest can declare (not failures; `mcp-gen import server` names them too). */
  readonly notes?: readonly string[];
}

/** The whole verification report. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly checks: readonly CheckResult[];
}

type Obj = Record<string, unknown>;

async function protocolErrorOf(p: Promise<unknown>): Promise<{ code?: number; result?: Obj }> {
  try {
    return { result: (await p) as Obj };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'number' ? { code } : { code: Number.NaN };
  }
}

const pass = (name: string): CheckResult => ({ name, ok: true, details: [] });
const fail = (name: string, ...details: string[]): CheckResult => ({ name, ok: false, details });
const skip = (name: string, why: string): CheckResult => ({ name, ok: true, skipped: true, details: [why] });

async function listingCheck(client: Client, contract: Contract): Promise<CheckResult> {
  const all = diffCatalogs(expectedCatalog(contract), await readCatalog(client));
  const notes = all.filter(isInexpressible).map((d) => `${d.path} is published but no manifest can declare it`);
  const diffs = all.filter((d) => !isInexpressible(d));
  const name = 'listing is exactly as declared';
  const base = diffs.length === 0 ? pass(name) : fail(name, ...diffs.map(formatDifference));
  return notes.length ? { ...base, notes } : base;
}

async function invalidInputCheck(client: Client, t: ToolContract): Promise<CheckResult> {
  const name = `tool ${t.name} refuses input without its required properties`;
  const required = (t.input as Obj)['required'];
  if (t.sideEffect !== 'read') return skip(name, `not called: sideEffect ${t.sideEffect}`);
  if (!Array.isArray(required) || required.length === 0) return skip(name, 'the input has no required property');
  const r = await protocolErrorOf(client.callTool({ name: t.name, arguments: {} }));
  if (r.code !== undefined || r.result?.['isError'] === true) return pass(name);
  return fail(name, 'the call without required properties succeeded');
}

async function exampleChecks(client: Client, t: ToolContract): Promise<CheckResult[]> {
  if (t.sideEffect !== 'read') return [];
  return Promise.all(
    t.ir.examples.map(async (e, i) => {
      const name = `tool ${t.name} accepts example ${i + 1}`;
      const r = await protocolErrorOf(client.callTool({ name: t.name, arguments: e.input as Obj }));
      if (r.code !== undefined) return fail(name, `protocol error ${r.code}`);
      const text = JSON.stringify(r.result?.['content'] ?? []);
      return r.result?.['isError'] === true && /Input validation error/.test(text) ? fail(name, `refused as invalid: ${text.slice(0, 160)}`) : pass(name);
    }),
  );
}

async function errorChecks(client: Client, contract: Contract): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  if (contract.server.declaredCapabilities['tools']) {
    const r = await protocolErrorOf(client.callTool({ name: 'mcpgen.verify-unknown-tool', arguments: {} }));
    const name = 'an unknown tool is an error';
    out.push(r.code !== undefined || r.result?.['isError'] === true ? pass(name) : fail(name, 'the call succeeded'));
  }
  if (contract.server.declaredCapabilities['resources']) {
    const r = await protocolErrorOf(client.readResource({ uri: 'mcpgen-verify://unknown/resource' }));
    const name = 'an unknown resource URI is a protocol error';
    out.push(r.code !== undefined ? pass(name) : fail(name, 'the read succeeded'));
  }
  for (const p of contract.prompts) {
    const required = p.arguments.filter((a) => a.required);
    const name = `prompt ${p.name} refuses a get without its required arguments`;
    if (required.length === 0) continue;
    const r = await protocolErrorOf(client.getPrompt({ name: p.name, arguments: {} }));
    out.push(r.code !== undefined ? pass(name) : fail(name, `answered without ${required.map((a) => a.name).join(', ')}`));
  }
  if (contract.server.declaredCapabilities['prompts']) {
    const r = await protocolErrorOf(client.getPrompt({ name: 'mcpgen.verify-unknown-prompt', arguments: {} }));
    out.push(r.code !== undefined ? pass('an unknown prompt is a protocol error') : fail('an unknown prompt is a protocol error', 'the get succeeded'));
  }
  return out;
}

/** Runs every check of `contract` against the connected server. */
export async function verifyServer(client: Client, contract: Contract): Promise<VerifyReport> {
  const checks: CheckResult[] = [await listingCheck(client, contract)];
  for (const t of contract.tools) checks.push(await invalidInputCheck(client, t), ...(await exampleChecks(client, t)));
  checks.push(...(await errorChecks(client, contract)));
  return { ok: checks.every((c) => c.ok), checks };
}
