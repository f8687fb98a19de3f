/**
 * Templated URIs are looked up without trying every template (uriRoutes.ts, lookup.ts, readRoutes.ts),
 * and every lookup finds what trying each template in turn finds:
 *
 * - `TemplateRoutes` on random templates (every RFC 6570 operator, empty and shared literal prefixes,
 *   templates without expressions) and random URIs (their expansions, and near misses);
 * - the catalog lookups (the scope challenge's `requiredScopes`, `resourceFor`) against the passes over the
 *   catalog they replace, with random primitives switched off;
 * - the SDK's `resources/read` on a routed server against the same server unrouted, in both eras, also
 *   after templates are removed, added and changed through the SDK; a read of the last of 200 templates
 *   tries one template, and no template callback ever sees the narrowed registry.
 */
import * as fc from 'fast-check';
import { McpServer, ResourceTemplate, UriTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createRuntime, type Catalog, type ResourceSpec } from '../../generator/runtime/index.js';
import { missingForRequest, requiredScopes } from '../../generator/runtime/host/scopeChallenge.js';
import { routeTemplateReads } from '../../generator/runtime/readRoutes.js';
import { resourceFor } from '../../generator/runtime/resources.js';
import { LONGEST_MATCHED_URI, TemplateRoutes, matchAlwaysThrows } from '../../generator/runtime/uriRoutes.js';
import type { Identity } from '../../generator/runtime/options.js';
import { missingScopes } from '../../generator/runtime/security/gate.js';
import { ERAS, connect } from './fixture.js';

const LITERALS = ['x://', 'x://a', 'x://a/', 'x://ab/', 'y:', '/', 'a', 'b', '.', '-', 'items/', '?', '%41'];
const EXPRESSIONS = ['{v}', '{+v}', '{#v}', '{.v}', '{/v}', '{?v}', '{&w}', '{v*}', '{v,w}', '{/v*}'];
const VALUES = ['a', 'b', '1', 'a/b', 'a.b', 'x y', ''];

