/**
 * The rows of a contract card that the seed's card asks for beyond shapes and gates: outcome, owner,
 * freshness, permission check, audit event, context cost and rollback (with what depends on the
 * primitive). Each is computed from the IR and the contract; the audit fields follow
 * runtime/security/call.ts and the context cost is lint's own counter (lint/tokens.ts).
 */
import type { CacheHint } from '../contract/cache.js';
import type { ResourceContract } from '../contract/types.js';
import type { Ir, IrPrimitiveBase, IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import { promptTokens, resourceTokens, toolTokens, type NamedSchemas } from '../lint/tokens.js';
import { mdCode, mdText } from './text.js';

/** The named schemas of a server, as lint's counter follows them. */
export function namedSchemas(ir: Ir): NamedSchemas {
  return new Map<string, JsonSchema>(ir.schemas.map((s) => [s.name, s.schema]));
}

/** The card's outcome row value. */
export function outcomeOf(p: IrPrimitiveBase): string {
  return p.outcome !== undefined ? mdText(p.outcome) : 'not declared (`outcome:`, lint MG728)';
}

/** The card's data owner row value. */
export function ownerOf(p: IrPrimitiveBase): string {
  return p.owner !== undefined ? mdText(p.owner) : 'not declared (`owner:`, lint MG729)';
}

/** `ttlMs` in words: `0 ms (stale at once)`, `60000 ms (1 min)`. */
function ttl(ms: number): string {
  if (ms === 0) return '0 ms (stale at once)';
  const units: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];
  const unit = units.find(([n]) => ms % n === 0);
  return unit ? `${ms} ms (${ms / unit[0]} ${unit[1]})` : `${ms} ms`;
}

/** Why a read is sent private when the manifest or the server default asked for public. */
function privateBecause(r: IrResource): string | undefined {
  if (r.scopes.length > 0) return 'scoped';
  if (r.audience !== undefined) return 'audience-restricted';
  if (r.classification === 'confidential' || r.classification === 'restricted') return r.classification;
  return undefined;
}

/** One cache hint as the card prints it. */
export function hintText(h: CacheHint): string {
  return `\`ttlMs\` ${ttl(h.ttlMs)}, \`cacheScope\` ${h.cacheScope}`;
}

/** A resource's freshness: revision, lastModified, the read's cache hint and what `_meta` carries. */
export function resourceFreshness(c: ResourceContract): string {
  const r = c.ir;
  const parts: string[] = [];
  if (r.revision !== undefined) parts.push(`revision ${mdCode(r.revision)}`);
  if (r.annotations?.lastModified !== undefined) parts.push(`lastModified ${mdCode(r.annotations.lastModified)}`);
  if (c.contentMeta !== undefined) parts.push('both in every contents entry\'s `_meta`');
  const why = privateBecause(r);
  const wanted = r.cache?.scope === 'public' && why !== undefined ? ` (private: ${why})` : '';
  parts.push(`reads (2026-07-28): ${hintText(c.cache)}${wanted}; private whenever the server runs with an \`authorize\` hook`);
  return parts.join('; ');
}

/** The card's permission check: a resource's audience, scopes, then the `authorize` hook with what it receives. */
export function permissionCheck(p: IrTool | IrResource | IrPrompt): string {
  const audienced = p.kind === 'resource' && p.audience !== undefined;
  const scopes = p.scopes.length ? `scopes ${p.scopes.map(mdCode).join(', ')} (checked ${audienced ? 'next' : 'first'}; a caller without them is refused before validation)` : 'no scope';
  const hook = 'then `authorize` (`ServerOptions.authorize`), when the server is given one, on every';
  if (p.kind === 'tool') return `${scopes}; input validated; ${hook} call with the validated input${p.approval === 'required' ? '; then the approval gate' : ''}`;
  if (p.kind === 'resource') {
    const extra = [p.classification !== undefined ? 'classification' : undefined, p.audience !== undefined ? 'audience' : undefined].filter(Boolean).join(' and ');
    const audience = p.audience !== undefined ? `audience ${p.audience.map(mdCode).join(', ')} (checked before anything else: a caller in none of them is answered -32602 \`Resource not found\` and never sees it listed); ` : '';
    return `${audience}${scopes}; URI${p.uriTemplate !== undefined ? ' and template variables' : ''} screened; ${hook} read with the URI${p.uriTemplate !== undefined ? ', the variables' : ''}${extra ? ` and the ${extra}` : ''}`;
  }
  const embeds = p.messages?.some((m) => 'resource' in m) ? '; embedded resources are read with the caller\'s own rights' : '';
  return `${scopes}; arguments validated; ${hook} get with the validated arguments${embeds}`;
}

