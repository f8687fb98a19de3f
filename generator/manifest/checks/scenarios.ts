import { createRequire } from 'node:module';
import { keyHash, type GenerationCache } from '../../cache.js';
import { coerceString } from '../../runtime/schema/coerce.js';
import { describeDataError } from '../json-schema.js';
import { pointerToPath } from '../pointer.js';
import { didYouMean } from '../suggest.js';
import type { RawManifest, RawScenarioStep } from '../types.js';
import { each, type Check, type CheckContext } from './context.js';

type Path = (string | number)[];
type UriTemplateClass = typeof import('@modelcontextprotocol/server').UriTemplate;

const require = createRequire(import.meta.url);
let uriTemplate: UriTemplateClass | undefined;

/**
 * The SDK's URI template matcher, loaded on first use: the SDK's entry point loads its whole server (Ajv,
 * zod schemas), which only manifests with a scenario reading a templated resource need at generation.
 */
function UriTemplate(): UriTemplateClass {
  return (uriTemplate ??= (require('@modelcontextprotocol/server') as typeof import('@modelcontextprotocol/server')).UriTemplate);
}
const VERBS = ['prompt', 'read', 'call', 'assert'] as const;

/**
 * Scenarios name only declared primitives, with arguments, inputs and URIs that pass their schemas:
 * a flow that cannot run is a manifest error, found before any test does. Each finding is located at the
 * step's offending value.
 */
function checkAllScenarios(ctx: CheckContext): void {
  for (const [name, scenario] of each(ctx.m.scenarios)) {
    const ids = new Set<string>();
    scenario.steps.forEach((step, i) => {
      const at: Path = ['scenarios', name, 'steps', i];
      if (step.id !== undefined) {
        if (ids.has(step.id)) ctx.r.error('MG806', [...at, 'id'], `step id \`${step.id}\` is used twice in scenario \`${name}\``, 'give every step its own id');
        ids.add(step.id);
      }
      const verbs = VERBS.filter((v) => step[v] !== undefined);
      if (verbs.length !== 1) {
        ctx.r.error('MG800', at, `step ${i + 1} of scenario \`${name}\` has ${verbs.length === 0 ? 'none' : verbs.map((v) => `\`${v}\``).join(' and ')} of \`prompt\`, \`read\`, \`call\`, \`assert\``,
          'give each step exactly one of them; split a step that does two things', 'key');
        return;
      }
      checkStepKeys(ctx, step, verbs[0]!, at);
      if (step.prompt !== undefined) checkPromptStep(ctx, step, at);
      if (step.read !== undefined) checkUri(ctx, step.read, [...at, 'read']);
      if (step.call !== undefined) checkCallStep(ctx, step, at);
      if (step.assert !== undefined) checkAssert(ctx, step, ids, at);
    });
  }
}

/** Keys that belong to another verb (`input` on a prompt step, `revision` on a call) are errors, not ignored. */
const OWN_KEYS: Record<(typeof VERBS)[number], readonly string[]> = {
  prompt: ['arguments'],
  read: ['revision'],
  call: ['input', 'confirm', 'expect'],
  assert: [],
};

function checkStepKeys(ctx: CheckContext, step: RawScenarioStep, verb: (typeof VERBS)[number], at: Path): void {
  const foreign = Object.values(OWN_KEYS).flat().filter((k) => !OWN_KEYS[verb].includes(k) && (step as Record<string, unknown>)[k] !== undefined);
  for (const key of foreign) {
    const owner = VERBS.find((v) => OWN_KEYS[v].includes(key))!;
    ctx.r.error('MG800', [...at, key], `\`${key}\` belongs to a \`${owner}\` step, not to a \`${verb}\` step`, `remove it, or make this a \`${owner}\` step`, 'key');
  }
}