const template = fc.array(fc.oneof(fc.constantFrom(...LITERALS), fc.constantFrom(...EXPRESSIONS)), { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
const templates = fc.array(template, { minLength: 1, maxLength: 12 });

/** URIs near the templates: expansions of them, with pieces of literal text around. */
function urisFor(list: readonly string[]) {
  const expansion = fc
    .tuple(fc.constantFrom(...list), fc.constantFrom(...VALUES), fc.constantFrom(...VALUES))
    .map(([t, v, w]) => new UriTemplate(t).expand({ ...(v ? { v } : {}), ...(w ? { w } : {}) }));
  const noise = fc.array(fc.constantFrom(...LITERALS, ...VALUES), { maxLength: 4 }).map((p) => p.join(''));
  return fc.oneof(expansion, fc.tuple(expansion, noise).map(([a, b]) => a + b), fc.tuple(noise, expansion).map(([a, b]) => a + b), noise);
}

/** The position of the first template matching `uri`, trying each in turn. */
function linearFirst(list: readonly string[], uri: string): number {
  return list.findIndex((t) => new UriTemplate(t).match(uri) !== null);
}

function routedFirst(list: readonly string[], uri: string): number {
  const routes = new TemplateRoutes(list, (t) => t);
  return routes.candidates(uri).find((p) => new UriTemplate(list[p]!).match(uri) !== null) ?? -1;
}

describe('TemplateRoutes', () => {
  it('finds the first matching template of random templates, as trying each in turn does', () => {
    fc.assert(
      fc.property(
        templates.chain((list) => fc.tuple(fc.constant(list), fc.array(urisFor(list), { minLength: 1, maxLength: 8 }))),
        ([list, uris]) => {
          for (const uri of uris) expect(routedFirst(list, uri), `${JSON.stringify(list)} ${JSON.stringify(uri)}`).toBe(linearFirst(list, uri));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the candidates in order, only those whose literal prefix begins the URI, and every template an empty prefix', () => {
    const list = ['x://a/{v}', '{+v}', 'x://ab/{v}', 'x://a/{+v}', 'y:{v}', 'x://a/'];
    const routes = new TemplateRoutes(list, (t) => t);
    expect(routes.candidates('x://a/1')).toEqual([0, 1, 3, 5]);
    expect(routes.candidates('x://ab/1')).toEqual([1, 2]);
    expect(routes.candidates('z')).toEqual([1]);
    const many = Array.from({ length: 200 }, (_, i) => `x://c${i}/items/{id}`);
    expect(new TemplateRoutes(many, (t) => t).candidates('x://c199/items/7')).toEqual([199]);
  });

  it('leaves out items without a template and gives every template for a URI too long to match', () => {
    const routes = new TemplateRoutes(['x://a/{v}', undefined, 'y:{v}'], (t) => t);
    expect(routes.candidates('q')).toEqual([]);
    expect(routes.candidates('x'.repeat(LONGEST_MATCHED_URI + 1))).toEqual([0, 2]);
  });

  it('tries a template whose match always throws on every URI, so the lookup throws where the pass did', () => {
    const huge = new UriTemplate(`${'.'.repeat(600_000)}{v}`);
    expect(matchAlwaysThrows(huge)).toBe(true);
    expect(matchAlwaysThrows(new UriTemplate('x://a/{v}'))).toBe(false);
    const list = [new UriTemplate('x://a/{v}'), huge];
    const routes = new TemplateRoutes(list, (t) => t.toString(), matchAlwaysThrows);
    expect(routes.candidates('x://b/1')).toEqual([1]);
    expect(() => list.find((t) => t.match('x://b/1'))).toThrow();
  });
});

// --- the catalog lookups against the passes they replace ---

const NAMES = ['a', 'b', 'c', '__proto__'];
const SCOPES = ['s1', 's2', 's3'];
const AUDIENCES = ['team', 'ops'];

const scopes = fc.subarray(SCOPES);
const resource = fc.record({
  name: fc.constantFrom(...NAMES),
  at: fc.oneof(template.map((t) => ({ uriTemplate: t })), fc.constantFrom(...LITERALS, 'x://a/1', 'x://ab/b').map((u) => ({ uri: u }))),
  scopes,
  audience: fc.option(fc.subarray(AUDIENCES), { nil: undefined }),
});
const catalog = fc.record({
  tools: fc.array(fc.record({ name: fc.constantFrom(...NAMES), scopes }), { maxLength: 5 }),
  prompts: fc.array(fc.record({ name: fc.constantFrom(...NAMES), scopes }), { maxLength: 5 }),
  resources: fc.array(resource, { maxLength: 8 }),
});
const identity = fc.record({ principal: fc.constant('p'), scopes, audiences: fc.subarray(AUDIENCES) });
const disabled = fc.subarray(NAMES.flatMap((n) => [`tool:${n}`, `prompt:${n}`, `resource:${n}`]));

type Drawn = { tools: { name: string; scopes: string[] }[]; prompts: { name: string; scopes: string[] }[]; resources: { name: string; at: { uri?: string; uriTemplate?: string }; scopes: string[]; audience?: string[] | undefined }[] };

function catalogOf(drawn: Drawn): Catalog {
  return {
    scopes: SCOPES,
    tools: drawn.tools.map((t) => ({ ...t, output: false, sideEffect: 'read', idempotency: 'none', approval: 'none' })) as unknown as Catalog['tools'],
    prompts: drawn.prompts as unknown as Catalog['prompts'],
    resources: drawn.resources.map((r) => ({ name: r.name, ...r.at, scopes: r.scopes, ...(r.audience ? { audience: r.audience } : {}), mimeType: 'text/plain', textual: true, json: false })),
  };
}

/** The scope challenge's lookup as a pass over the catalog without its switched-off primitives. */
function referenceScopes(catalog: Catalog, off: ReadonlySet<string>, body: { method: string; params: Record<string, unknown> }, who: Identity): readonly string[] {
  const served: Catalog = {
    ...catalog,
    tools: catalog.tools.filter((t) => !off.has(`tool:${t.name}`)),
    resources: catalog.resources.filter((r) => !off.has(`resource:${r.name}`)),
    prompts: catalog.prompts.filter((p) => !off.has(`prompt:${p.name}`)),
  };
  const visible = (spec: ResourceSpec | undefined): readonly string[] => (spec === undefined || (spec.audience !== undefined && !spec.audience.some((a) => (who.audiences ?? []).includes(a))) ? [] : spec.scopes);
  const ofUri = (uri: unknown): readonly string[] =>
    typeof uri !== 'string' ? [] : visible(served.resources.find((r) => r.uri === uri) ?? served.resources.find((r) => r.uriTemplate !== undefined && new UriTemplate(r.uriTemplate).match(uri) !== null));
  const p = body.params;
  switch (body.method) {
    case 'tools/call':
      return served.tools.find((t) => t.name === p['name'])?.scopes ?? [];
    case 'prompts/get':
      return served.prompts.find((t) => t.name === p['name'])?.scopes ?? [];
    case 'resources/read':
      return ofUri(p['uri']);
    case 'subscriptions/listen':
      return [...new Set((p['notifications'] as { resourceSubscriptions: unknown[] }).resourceSubscriptions.flatMap(ofUri))];
    default: {
      const ref = p['ref'] as { type: string; name?: string; uri?: string };
      if (ref.type === 'ref/prompt') return served.prompts.find((t) => t.name === ref.name)?.scopes ?? [];
      return visible(served.resources.find((r) => r.uriTemplate === ref.uri));
    }
  }
}

/** `resourceFor` as a pass over the catalog. */
function referenceResource(catalog: Catalog, off: ReadonlySet<string>, uri: string): { spec: ResourceSpec; variables?: unknown } | undefined {
  for (const spec of catalog.resources) if (spec.uri !== undefined && spec.uri === uri) return off.has(`resource:${spec.name}`) ? undefined : { spec };
  for (const spec of catalog.resources) {
    if (spec.uriTemplate === undefined || off.has(`resource:${spec.name}`)) continue;
    const variables = new UriTemplate(spec.uriTemplate).match(uri);
    if (variables) return { spec, variables };
  }
  return undefined;
}

describe('catalog lookups', () => {
  it('need the scopes a pass over the served catalog needs, for every method, with primitives switched off', () => {
    const drawn = catalog.chain((c) => {
      const targets = [...c.resources.map((r) => Object.values(r.at)[0] ?? ''), ...LITERALS];
      const uri = fc.oneof(urisFor(targets), fc.constantFrom(...targets));
      const body = fc.oneof(
        fc.constantFrom(...NAMES, 'zz').map((name) => ({ method: 'tools/call', params: { name } })),
        fc.constantFrom(...NAMES, 'zz').map((name) => ({ method: 'prompts/get', params: { name } })),
        uri.map((u) => ({ method: 'resources/read', params: { uri: u } })),
        fc.array(uri, { maxLength: 3 }).map((us) => ({ method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: us } } })),
        fc.constantFrom(...NAMES).map((name) => ({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name } } })),
        fc.constantFrom(...targets).map((u) => ({ method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: u } } })),
      );
      return fc.tuple(fc.constant(c), disabled, identity, fc.array(body, { minLength: 1, maxLength: 6 }), fc.array(uri, { minLength: 1, maxLength: 4 }));
    });
    fc.assert(
      fc.property(drawn, ([c, off, who, bodies, uris]) => {
        const cat = catalogOf(c as Drawn);
        const offSet = new Set(off);
        const served = (kind: string, name: string): boolean => !offSet.has(`${kind}:${name}`);
        for (const body of bodies) {
          expect(requiredScopes(cat, body, who, served), JSON.stringify(body)).toEqual(referenceScopes(cat, offSet, body, who));
          expect(missingForRequest(cat, body, who, served)).toEqual(missingScopes(referenceScopes(cat, offSet, body, who), who.scopes));
        }
        const rt = createRuntime({ audit: false, stderr: { write: () => true } }, cat);
        for (const id of off) rt.disabled.add(id);
        for (const uri of uris) expect(resourceFor(rt, uri), uri).toEqual(referenceResource(cat, offSet, uri));
      }),
      { numRuns: 300 },
    );
  });
});