/** The audit event of one call, read or get: the fields the runtime writes, and its outcomes. */
export function auditEvent(p: IrTool | IrResource | IrPrompt): string {
  const base = ['time', 'kind', 'name', 'principal', 'tenant (when the caller has one)', `argsSha256 (of the ${p.kind === 'tool' ? 'input' : p.kind === 'resource' ? 'URI' : 'arguments'}; values are never logged)`, 'outcome', 'durationMs'];
  const outcomes = ['ok', 'error', 'forbidden', 'invalid', 'too_large'];
  if (p.kind === 'tool') {
    outcomes.push('timeout');
    if (p.idempotency === 'required') (base.push('idempotencyKey'), outcomes.push('replayed', 'conflict', 'in_progress', 'capacity'));
    if (p.approval === 'required') (base.push('approval'), outcomes.push('approval_required', 'approval_refused'));
  }
  if (p.kind === 'resource') (base.push('uri'), outcomes.push('not_found'));
  base.push('reason (refusals and failures)');
  const overBudget = p.kind === 'resource' && p.maxBytes !== undefined ? '; a read over budget is `too_large` with the sizes in `reason`' : '';
  return `one ${p.kind === 'tool' ? 'call' : p.kind === 'resource' ? 'read' : 'get'} event: ${base.map((f) => mdCode(f.split(' ')[0]!) + f.slice(f.split(' ')[0]!.length)).join(', ')}; outcome ${outcomes.map(mdCode).join(' | ')}${overBudget}`;
}

/** Tokens a primitive costs in the catalog, by lint's counter. */
export function tokensOf(p: IrTool | IrResource | IrPrompt, named: NamedSchemas): number {
  return p.kind === 'tool' ? toolTokens(p, named) : p.kind === 'resource' ? resourceTokens(p, named) : promptTokens(p, named);
}

/** The card's context cost row. */
export function contextCost(p: IrTool | IrResource | IrPrompt, named: NamedSchemas): string {
  const n = tokensOf(p, named);
  if (p.kind === 'tool') return `≈ ${n} tokens (name, title, description and input schema: the count lint MG723 budgets)`;
  const what = p.kind === 'resource' ? `name, title, description, ${p.uriTemplate !== undefined ? 'URI template and variable schemas' : 'URI'}` : 'name, title, description, arguments and their schemas';
  const content = p.kind === 'resource' && p.maxBytes !== undefined ? `; content, when attached, at most ${p.maxBytes} bytes ≈ ${Math.ceil(p.maxBytes / 4)} tokens` : '';
  return `≈ ${n} tokens of listing (${what}; counted like MG723, outside its tool budget)${content}`;
}

/** A shell word for `value`: as is when safe, single-quoted otherwise. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_.:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `text` names `word` as a whole (not inside a longer identifier). */
function mentions(text: string | undefined, word: string): boolean {
  // A mention holds the word: most texts are ruled out without compiling an expression.
  return text !== undefined && text.includes(word) && new RegExp(`(?<![A-Za-z0-9_])${escapeRe(word)}(?![A-Za-z0-9_])`).test(text);
}

/** The texts of a primitive a reader (or a model) sees: description, and a prompt's static messages. */
function texts(p: IrTool | IrResource | IrPrompt): string[] {
  const out = [p.description ?? ''];
  if (p.kind === 'prompt') for (const m of p.messages ?? []) if ('text' in m) out.push(m.text);
  return out;
}

/** A word character as `mentions` sees it: a mention is never part of a longer run of these. */
const WORD_RUN = /[A-Za-z0-9_]+/g;

/** The runs of word characters in a tool's or prompt's texts, each once (what `MentionIndex` looks words up by). */
export function wordRuns(q: IrTool | IrPrompt): string[] {
  return [...new Set(texts(q).flatMap((t) => t.match(WORD_RUN) ?? []))];
}

