/**
 * `upstream:` and the `http:` of tools and resources: every name an upstream
 * request uses must exist, so the generated client can never send a value it
 * does not have or a credential nobody declared.
 */
import { parseUriTemplate } from '../uri-template.js';
import type { RawHttp, RawResource, RawTool } from '../types.js';
import { didYouMean } from '../suggest.js';
import { followNamed, type Check, type CheckContext, type Entry } from './context.js';

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** Placeholders of an `http.path`, in order. */
export function pathPlaceholders(path: string): string[] {
  return [...path.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

function credentials(ctx: CheckContext, section: 'tools' | 'resources', name: string, http: RawHttp): void {
  const declared = Object.keys(ctx.m.upstream?.credentials ?? {});
  (http.credentials ?? []).forEach((c, i) => {
    if (declared.includes(c)) return;
    ctx.r.error('MG323', [section, name, 'http', 'credentials', i], `credential \`${c}\` is not declared in upstream.credentials${didYouMean(c, declared)}`,
      `declare it under upstream.credentials (with \`in\`, \`name\` and \`env\`), or remove it here`);
  });
}

function objectProps(ctx: CheckContext, schema: unknown): { props: Record<string, unknown>; required: string[] } {
  const root = followNamed(schema, ctx.named) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return { props: root?.properties ?? {}, required: root?.required ?? [] };
}

function checkTool(ctx: CheckContext, name: string, t: RawTool): void {
  const http = t.http!;
  const { props, required } = objectProps(ctx, t.input);
  const at = (...rest: (string | number)[]) => ['tools', name, 'http', ...rest];
  for (const p of pathPlaceholders(http.path)) {
    if (!(p in props)) ctx.r.error('MG321', at('path'), `path placeholder \`{${p}}\` is not a property of the input of \`${name}\`${didYouMean(p, Object.keys(props))}`, `add \`${p}\` to the input's properties (and to \`required\`), or change the path`);
    else if (!required.includes(p)) ctx.r.error('MG321', at('path'), `path placeholder \`{${p}}\` names an optional input property: the request would have no path`, `list \`${p}\` under the input's \`required\``);
  }
  const mapped = [...Object.keys(http.query ?? {}).map((k) => ['query', k]), ...Object.keys(http.headers ?? {}).map((k) => ['headers', k]), ...Object.keys(http.cookies ?? {}).map((k) => ['cookies', k])];
  for (const [where, k] of mapped) {
    if (!(k! in props)) ctx.r.error('MG322', at(where!, k!), `\`${k}\` is not a property of the input of \`${name}\`${didYouMean(k!, Object.keys(props))}`, 'the keys of `http.query`, `http.headers` and `http.cookies` are input properties; the values are the upstream names', 'key');
  }
  if (http.body !== undefined && !(http.body in props)) ctx.r.error('MG322', at('body'), `body property \`${http.body}\` is not a property of the input of \`${name}\`${didYouMean(http.body, Object.keys(props))}`, 'name the input property that carries the request body');
  if (http.body === undefined && (http.bodyType !== undefined || http.contentType !== undefined)) {
    ctx.r.error('MG322', at(http.bodyType !== undefined ? 'bodyType' : 'contentType'), `\`${http.bodyType !== undefined ? 'bodyType' : 'contentType'}\` describes a request body, and \`${name}\` names no \`http.body\``, 'name the input property that carries the body with `body:`, or remove this key');
  }
  if (http.contentType !== undefined && http.bodyType !== 'binary' && http.bodyType !== 'text') {
    ctx.r.error('MG322', at('contentType'), `\`contentType\` applies to a \`binary\` or \`text\` body; a ${http.bodyType ?? 'json'} body has its own`, 'remove `contentType`, or set `bodyType: binary` or `text`');
  }
  const response = http.response ?? 'json';
  if (response !== 'json' && t.output !== undefined) ctx.r.error('MG324', at('response'), `\`response: ${response}\` cannot fill the structured output \`${name}\` declares`, 'remove `output` (the tool then returns text or blob content), or use `response: json`');
  if (http.wrap !== undefined) {
    const out = objectProps(ctx, t.output).props;
    if (response !== 'json' || !(http.wrap in out)) ctx.r.error('MG324', at('wrap'), `\`wrap: ${http.wrap}\` needs \`response: json\` and an output property \`${http.wrap}\``, `declare \`${http.wrap}\` in the output's properties, or remove \`wrap\``);
  }
  credentials(ctx, 'tools', name, http);
}

function checkResource(ctx: CheckContext, name: string, r: RawResource): void {
  const http = r.http!;
  let variables: string[] = [];
  try {
    variables = r.uriTemplate !== undefined ? [...parseUriTemplate(r.uriTemplate).variables] : [];
  } catch {
    return; // The template's own syntax error is reported by the resource checks.
  }
  for (const p of pathPlaceholders(http.path)) {
    if (!variables.includes(p)) ctx.r.error('MG321', ['resources', name, 'http', 'path'], `path placeholder \`{${p}}\` is not a variable of the URI of \`${name}\`${didYouMean(p, variables)}`, 'use the template variables of `uriTemplate` in the path');
  }
  credentials(ctx, 'resources', name, http);
}

function checkEntryHttp(ctx: CheckContext, e: Entry): void {
  if (e.section === 'prompts' || !e.value.http) return;
  if (ctx.m.upstream === undefined) {
    ctx.r.error('MG320', [e.section, e.name, 'http'], `\`${e.name}\` calls an upstream API, but the manifest has no top-level \`upstream:\``, 'add `upstream: { baseUrlEnv: MY_API_BASE_URL }` (and `credentials:` if the API needs them)', 'key');
  }
  if (e.section === 'tools') checkTool(ctx, e.name, e.value);
  else checkResource(ctx, e.name, e.value);
}

/** Checks `http:` blocks against their primitive and `upstream:`. */
export const checkHttp: Check = { entry: checkEntryHttp };
