/**
 * Runs every lint rule over a loaded manifest and turns findings into
 * located diagnostics: severities from `lint.rules`, waivers from each
 * primitive's `lint.disable`, and MG700 for the configuration itself.
 */
import { keyHash, type GenerationCache } from '../cache.js';
import type { Diagnostic, PendingPlace, PendingPlaces } from '../diagnostics.js';
import type { Ir, IrPrimitive, JsonSchema } from '../ir/types.js';
import type { SourceMap } from '../manifest/source-map.js';
import type { RawManifest } from '../manifest/types.js';
import { findingsByPrimitive, rememberedKey } from './by-primitive.js';
import { resolveConfig, severityOf, type Waiver } from './config.js';
import { diagnosticOf, firstAtEachPlace, type Located, type Locator } from './located.js';
import { RULES } from './rules/index.js';
import type { LintContext, LintFinding, LintRule, PrimitiveRef } from './types.js';

/** The code of findings about the lint configuration itself (waivers). */
export const CONFIG_CODE = 'MG700';

/** What the engine needs: the validated manifest, its IR, and where it came from. */
export interface LintInput {
  readonly manifest: RawManifest;
  readonly ir: Ir;
  /** The manifest file as shown in diagnostics. */
  readonly file: string;
  readonly map: SourceMap;
  /** The rules to run; all of them by default. */
  readonly rules?: readonly LintRule[];
  /**
   * The incremental cache: per-primitive findings and positions inside unchanged entries are reused
   * from it (see by-primitive.ts, located.ts). The diagnostics are the same with or without it.
   */
  readonly cache?: GenerationCache;
  /** A text that determines a primitive's IR and manifest entry, when the front knows one (see manifest/entries.ts). */
  readonly entryKey?: (p: IrPrimitive) => string | undefined;
}

const KINDS = new Set(['tools', 'resources', 'prompts']);

function ownerOf(f: LintFinding): PrimitiveRef | undefined {
  if (f.owner) return f.owner;
  const [kind, name] = f.path;
  return typeof kind === 'string' && KINDS.has(kind) && typeof name === 'string' ? { kind: kind as PrimitiveRef['kind'], name } : undefined;
}

const waiverKey = (code: string, owner: PrimitiveRef): string => `${code}\0${owner.kind}\0${owner.name}`;

/** The waivers by rule and primitive, the first of each kept (as a search of the list in order finds it). */
function waiverIndex(waivers: readonly Waiver[]): ReadonlyMap<string, Waiver> {
  const index = new Map<string, Waiver>();
  for (const w of waivers) {
    const k = waiverKey(w.code, w.owner);
    if (!index.has(k)) index.set(k, w);
  }
  return index;
}

function waiverFor(waivers: ReadonlyMap<string, Waiver>, code: string, owner: PrimitiveRef | undefined): Waiver | undefined {
  return owner && waivers.size > 0 ? waivers.get(waiverKey(code, owner)) : undefined;
}

/** MG700 findings: waivers without a reason, and waivers that suppress nothing. */
function configDiagnostics(input: Locator, waivers: readonly Waiver[], used: ReadonlySet<Waiver>, active: ReadonlySet<string>): Located[] {
  const out: Located[] = [];
  for (const w of waivers) {
    const where = `${w.owner.kind.slice(0, -1)} \`${w.owner.name}\``;
    if (w.reason.trim() === '') {
      out.push(diagnosticOf(input, CONFIG_CODE, 'error', { path: w.path, message: `the waiver of ${w.code} on ${where} has no reason`, hint: `say why the rule does not apply here, for example \`${w.code}: "lookup by a public catalogue number; nothing to protect"\`; the reason is shown in the contract card` }));
    } else if (active.has(w.code) && !used.has(w) && RULES.some((r) => r.code === w.code)) {
      out.push(diagnosticOf(input, CONFIG_CODE, 'warning', { path: w.path, at: 'key', message: `the waiver of ${w.code} on ${where} suppresses nothing`, hint: 'remove it: a stale waiver would hide the rule if the primitive later breaks it' }));
    }
  }
  return out;
}

/** The diagnostics of a lint run, and where those whose positions are still to be computed lie. */
export interface LintResult {
  readonly diagnostics: readonly Diagnostic[];
  /** For `sortDiagnostics`, which then computes only the positions it needs. */
  readonly places: PendingPlaces;
}

/**
 * Runs the rules and returns their diagnostics (unsorted). Pure: reads only
 * its input; a finding waived by its primitive is dropped, a rule set to
 * `off` is not run, and of one rule's findings at one position only the first is kept.
 */
export function lintDiagnostics(input: LintInput): LintResult {
  const rules = input.rules ?? RULES;
  const config = resolveConfig(input.manifest, input.ir, rules);
  const named = new Map<string, JsonSchema>(input.ir.schemas.map((s) => [s.name, s.schema]));
  const ctx: LintContext = { manifest: input.manifest, ir: input.ir, named, budget: config.budget, memo: {}, remember: remembering(input.cache), ...(input.cache ? { carried: carrying(input.cache) } : {}) };
  const active = rules.filter((r) => severityOf(config.levels.get(r.code)) !== undefined);
  const memo = { ...(input.cache ? { cache: input.cache } : {}), ...(input.entryKey ? { entryKey: input.entryKey } : {}) };
  const perPrimitive = findingsByPrimitive(ctx, active.filter((r) => r.reads === 'primitive'), active.filter((r) => r.reads !== 'primitive' && r.summarise), memo);
  ctx.memo.summaries = perPrimitive.summaries;
  // What a diagnostic located on first read holds on to: not the manifest, the IR or the front's memo.
  const loc: Locator = { file: input.file, map: input.map, ...(input.cache ? { cache: input.cache } : {}) };
  const used = new Set<Waiver>();
  const waivers = waiverIndex(config.waivers);
  const out: Located[] = [];
  for (const rule of active) {
    const severity = severityOf(config.levels.get(rule.code))!;
    const found: Located[] = [];
    for (const f of perPrimitive.findings.get(rule.code) ?? rule.check(ctx)) {
      const waiver = waiverFor(waivers, rule.code, ownerOf(f));
      if (waiver) used.add(waiver);
      else found.push(diagnosticOf(loc, rule.code, severity, f));
    }
    out.push(...firstAtEachPlace(found));
  }
  out.push(...configDiagnostics(loc, config.waivers, used, new Set(active.map((r) => r.code))));
  const places = new Map<Diagnostic, PendingPlace>();
  for (const l of out) if (l.place) places.set(l.diagnostic, l.place);
  return { diagnostics: out.map((l) => l.diagnostic), places };
}

/** `lintDiagnostics` without the places: the diagnostics, unsorted. */
export function lintManifest(input: LintInput): Diagnostic[] {
  return [...lintDiagnostics(input).diagnostics];
}

/** `LintContext.remember`: once per run, and across runs through the cache when there is one. */
function remembering(cache: GenerationCache | undefined): LintContext['remember'] {
  const known = new Map<string, unknown>();
  return <T>(key: string, compute: () => T): T => {
    if (known.has(key)) return known.get(key) as T;
    const value = cache ? cache.fragment(rememberedKey(key), compute) : compute();
    known.set(key, value);
    return value;
  };
}

/** `LintContext.carried` through the cache: a table is kept for the next run as it is until the rule keeps another. */
function carrying(cache: GenerationCache): NonNullable<LintContext['carried']> {
  return (name) => {
    const h = keyHash(`lint-carried\u0000${name}`);
    cache.keep(h);
    return { last: () => cache.peek(h), keep: (value) => cache.putText(h, JSON.stringify(value)) };
  };
}