// --- the SDK's resources/read, routed and not ---

const SDK_TEMPLATES = ['x://a/{id}', 'x://a/{+path}', 'x://{host}/items/{id}', 'x://b/{id}{?q}', 'x://b/{id}', 'y:{v}', '{+any}'];

interface Built {
  readonly server: McpServer;
  readonly handles: Map<string, ReturnType<McpServer['registerResource']>>;
  /** How many templates the registry held, as each read callback saw it. */
  readonly seen: number[];
}

function build(routed: boolean, list: readonly string[] = SDK_TEMPLATES, disable: readonly number[] = [3]): Built {
  const server = new McpServer({ name: 'routes', version: '1.0.0' }, { capabilities: { resources: { listChanged: true } } });
  const handles = new Map<string, ReturnType<McpServer['registerResource']>>();
  const seen: number[] = [];
  const registry = (): number => Object.keys((server as unknown as { _registeredResourceTemplates: object })._registeredResourceTemplates).length;
  server.registerResource('fixed', 'x://a/fixed', {}, (uri) => {
    seen.push(registry());
    return { contents: [{ uri: uri.href, text: 'fixed' }] };
  });
  list.forEach((t, i) => {
    const handle = server.registerResource(`t${i}`, new ResourceTemplate(t, { list: undefined }), {}, (uri, variables) => {
      seen.push(registry());
      return { contents: [{ uri: uri.href, text: `t${i} ${JSON.stringify(variables)}` }] };
    });
    handles.set(`t${i}`, handle);
  });
  for (const i of disable) handles.get(`t${i}`)!.disable();
  if (routed) routeTemplateReads(server);
  return { server, handles, seen };
}