function checkPromptStep(ctx: CheckContext, step: RawScenarioStep, at: Path): void {
  const prompts = ctx.m.prompts ?? {};
  const prompt = Object.hasOwn(prompts, step.prompt!) ? prompts[step.prompt!] : undefined;
  if (!prompt) {
    unknown(ctx, [...at, 'prompt'], 'prompt', step.prompt!, Object.keys(prompts));
    return;
  }
  const declared = prompt.arguments ?? {};
  const given = step.arguments ?? {};
  for (const [arg, value] of Object.entries(given)) {
    const decl = Object.hasOwn(declared, arg) ? declared[arg] : undefined;
    if (!decl) {
      ctx.r.error('MG802', [...at, 'arguments', arg], `prompt \`${step.prompt}\` has no argument \`${arg}\`${didYouMean(arg, Object.keys(declared))}`,
        Object.keys(declared).length ? `its arguments: ${Object.keys(declared).join(', ')}` : 'it takes no arguments', 'key');
      continue;
    }
    if (decl.schema === undefined || !ctx.registry) continue;
    const errors = ctx.registry.mismatch(decl.schema, coerceString(value, decl.schema));
    if (errors) ctx.r.error('MG802', [...at, 'arguments', arg], `argument \`${arg}\` of prompt \`${step.prompt}\` does not match its schema: ${describeDataError(errors).message}`, 'use a value the argument schema accepts');
  }
  for (const [arg, decl] of Object.entries(declared)) {
    if (decl.required === true && !(arg in given)) {
      ctx.r.error('MG802', [...at, 'prompt'], `prompt \`${step.prompt}\` needs argument \`${arg}\``, `add \`arguments: { ${arg}: ... }\` to the step`);
    }
  }
}

function checkCallStep(ctx: CheckContext, step: RawScenarioStep, at: Path): void {
  const tools = ctx.m.tools ?? {};
  const tool = Object.hasOwn(tools, step.call!) ? tools[step.call!] : undefined;
  if (!tool) {
    unknown(ctx, [...at, 'call'], 'tool', step.call!, Object.keys(tools));
    return;
  }
  if (step.confirm !== undefined && tool.approval !== 'required') {
    ctx.r.error('MG804', [...at, 'confirm'], `tool \`${step.call}\` asks for no confirmation (it has no \`approval: required\`)`, 'remove `confirm`, or require approval on the tool');
  }
  if (tool.approval === 'required' && step.confirm === undefined) {
    ctx.r.error('MG804', [...at, 'call'], `tool \`${step.call}\` runs only with an approval: the step must say how the user answers`, 'add `confirm: accept` (or `decline` with `expect: error`)');
  }
  if (!ctx.registry) return;
  const input = step.input ?? {};
  const schema = tool.input ?? { type: 'object', properties: {}, additionalProperties: false };
  const errors = ctx.registry.mismatch(schema, input);
  if (!errors) return;
  const { pointer, message } = describeDataError(errors);
  const where: Path = step.input === undefined ? [...at, 'call'] : [...at, 'input', ...pointerToPath(pointer, input)];
  ctx.r.error('MG803', where, `input of tool \`${step.call}\` does not match its input schema: ${message}`, 'fix the input (idempotency keys and approval receipts are added by the runner, leave them out)');
}

function checkAssert(ctx: CheckContext, step: RawScenarioStep, ids: ReadonlySet<string>, at: Path): void {
  const a = step.assert!;
  const here: Path = [...at, 'assert'];
  if ((a.result === undefined) === (a.read === undefined)) {
    ctx.r.error('MG805', here, 'an assertion needs exactly one of `result` (an earlier step id) and `read` (a URI to read now)', 'add `result: <step id>` or `read: <uri>`', 'key');
  }
  if (a.result !== undefined && !ids.has(a.result)) {
    ctx.r.error('MG805', [...here, 'result'], `no earlier step has id \`${a.result}\`${didYouMean(a.result, [...ids])}`, 'give the step whose result you check an `id:` (steps before this one only)');
  }
  if (a.read !== undefined) checkUri(ctx, a.read, [...here, 'read']);
  if (a.equals === undefined && a.contains === undefined && a.isError === undefined) {
    ctx.r.error('MG805', here, 'an assertion must check something: `equals`, `contains` or `isError`', 'say what the value must be', 'key');
  }
  if (a.path !== undefined && a.path !== '' && !a.path.startsWith('/')) {
    ctx.r.error('MG805', [...here, 'path'], `\`${a.path}\` is not a JSON pointer`, `write it as \`/${a.path.replace(/\./g, '/')}\``);
  }
}

