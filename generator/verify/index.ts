/**
 * `mcp-gen verify`: a manifest's contract checked against any running server, generated or not.
 * The listing must be exactly as declared (field by field); tools refuse invalid input, unknown
 * names are errors and unknown URIs resource-not-found; each template serves a URI expanded from
 * it; prompts refuse a missing required argument; and the declared gates hold (scopes, idempotency,
 * approval; see scopes.ts and gates.ts). Only read tools are called with input unless `allowWrites` says the
 * server is a test instance.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Contract } from '../contract/types.js';
import { SampleMaker } from '../emit/samples.js';
import { errorChecks, exampleChecks, invalidInputCheck, listingCheck } from './checks.js';
import { toolGateChecks, type GateOptions } from './gates.js';
import { scopeChecks } from './scopes.js';
import type { CheckResult, VerifyReport } from './report.js';
import { resourceChecks } from './resources.js';

export type { CheckResult, VerifyReport } from './report.js';
export { LISTING_CHECK } from './checks.js';
export { HIDDEN_CHECK, UNSCOPED_CHECK } from './scopes.js';
export type { GateOptions as VerifyOptions } from './gates.js';

/** Runs every check of `contract` against the connected server. */
export async function verifyServer(client: Client, contract: Contract, options: GateOptions = {}): Promise<VerifyReport> {
  const samples = new SampleMaker();
  const checks: CheckResult[] = [await listingCheck(client, contract)];
  for (const t of contract.tools) checks.push(await invalidInputCheck(client, t), ...(await exampleChecks(client, t)));
  checks.push(...(await errorChecks(client, contract)));
  checks.push(...(await resourceChecks(client, contract, samples)));
  checks.push(...(await scopeChecks(contract, samples, options)));
  checks.push(...(await toolGateChecks(client, contract, samples, options)));
  return { ok: checks.every((c) => c.ok), checks };
}
