/**
 * The checks any server answers without state changing: the listing field by field, invalid input
 * and examples of read tools, unknown names, and prompts without their required arguments.
 */
import { UriTemplate, type Client } from '@modelcontextprotocol/client';
import type { Contract, ToolContract } from '../contract/types.js';
import { readCatalog, type Catalog } from '../remote/catalog.js';
import { diffCatalogs, formatDifference, isInexpressible } from '../remote/compare.js';
import { expectedCatalog } from '../remote/expected.js';
import { fail, outcomeOf, pass, skip, type CheckResult, type Obj } from './report.js';

/** The name of the listing check (the first of every report). */
export const LISTING_CHECK = 'listing is exactly as declared';

/** The whole catalog against the manifest's, field by field; fields no manifest can declare are notes. */
export async function listingCheck(client: Client, contract: Contract): Promise<CheckResult> {
  const { catalog, instances } = withoutInstances(await readCatalog(client), contract);
  const all = diffCatalogs(expectedCatalog(contract), catalog);
  const notes: string[] = all.filter(isInexpressible).map((d) => `${d.path} is published but no manifest can declare it`);
  const diffs = all.filter((d) => !isInexpressible(d));
  if (instances > 0) notes.push(`${instances} listed resource${instances === 1 ? '' : 's'} matched a template that lists its instances (list: true), so ${instances === 1 ? 'it is' : 'they are'} not compared as declared resources`);
  const base = diffs.length === 0 ? pass(LISTING_CHECK) : fail(LISTING_CHECK, ...diffs.map(formatDifference));
  return notes.length ? { ...base, notes } : base;
}

/**
 * The catalog without the `resources/list` entries that are instances of a template declared with
 * `list: true`: their number and content are the server's data, not its contract.
 */
function withoutInstances(catalog: Catalog, contract: Contract): { catalog: Catalog; instances: number } {
  const fixed = new Set(contract.resources.map((r) => r.listing.uri).filter((u) => u !== undefined));
  const listing = contract.resources.filter((r) => r.list && r.listing.uriTemplate !== undefined).map((r) => new UriTemplate(r.listing.uriTemplate!));
  const isInstance = (e: Obj) => typeof e['uri'] === 'string' && !fixed.has(e['uri']) && listing.some((t) => t.match(e['uri'] as string) !== null);
  const resources = catalog.resources.filter((e) => !isInstance(e));
  return { catalog: { ...catalog, resources }, instances: catalog.resources.length - resources.length };
}

/** A read tool with required properties refuses a call without them. */
export async function invalidInputCheck(client: Client, t: ToolContract): Promise<CheckResult> {
  const name = `tool ${t.name} refuses input without its required properties`;
  const required = (t.input as Obj)['required'];
  if (t.sideEffect !== 'read') return skip(name, `not called: sideEffect ${t.sideEffect}`);
  if (!Array.isArray(required) || required.length === 0) return skip(name, 'the input has no required property');
  const r = await outcomeOf(client.callTool({ name: t.name, arguments: {} }));
  if (r.code !== undefined || r.result?.['isError'] === true) return pass(name);
  return fail(name, 'the call without required properties succeeded');
}

/** A read tool accepts each of the manifest's examples (it may still fail for its own reasons). */
export async function exampleChecks(client: Client, t: ToolContract): Promise<CheckResult[]> {
  if (t.sideEffect !== 'read') return [];
  return Promise.all(
    t.ir.examples.map(async (e, i) => {
      const name = `tool ${t.name} accepts example ${i + 1}`;
      const r = await outcomeOf(client.callTool({ name: t.name, arguments: e.input as Obj }));
      if (r.code !== undefined) return fail(name, `protocol error ${r.code}`);
      const text = JSON.stringify(r.result?.['content'] ?? []);
      return r.result?.['isError'] === true && /Input validation error/.test(text) ? fail(name, `refused as invalid: ${text.slice(0, 160)}`) : pass(name);
    }),
  );
}

/** Unknown tool and prompt names are errors; a prompt without its required arguments is refused. */
export async function errorChecks(client: Client, contract: Contract): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  if (contract.server.declaredCapabilities['tools']) {
    const r = await outcomeOf(client.callTool({ name: 'mcpgen.verify-unknown-tool', arguments: {} }));
    const name = 'an unknown tool is an error';
    out.push(r.code !== undefined || r.result?.['isError'] === true ? pass(name) : fail(name, 'the call succeeded'));
  }
  for (const p of contract.prompts) {
    const required = p.arguments.filter((a) => a.required);
    const name = `prompt ${p.name} refuses a get without its required arguments`;
    if (required.length === 0) continue;
    const r = await outcomeOf(client.getPrompt({ name: p.name, arguments: {} }));
    out.push(r.code !== undefined ? pass(name) : fail(name, `answered without ${required.map((a) => a.name).join(', ')}`));
  }
  if (contract.server.declaredCapabilities['prompts']) {
    const r = await outcomeOf(client.getPrompt({ name: 'mcpgen.verify-unknown-prompt', arguments: {} }));
    out.push(r.code !== undefined ? pass('an unknown prompt is a protocol error') : fail('an unknown prompt is a protocol error', 'the get succeeded'));
  }
  return out;
}
