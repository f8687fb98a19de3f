/**
 * The rules that read one primitive at a time (`reads: 'primitive'`), run one primitive at a time: a
 * primitive's findings are kept in the run's `GenerationCache` under everything those rules read for
 * it (its IR, its manifest entry, the named schemas, the server settings and which rules run), so a
 * change to one primitive runs them on that primitive only. With them, what each rule that compares
 * primitives reads of that primitive (`LintRule.summarise`) is computed and kept, so those rules compare
 * summaries rather than reading every primitive again.
 */
import { keyHash, type GenerationCache } from '../cache.js';
import type { IrPrimitive, IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { dotted } from '../manifest/source-map.js';
import { spotOf, type KeptFinding } from './located.js';
import type { LintContext, LintFinding, LintRule, PrimitiveRef } from './types.js';

/** What the per-primitive rules found on one primitive, by code (only those that found something), and what the other rules read of it. */
interface OnePrimitive {
  readonly findings: Readonly<Record<string, readonly KeptFinding[]>>;
  readonly summaries: Readonly<Record<string, unknown>>;
  /**
   * The key hashes of the values its rules remembered (`LintContext.remember`), when there were any: kept
   * for the next run while these findings are reused, so the next change to the primitive finds them.
   */
  readonly remembered?: readonly string[];
}

/** The cache key of a value remembered under `key` (`LintContext.remember`). */
export const rememberedKey = (key: string): string => `lint-remember\u0000${key}`;

/** Every finding of the per-primitive rules, by code, in the order the rules give them on the whole manifest. */
export interface PerPrimitiveFindings {
  readonly findings: ReadonlyMap<string, readonly KeptFinding[]>;
  /** What each rule that compares primitives read of each, by code (see `LintMemo.summaries`). */
  readonly summaries: ReadonlyMap<string, ReadonlyMap<IrPrimitive, unknown>>;
}

type Kind = PrimitiveRef['kind'];
type Primitive = IrTool | IrResource | IrPrompt;

/** The context of one primitive alone: the manifest and IR with every other primitive left out. */
function contextOf(ctx: LintContext, kind: Kind, p: Primitive): LintContext {
  const entry = ctx.manifest[kind]?.[p.name];
  return {
    ...ctx,
    manifest: { ...ctx.manifest, tools: {}, resources: {}, prompts: {}, [kind]: entry === undefined ? {} : { [p.name]: entry } },
    ir: { ...ctx.ir, tools: [], resources: [], prompts: [], [kind]: [p] },
    memo: {},
  };
}

/** A finding as plain JSON (no absent fields spelled `undefined`), so the cache keeps it exactly, with the strings of its diagnostic. */
function plain(f: LintFinding): KeptFinding {
  return {
    dotted: dotted(f.path),
    spot: spotOf(f),
    path: [...f.path],
    ...(f.at !== undefined ? { at: f.at } : {}),
    ...(f.offset !== undefined ? { offset: f.offset } : {}),
    message: f.message,
    hint: f.hint,
    ...(f.owner !== undefined ? { owner: { kind: f.owner.kind, name: f.owner.name } } : {}),
  };
}

const KIND: Readonly<Record<Primitive['kind'], Kind>> = { tool: 'tools', resource: 'resources', prompt: 'prompts' };

function runOn(ctx: LintContext, rules: readonly LintRule[], summarising: readonly LintRule[], kind: Kind, p: Primitive): OnePrimitive {
  const remembered = new Set<string>();
  const one: LintContext = {
    ...contextOf(ctx, kind, p),
    remember: (key, compute) => (remembered.add(keyHash(rememberedKey(key))), ctx.remember(key, compute)),
  };
  // Only the rules that found something: most find nothing on most primitives, and this is kept per primitive.
  const findings: Record<string, readonly KeptFinding[]> = {};
  for (const rule of rules) {
    const found = rule.check(one);
    if (found.length > 0) findings[rule.code] = found.map(plain);
  }
  const summaries: Record<string, unknown> = {};
  for (const rule of summarising) summaries[rule.code] = rule.summarise!(one, p);
  return { findings, summaries, ...(remembered.size > 0 ? { remembered: [...remembered] } : {}) };
}

/** What every primitive's findings also depend on: the rules that run, the server and the named schemas. */
function sharedKey(ctx: LintContext, rules: readonly LintRule[]): string {
  const named = ctx.ir.schemas.map((s) => [s.name, s.schema]);
  return keyHash(JSON.stringify([rules.map((r) => r.code), ctx.ir.server, named]));
}

/**
 * The cache key of one primitive: what determines its IR and manifest entry when the front knows it (see
 * manifest/entries.ts: its text and the server-wide sections), else its IR (less where it is written,
 * which rules never read) and its manifest entry.
 */
function primitiveKey(ctx: LintContext, cache: GenerationCache, shared: string, kind: Kind, p: Primitive, entry: string | undefined): string {
  if (entry !== undefined) {
    // The entry's hash the later steps key on too (computed once a run), when it hashes this very text.
    const hashed = cache.entryKeys?.(p) === entry ? cache.entryHash(p) : undefined;
    return `lint-entry\u0000${shared}\u0000${kind}\u0000${hashed !== undefined ? `#${hashed}` : `=${entry}`}`;
  }
  const { location: _, ...declared } = p;
  return `lint-primitive\u0000${shared}\u0000${kind}\u0000${JSON.stringify(declared)}\u0000${JSON.stringify(ctx.manifest[kind]?.[p.name] ?? null)}`;
}

/** Appends one primitive's findings of `rule`; a `sharedOnce` rule's path reported by an earlier primitive is dropped. */
function append(out: KeptFinding[], found: readonly KeptFinding[], reported: Set<string> | undefined): void {
  if (!reported) {
    out.push(...found);
    return;
  }
  const spot = (f: KeptFinding): string => f.spot ?? spotOf(f);
  out.push(...found.filter((f) => !reported.has(spot(f))));
  for (const f of found) reported.add(spot(f));
}

/** Where a primitive's results are kept: the cache, and what determines its entry (see `primitiveKey`). */
export interface PrimitiveMemo {
  readonly cache?: GenerationCache;
  readonly entryKey?: (p: IrPrimitive) => string | undefined;
}

/**
 * Runs the per-primitive `rules` on every primitive, tools then resources then prompts in IR order, and
 * the `summarising` rules' `summarise`, reusing from the cache the results of primitives whose inputs are
 * unchanged.
 */
export function findingsByPrimitive(ctx: LintContext, rules: readonly LintRule[], summarising: readonly LintRule[], memo: PrimitiveMemo = {}): PerPrimitiveFindings {
  const { cache } = memo;
  const findings = new Map<string, KeptFinding[]>(rules.map((r) => [r.code, []]));
  const summaries = new Map<string, Map<IrPrimitive, unknown>>(summarising.map((r) => [r.code, new Map()]));
  const reported = new Map(rules.filter((r) => r.sharedOnce).map((r) => [r.code, new Set<string>()]));
  const shared = cache ? sharedKey(ctx, [...rules, ...summarising]) : '';
  const all: [Kind, readonly Primitive[]][] = [['tools', ctx.ir.tools], ['resources', ctx.ir.resources], ['prompts', ctx.ir.prompts]];
  for (const [kind, primitives] of all) {
    for (const p of primitives) {
      const compute = (): OnePrimitive => runOn(ctx, rules, summarising, kind, p);
      const one = cache ? cache.fragment(primitiveKey(ctx, cache, shared, kind, p, memo.entryKey?.(p)), compute) : compute();
      for (const h of one.remembered ?? []) cache?.keep(h);
      for (const [code, found] of Object.entries(one.findings)) append(findings.get(code)!, found, reported.get(code));
      for (const rule of summarising) summaries.get(rule.code)!.set(p, one.summaries[rule.code]);
    }
  }
  return { findings, summaries };
}

/**
 * What `rule` read of each primitive: computed with the per-primitive findings when the engine ran them,
 * else now (a rule run on its own).
 */
export function summariesOf(ctx: LintContext, rule: LintRule): ReadonlyMap<IrPrimitive, unknown> {
  const known = ctx.memo.summaries?.get(rule.code);
  if (known) return known;
  const out = new Map<IrPrimitive, unknown>();
  for (const p of [...ctx.ir.tools, ...ctx.ir.resources, ...ctx.ir.prompts]) out.set(p, rule.summarise!(contextOf(ctx, KIND[p.kind], p), p));
  return out;
}
