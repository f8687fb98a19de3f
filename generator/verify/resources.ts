/**
 * Resource reads: a URI expanded from each template (with sample variables valid against its
 * params) reaches the template and serves the declared MIME type, and an unknown URI is answered
 * with the resource-not-found error.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Contract, ResourceContract } from '../contract/types.js';
import { SampleMaker } from '../emit/samples.js';
import { expandTemplate } from '../runtime/resources.js';
import { fail, outcomeOf, pass, short, skip, type CheckResult, type Obj } from './report.js';

/**
 * The codes a resource-not-found answer may carry: -32002, which the 2025-11-25 specification names,
 * and -32602 (invalid params), which SDK v2 sends in both eras (its 2025 codec rewrites -32002 to it).
 */
export const NOT_FOUND_CODES: readonly number[] = [-32002, -32602];
const UNKNOWN_URI = 'mcpgen-verify://unknown/resource';

/** A concrete URI of a template: its variables sampled from their params, or undefined when none validates. */
export function sampleUri(samples: SampleMaker, r: ResourceContract): string | undefined {
  const template = r.listing.uriTemplate;
  if (template === undefined) return r.listing.uri;
  const values = samples.sample({ type: 'object', properties: r.params, required: r.ir.variables });
  return values === undefined ? undefined : expandTemplate(template, values as Obj);
}

async function templateCheck(client: Client, samples: SampleMaker, r: ResourceContract): Promise<CheckResult> {
  const name = `resource template ${r.name} serves a URI expanded from it`;
  const uri = sampleUri(samples, r);
  if (uri === undefined) return skip(name, 'no sample value validates against its params');
  const o = await outcomeOf(client.readResource({ uri }));
  if (o.result !== undefined) {
    const first = (o.result['contents'] as Obj[] | undefined)?.[0];
    if (first === undefined) return fail(name, `${uri}: the read returned no contents`);
    if (first['mimeType'] !== r.listing.mimeType) return fail(name, `${uri}: contents[0].mimeType: expected ${JSON.stringify(r.listing.mimeType)}, found ${JSON.stringify(first['mimeType'])}`);
    return pass(name, `read ${uri}`);
  }
  // The sample names nothing that exists, or the handler refused it: the URI still reached the template.
  if (NOT_FOUND_CODES.includes(o.code!)) return pass(name, `${uri} answered not found (${o.code}); the sample values may name nothing that exists`);
  return pass(name, `${uri} reached a handler that answered ${o.code}: ${short(o.message ?? '')}`);
}

/** Every template's sample read, and the unknown-URI answer. */
export async function resourceChecks(client: Client, contract: Contract, samples: SampleMaker): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const r of contract.resources) if (r.listing.uriTemplate !== undefined) out.push(await templateCheck(client, samples, r));
  if (contract.server.declaredCapabilities['resources']) {
    const name = 'an unknown resource URI is answered resource-not-found';
    const o = await outcomeOf(client.readResource({ uri: UNKNOWN_URI }));
    if (o.result !== undefined) out.push(fail(name, `${UNKNOWN_URI}: the read succeeded`));
    else if (!NOT_FOUND_CODES.includes(o.code!)) out.push(fail(name, `${UNKNOWN_URI}: error ${o.code} (${short(o.message ?? '')}), expected ${NOT_FOUND_CODES.join(' or ')}`));
    else out.push(pass(name));
  }
  return out;
}