/** A URI must belong to a declared resource; a template's variables must pass their `params` schemas. */
function checkUri(ctx: CheckContext, uri: string, at: Path): void {
  const found = ctx.resourceOf ? ctx.resourceOf(uri) : matchResource(addressesOf(ctx.m), uri);
  if (!found) {
    const uris = Object.values(ctx.m.resources ?? {}).map((r) => r.uri ?? r.uriTemplate!);
    ctx.r.error('MG801', at, `\`${uri}\` is not the URI of a declared resource and matches no declared template`, uris.length ? `declared: ${uris.join(', ')}` : 'declare the resource under resources:');
    return;
  }
  if (!ctx.registry || !found.variables) return;
  const params = ctx.m.resources![found.name]!.params ?? {};
  for (const [variable, raw] of Object.entries(found.variables)) {
    const schema = params[variable];
    if (schema === undefined) continue;
    const value = coerceString(safeDecode(raw), schema);
    const errors = ctx.registry.mismatch(schema, value);
    if (errors) ctx.r.error('MG801', at, `variable \`${variable}\` of resource \`${found.name}\` does not match its schema: ${describeDataError(errors).message}`, 'use a URI whose variables the resource accepts');
  }
}

/** The resource serving a URI, and the values of its template's variables. */
export interface ResourceMatch {
  readonly name: string;
  readonly variables?: Record<string, string>;
}

/** Where a resource is served: its name, and its fixed URI or its template (as its entry's summary has them). */
export interface ResourceAddress {
  readonly name: string;
  readonly uri?: string;
  readonly uriTemplate?: string;
}

/** The addresses of a manifest's resources, in order, read from their entries. */
export function addressesOf(m: RawManifest): ResourceAddress[] {
  return Object.entries(m.resources ?? {}).map(([name, r]) => ({ name, ...(r.uri !== undefined ? { uri: r.uri } : {}), ...(r.uriTemplate !== undefined ? { uriTemplate: r.uriTemplate } : {}) }));
}

/**
 * `matchResource` over `resources`, each URI's answer kept for the run and, with `cache`, across runs: a
 * template is matched by the SDK's matcher, and loading the SDK costs more than the rest of a regeneration
 * after a one-primitive edit. The answer is a function of the URI and of every resource's name, URI and
 * template, in order, which the key holds. The addresses come from the entries' summaries, so no entry an
 * earlier run kept is read for them.
 */
export function resourceMatcher(resources: readonly ResourceAddress[], cache?: GenerationCache): (uri: string) => ResourceMatch | undefined {
  const known = new Map<string, ResourceMatch | undefined>();
  let declared: string | undefined;
  return (uri) => {
    if (known.has(uri)) return known.get(uri);
    const compute = (): ResourceMatch | null => matchResource(resources, uri) ?? null;
    declared ??= cache && keyHash(JSON.stringify(resources.map((r) => [r.name, r.uri ?? null, r.uriTemplate ?? null])));
    // The hash has a fixed length, so the URI after it is read back as one input only.
    const found = (cache ? cache.fragment(`scenario-resource\u0000${declared}\u0000${uri}`, compute) : compute()) ?? undefined;
    known.set(uri, found);
    return found;
  };
}

/** The declared resource serving `uri`: fixed URIs first, then templates in order (as the server looks them up). */
export function matchResource(resources: readonly ResourceAddress[], uri: string): ResourceMatch | undefined {
  for (const r of resources) if (r.uri === uri) return { name: r.name };
  for (const r of resources) {
    if (r.uriTemplate === undefined) continue;
    let matched: Record<string, string | string[]> | null = null;
    try {
      matched = new (UriTemplate())(r.uriTemplate).match(uri);
    } catch {
      continue;
    }
    if (matched) return { name: r.name, variables: Object.fromEntries(Object.entries(matched).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])) };
  }
  return undefined;
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function unknown(ctx: CheckContext, at: Path, kind: string, name: string, names: string[]): void {
  ctx.r.error('MG801', at, `scenario step names ${kind} \`${name}\`, which is not declared${didYouMean(name, names)}`, names.length ? `declared ${kind}s: ${names.join(', ')}` : `declare it under ${kind}s:`);
}

/**
 * Scenarios read the primitives their steps name, whole (schemas, approvals), and every resource's URI for
 * a read step: this is the one check whose `whole` part reads entries of `ctx.m`.
 */
export const checkScenarios: Check = { whole: checkAllScenarios };
