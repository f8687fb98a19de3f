/**
 * The rules that read one primitive at a time (`reads: 'primitive'`), run one primitive at a time: a
 * primitive's findings are kept in the run's `GenerationCache` under everything those rules read for
 * it (its IR, its manifest entry, the named schemas, the server settings and which rules run), so a
 * change to one primitive runs them on that primitive only.
 */
import { keyHash, type GenerationCache } from '../cache.js';
import type { IrPrompt, IrResource, IrTool } from '../ir/types.js';
import { dotted } from '../manifest/source-map.js';
import { spotOf, type KeptFinding } from './located.js';
import { toolTokens } from './tokens.js';
import type { LintContext, LintFinding, LintRule, PrimitiveRef } from './types.js';

/** What the per-primitive rules found on one primitive, by code, and a tool's context cost (MG723). */
interface OnePrimitive {
  readonly findings: Readonly<Record<string, readonly KeptFinding[]>>;
  readonly tokens?: number;
}

/** Every finding of the per-primitive rules, by code, in the order the rules give them on the whole manifest. */
export interface PerPrimitiveFindings {
  readonly findings: ReadonlyMap<string, readonly KeptFinding[]>;
  /** Each tool's context cost, for `LintMemo.toolTokens`. */
  readonly tokens: ReadonlyMap<IrTool, number>;
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

function runOn(ctx: LintContext, rules: readonly LintRule[], kind: Kind, p: Primitive): OnePrimitive {
  const one = contextOf(ctx, kind, p);
  const findings: Record<string, readonly KeptFinding[]> = {};
  for (const rule of rules) findings[rule.code] = rule.check(one).map(plain);
  return kind === 'tools' ? { findings, tokens: toolTokens(p as IrTool, ctx.named) } : { findings };
}

/** What every primitive's findings also depend on: the rules that run, the server and the named schemas. */
function sharedKey(ctx: LintContext, rules: readonly LintRule[]): string {
  const named = ctx.ir.schemas.map((s) => [s.name, s.schema]);
  return keyHash(JSON.stringify([rules.map((r) => r.code), ctx.ir.server, named]));
}

/** The cache key of one primitive: its IR (less where it is written, which rules never read) and its manifest entry. */
function primitiveKey(ctx: LintContext, shared: string, kind: Kind, p: Primitive): string {
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

/**
 * Runs the per-primitive `rules` on every primitive, tools then resources then prompts in IR order,
 * reusing from `cache` the findings of primitives whose inputs are unchanged.
 */
export function findingsByPrimitive(ctx: LintContext, rules: readonly LintRule[], cache?: GenerationCache): PerPrimitiveFindings {
  const findings = new Map<string, KeptFinding[]>(rules.map((r) => [r.code, []]));
  const reported = new Map(rules.filter((r) => r.sharedOnce).map((r) => [r.code, new Set<string>()]));
  const tokens = new Map<IrTool, number>();
  const shared = cache ? sharedKey(ctx, rules) : '';
  const all: [Kind, readonly Primitive[]][] = [['tools', ctx.ir.tools], ['resources', ctx.ir.resources], ['prompts', ctx.ir.prompts]];
  for (const [kind, primitives] of all) {
    for (const p of primitives) {
      const compute = (): OnePrimitive => runOn(ctx, rules, kind, p);
      const one = cache ? cache.fragment(primitiveKey(ctx, shared, kind, p), compute) : compute();
      for (const rule of rules) append(findings.get(rule.code)!, one.findings[rule.code] ?? [], reported.get(rule.code));
      if (one.tokens !== undefined) tokens.set(p as IrTool, one.tokens);
    }
  }
  return { findings, tokens };
}