const READS = ['x://a/fixed', 'x://a/1', 'x://a/1/2', 'x://h/items/9', 'x://b/7?q=1', 'x://b/7', 'y:zz', 'z:other', 'x://A/1', 'not a uri', 'x://a/%41', `x://a/${'x'.repeat(40)}`];

async function answers(built: Built, mode: (typeof ERAS)[number]['mode'], uris: readonly string[] = READS): Promise<unknown[]> {
  const conn = await connect(mode, () => built.server);
  try {
    const out: unknown[] = [];
    for (const uri of uris) {
      out.push(
        await conn.client.readResource({ uri }).then(
          (r) => r.contents,
          (e: { code?: number; message?: string }) => ({ code: e.code, message: e.message }),
        ),
      );
    }
    return out;
  } finally {
    await conn.close();
  }
}

describe.each(ERAS)('resources/read routed ($era era)', ({ mode }) => {
  it('answers every read as the unrouted server does, and no callback sees a narrowed registry', async () => {
    const routed = build(true);
    expect(await answers(routed, mode)).toEqual(await answers(build(false), mode));
    expect(routed.seen.length).toBeGreaterThan(3);
    expect(new Set(routed.seen)).toEqual(new Set([SDK_TEMPLATES.length]));
  });

  it('follows templates removed, added and changed through the SDK after reads', async () => {
    const change = async (built: Built): Promise<unknown[]> => {
      const before = await answers(built, mode);
      built.handles.get('t0')!.remove();
      built.handles.get('t3')!.enable();
      built.server.registerResource('late', new ResourceTemplate('z:{v}', { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'late' }] }));
      built.handles.get('t5')!.update({ template: new ResourceTemplate('y:q/{v}', { list: undefined }) });
      return [before, await answers(built, mode, [...READS, 'z:v', 'y:q/1'])];
    };
    const routed = await change(build(true, SDK_TEMPLATES.slice(0, -1)));
    expect(routed).toEqual(await change(build(false, SDK_TEMPLATES.slice(0, -1))));
    expect(JSON.stringify(routed[1])).toContain('late');
  });

  it('takes the full pass when the registry was changed behind the SDK (nothing announced)', async () => {
    const change = async (built: Built): Promise<unknown[]> => {
      const before = await answers(built, mode);
      const registry = (built.server as unknown as { _registeredResourceTemplates: Record<string, { resourceTemplate: unknown }> })._registeredResourceTemplates;
      delete registry['t0'];
      registry['t5']!.resourceTemplate = new ResourceTemplate('x://a/{id}/x', { list: undefined });
      return [before, await answers(built, mode, [...READS, 'x://a/1/x'])];
    };
    expect(await change(build(true))).toEqual(await change(build(false)));
  });

  it('tries one template for a read of the last of 200', async () => {
    const list = Array.from({ length: 200 }, (_, i) => `x://c${i}/items/{id}`);
    const counted = (routed: boolean): { built: Built; tries: () => number; reset: () => void } => {
      const built = build(routed, list, []);
      let tries = 0;
      const registry = (built.server as unknown as { _registeredResourceTemplates: Record<string, { resourceTemplate: { uriTemplate: UriTemplate } }> })._registeredResourceTemplates;
      for (const entry of Object.values(registry)) {
        const t = entry.resourceTemplate.uriTemplate;
        const match = t.match.bind(t);
        t.match = (uri: string) => {
          tries++;
          return match(uri);
        };
      }
      return { built, tries: () => tries, reset: () => void (tries = 0) };
    };
    const routed = counted(true);
    const plain = counted(false);
    // The first read indexes the registry (asking each template once whether its match always throws).
    await answers(routed.built, mode, ['x://c0/items/1']);
    routed.reset();
    const uris = ['x://c199/items/7', 'x://c5/items/1'];
    expect(await answers(routed.built, mode, uris)).toEqual(await answers(plain.built, mode, uris));
    expect(routed.tries()).toBe(2);
    expect(plain.tries()).toBe(200 + 6);
  });
});
