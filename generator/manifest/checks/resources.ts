import { isJsonMime, isMimeType } from '../mime.js';
import type { RawResource } from '../types.js';
import { parseUriTemplate } from '../uri-template.js';
import type { Check, CheckContext, Entry, EntrySummary } from './context.js';

/** URI / template rules, params ↔ variables, template-only and fixed-only keys, MIME types. */
function checkResource(ctx: CheckContext, e: Entry): void {
  if (e.section !== 'resources') return;
  const { name, value: res } = e;
  const path = ['resources', name];
  if (!isMimeType(res.mimeType)) {
    ctx.r.error('MG401', [...path, 'mimeType'], `\`${res.mimeType}\` is not a MIME type shaped type/subtype`, 'e.g. `text/markdown`, `application/json`, `image/png`');
  }
  if (res.schema !== undefined && !isJsonMime(res.mimeType)) {
    ctx.r.error('MG414', [...path, 'schema'], `\`schema\` describes JSON content, but \`${name}\` is \`${res.mimeType}\``,
      'remove `schema`, or serve `application/json` (or a `+json` type)', 'key');
  }
  const both = res.uri !== undefined && res.uriTemplate !== undefined;
  if (both || (res.uri === undefined && res.uriTemplate === undefined)) {
    ctx.r.error('MG400', both ? [...path, 'uriTemplate'] : path,
      both ? `resource \`${name}\` has both \`uri\` and \`uriTemplate\`` : `resource \`${name}\` has neither \`uri\` nor \`uriTemplate\``,
      'give exactly one: `uri` for one fixed resource, `uriTemplate` for a family addressed by variables', 'key');
  }
  // With both, which keys are misplaced depends on the author's intent: report only MG400.
  if (both) return;
  if (res.uri !== undefined) checkFixed(ctx, name, res);
  else if (res.uriTemplate !== undefined) checkTemplate(ctx, name, res, res.uriTemplate);
}

/**
 * `server.capabilities.resources.subscribe: false` beside a resource with `subscribe: true`. The
 * specification has no per-resource subscriptions: the capability alone tells clients whether they may
 * subscribe, so the server cannot publish `false` and still serve the resource's subscribers.
 */
function checkSubscribeCapability(ctx: CheckContext, entries: readonly EntrySummary[]): void {
  if (ctx.m.server.capabilities?.resources?.subscribe !== false) return;
  const subscribing = entries.filter((e) => e.section === 'resources' && e.subscribe === true).map((e) => e.name);
  if (subscribing.length === 0) return;
  const names = subscribing.map((n) => `\`${n}\``).join(', ');
  ctx.r.error('MG416', ['server', 'capabilities', 'resources', 'subscribe'],
    `\`subscribe: false\` tells clients they cannot subscribe to resources, but ${names} declare${subscribing.length === 1 ? 's' : ''} \`subscribe: true\``,
    `remove this line (the capability is then published as \`subscribe: true\`), or remove \`subscribe: true\` from ${names}`);
}

function isAbsoluteUri(u: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(u)) return false;
  try {
    new URL(u);
    return true;
  } catch {
    return false;
  }
}

function checkFixed(ctx: CheckContext, name: string, res: RawResource): void {
  const path = ['resources', name];
  if (!isAbsoluteUri(res.uri!)) {
    ctx.r.error('MG402', [...path, 'uri'], `\`${res.uri}\` is not an absolute URI with a scheme`, 'e.g. `support://policies/refunds` or `file:///docs/readme.md`');
  }
  if (/\{[^}]*\}/.test(res.uri!)) {
    ctx.r.error('MG402', [...path, 'uri'], `\`${res.uri}\` contains a template expression`, 'use `uriTemplate:` for a URI with variables');
  }
  for (const key of ['params', 'complete', 'list'] as const) {
    if (res[key] !== undefined) {
      ctx.r.error('MG409', [...path, key], `\`${key}\` only applies to templated resources, but \`${name}\` has a fixed \`uri\``,
        `remove \`${key}\`, or use \`uriTemplate:\``, 'key');
    }
  }
}

function checkTemplate(ctx: CheckContext, name: string, res: RawResource, template: string): void {
  const path = ['resources', name];
  const at = [...path, 'uriTemplate'];
  const parsed = parseUriTemplate(template);
  for (const p of parsed.problems) {
    ctx.r.add({ code: p.code, message: p.message, hint: p.hint }, { path: at, position: ctx.map.locateInString(at, p.index) });
  }
  if (parsed.problems.length === 0 && !isAbsoluteUri(parsed.sample)) {
    ctx.r.error('MG402', at, `\`${template}\` does not expand to an absolute URI with a scheme`, 'start it with a scheme, e.g. `support://tickets/{ticketId}`');
  }
  const params = Object.keys(res.params ?? {});
  for (const v of parsed.variables) {
    if (params.includes(v)) continue;
    ctx.r.add(
      { code: 'MG406', message: `template variable \`${v}\` is not declared in \`params\``, hint: `add \`params: { ${v}: { type: string } }\` (a JSON Schema for the variable)` },
      { path: at, position: ctx.map.locateInString(at, parsed.positions.get(v) ?? 0) },
    );
  }
  for (const p of params) {
    if (!parsed.variables.includes(p)) {
      ctx.r.error('MG407', [...path, 'params', p], `\`params.${p}\` is not a variable of \`${template}\``,
        `remove it, or use \`{${p}}\` in the template; variables: ${parsed.variables.join(', ') || 'none'}`, 'key');
    }
  }
  (res.complete ?? []).forEach((c, i) => {
    if (!parsed.variables.includes(c)) {
      ctx.r.error('MG408', [...path, 'complete', i], `\`complete\` names \`${c}\`, which is not a variable of \`${template}\``,
        `variables: ${parsed.variables.join(', ') || 'none'}`);
    }
  });
  if (res.source !== undefined) {
    ctx.r.error('MG410', [...path, 'source'], `\`source\` serves one fixed file, but \`${name}\` is a template`,
      'remove `source` (a handler reads templated resources), or use a fixed `uri`', 'key');
  }
}

/** A resource's URI or template, parameters and MIME type; the subscribe capability against the resources. */
export const checkResources: Check = { entry: checkResource, whole: checkSubscribeCapability };
