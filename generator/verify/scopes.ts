/**
 * Scope gates, checked from outside with a second caller that holds none of the manifest's scopes:
 * every scoped tool, resource and prompt is refused to it for its scopes (HTTP 403, or a refusal that
 * says forbidden/scope), never served, and no listing shows it a scoped entry. Over HTTP with bearer
 * tokens, a request without a token is answered 401 with a Bearer challenge.
 *
 * The second caller is a second credential over HTTP (`--unscoped-header`), and over stdio a second
 * process of the server launched with the environment that gives it no scopes (`--unscoped-env`): a
 * stdio server has one caller, the identity it was launched with, and nothing on the wire can change it.
 */
import { UriTemplate, type Client } from '@modelcontextprotocol/client';
import type { Contract, PromptContract, ResourceContract, ToolContract } from '../contract/types.js';
import type { SampleMaker } from '../emit/samples.js';
import { readCatalog } from '../remote/catalog.js';
import { WRITES, type GateOptions } from './gates.js';
import { fail, outcomeOf, pass, short, skip, toolErrorText, type CheckResult, type Obj, type Outcome } from './report.js';
import { sampleUri } from './resources.js';

const SCOPE_REFUSAL = /forbidden|scope|unauthori[sz]ed|permission|not allowed/i;

/** The name of the check that stands for all scope refusals when no second caller was given. */
export const UNSCOPED_CHECK = 'scoped primitives are refused to a caller without their scopes';
/** The name of the check that scoped entries are left out of the second caller's listings. */
export const HIDDEN_CHECK = 'listings hide every scoped primitive from a caller without its scopes';

/** Why no second caller was given, when the caller of verifyServer does not say. */
const NO_UNSCOPED = 'no caller without scopes was given: --unscoped-header (HTTP) or --unscoped-env (stdio)';

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

/** The scoped entries the second caller's listings show, one line each. */
async function hiddenListingCheck(client: Client, contract: Contract): Promise<CheckResult> {
  const catalog = await readCatalog(client);
  const shown = (entries: readonly Obj[], key: string) => new Set(entries.map((e) => e[key]).filter((v) => typeof v === 'string'));
  const tools = shown(catalog.tools, 'name');
  const prompts = shown(catalog.prompts, 'name');
  const uris = shown(catalog.resources, 'uri');
  const templates = shown(catalog.resourceTemplates, 'uriTemplate');
  const leaks: string[] = [];
  for (const t of contract.tools) if (t.scopes.length && tools.has(t.name)) leaks.push(`tools/list shows tool ${t.name}`);
  for (const p of contract.prompts) if (p.scopes.length && prompts.has(p.name)) leaks.push(`prompts/list shows prompt ${p.name}`);
  for (const r of contract.resources.filter((x) => x.scopes.length > 0)) {
    const { uri, uriTemplate } = r.listing;
    if (uri !== undefined && uris.has(uri)) leaks.push(`resources/list shows resource ${r.name} (${uri})`);
    if (uriTemplate === undefined) continue;
    if (templates.has(uriTemplate)) leaks.push(`resources/templates/list shows resource template ${r.name} (${uriTemplate})`);
    const template = new UriTemplate(uriTemplate);
    const instances = [...uris].filter((u) => u !== uri && template.match(u as string) !== null);
    if (instances.length) leaks.push(`resources/list shows ${instances.length} instance${instances.length === 1 ? '' : 's'} of resource template ${r.name} (${short(instances.join(', '))})`);
  }
  return leaks.length === 0 ? pass(HIDDEN_CHECK) : fail(HIDDEN_CHECK, ...leaks);
}

/**
 * Scope gates: the 401 challenge, and, with a second caller holding none of the manifest's scopes,
 * each scoped primitive refused to it and left out of its listings. Without that caller the refusals
 * are one skipped check that says how to give one.
 */
export async function scopeChecks(contract: Contract, samples: SampleMaker, o: GateOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const scoped = [...contract.tools, ...contract.resources, ...contract.prompts].some((p) => p.scopes.length > 0);
  if (!scoped) return out;
  if (o.challengeUrl !== undefined) out.push(await challengeCheck(o.challengeUrl));
  if (o.unscoped === undefined) return [...out, skip(UNSCOPED_CHECK, o.noUnscoped ?? NO_UNSCOPED)];
  for (const t of contract.tools) if (t.scopes.length) out.push(await toolScopeCheck(o.unscoped, t, o));
  for (const r of contract.resources) if (r.scopes.length) out.push(await resourceScopeCheck(o.unscoped, r, samples));
  for (const p of contract.prompts) if (p.scopes.length) out.push(await promptScopeCheck(o.unscoped, p, samples));
  out.push(await hiddenListingCheck(o.unscoped, contract));
  return out;
}