/**
 * Which tools and prompts may mention a word, worked out once per server instead of testing every text
 * against every name (at 1,000 primitives, a million regular expressions). A text that mentions `w` holds
 * each run of word characters in `w` as a whole run of its own: the mention is preceded and followed by a
 * non-word character, and every other run of `w` is bounded by non-word characters of `w` itself. So the
 * texts holding any one of those runs are a superset of those that mention `w`, and `mentions` then
 * decides among them exactly; the run the fewest texts hold is taken (names sharing a prefix the
 * descriptions use, like `tickets.get` and `tickets.close`, would otherwise each be tested against them
 * all). It also knows which prompts embed each resource. `runs` gives a primitive's `wordRuns` (kept
 * between runs, with the cache).
 */
export class MentionIndex {
  private readonly byRun = new Map<string, (IrTool | IrPrompt)[]>();
  private readonly embedding = new Map<string, IrPrompt[]>();
  private readonly all: readonly (IrTool | IrPrompt)[];

  constructor(ir: Ir, runs: (q: IrTool | IrPrompt) => readonly string[] = wordRuns) {
    this.all = [...ir.tools, ...ir.prompts];
    for (const q of this.all) {
      const all = runs(q);
      for (let i = 0; i < all.length; i++) {
        const run = all[i]!;
        const list = this.byRun.get(run);
        if (list) list.push(q);
        else this.byRun.set(run, [q]);
      }
    }
    for (const q of ir.prompts) {
      for (const m of q.messages ?? []) {
        if (!('resource' in m)) continue;
        const list = this.embedding.get(m.resource);
        if (list === undefined) this.embedding.set(m.resource, [q]);
        else if (!list.includes(q)) list.push(q);
      }
    }
  }

  /** The tools and prompts, in manifest order (tools first), whose texts may mention `word`. */
  candidates(word: string): readonly (IrTool | IrPrompt)[] {
    let fewest: readonly (IrTool | IrPrompt)[] = this.all;
    for (const run of word.match(WORD_RUN) ?? []) {
      const holding = this.byRun.get(run) ?? [];
      if (holding.length < fewest.length) fewest = holding;
    }
    return fewest;
  }

  /** The prompts, in manifest order, whose messages embed resource `name`. */
  embedders(name: string): readonly IrPrompt[] {
    return this.embedding.get(name) ?? [];
  }
}

/**
 * What depends on a primitive, as its rollback row lists it: prompts that embed it, tools and prompts that
 * mention it, the instructions. The row reads nothing else of other primitives.
 */
export function dependents(ir: Ir, p: IrTool | IrResource | IrPrompt, index: MentionIndex): string[] {
  const word = p.kind === 'resource' ? (p.uri ?? p.uriTemplate!) : p.name;
  const embedding = p.kind === 'resource' ? index.embedders(p.name) : [];
  const mentioning = index.candidates(word).filter((q) => q !== p && texts(q).some((t) => mentions(t, word)));
  const out: string[] = [];
  if (embedding.length) out.push(`prompts that embed it: ${embedding.map((q) => mdCode(q.name)).join(', ')}`);
  const tools = mentioning.filter((q) => q.kind === 'tool');
  const prompts = mentioning.filter((q): q is IrPrompt => q.kind === 'prompt' && !embedding.includes(q));
  if (tools.length) out.push(`tools that mention it: ${tools.map((q) => mdCode(q.name)).join(', ')}`);
  if (prompts.length) out.push(`prompts that mention it: ${prompts.map((q) => mdCode(q.name)).join(', ')}`);
  if (mentions(ir.server.instructions, word)) out.push('the server instructions mention it');
  return out;
}

/**
 * The card's rollback row: the launch option that disables the primitive, and what depends on it
 * (`dependents`, when the caller has them already).
 */
export function rollback(ir: Ir, p: IrTool | IrResource | IrPrompt, index: MentionIndex = new MentionIndex(ir), deps: readonly string[] = dependents(ir, p, index)): string {
  const entry = `${p.kind}:${p.name}`;
  const how = `start the server with ${mdCode(`MCP_DISABLE=${shellWord(entry)}`)} or ${mdCode(`--disable ${shellWord(entry)}`)}`;
  return `${how}; ${deps.length ? `depends on it: ${deps.join('; ')}` : 'nothing declared depends on it'}`;
}
