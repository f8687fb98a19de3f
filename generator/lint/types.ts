/**
 * The lint rule contract. A rule reads the validated manifest and its IR and
 * returns findings that name a manifest path; the engine locates them (file,
 * line, column, source line), applies the manifest's severities and waivers,
 * and turns them into diagnostics. Rules never see YAML nodes and never print.
 */
import type { Severity } from '../diagnostics.js';
import type { Ir, IrPrimitive, JsonSchema } from '../ir/types.js';
import type { RawManifest } from '../manifest/types.js';
import type { InputNode } from './inputs.js';

/** A path into the manifest: mapping keys and sequence indexes. */
export type LintPath = readonly (string | number)[];

/** What a severity can be set to in `lint.rules`: a severity, or `off`. */
export type RuleLevel = Severity | 'off';

/** The primitive a finding belongs to, for per-primitive waivers. */
export interface PrimitiveRef {
  readonly kind: 'tools' | 'resources' | 'prompts';
  readonly name: string;
}

/** One finding of one rule, before it is located and given a severity. */
export interface LintFinding {
  /** Where to point: the key (`at: 'key'`) or value at this manifest path. */
  readonly path: LintPath;
  readonly at?: 'key' | 'value';
  /** A character index into the string value at `path`, to point inside a description or message. */
  readonly offset?: number;
  /** One line: what is wrong. */
  readonly message: string;
  /** The better design, naming what to write instead. */
  readonly hint: string;
  /** The primitive whose waivers apply; by default the one `path` starts in. */
  readonly owner?: PrimitiveRef;
}

/** Catalog-wide settings a rule may read (`lint.budget`). */
export interface LintBudget {
  /** Tokens (≈ characters / 4) the tool catalog may cost a client's context. */
  readonly contextBudgetTokens: number;
}

/** What every rule gets. */
export interface LintContext {
  /** The validated manifest, file `$ref`s inlined (for facts the IR drops, such as an unset `required`). */
  readonly manifest: RawManifest;
  /** The IR built from it: names, defaults, template variables, `source:` text. */
  readonly ir: Ir;
  /** Named schemas by key, for following `#/schemas/Name` references. */
  readonly named: ReadonlyMap<string, JsonSchema>;
  readonly budget: LintBudget;
  /** What several rules of this run derive alike, derived by the first that asks (`inputNodes`). */
  readonly memo: LintMemo;
  /**
   * A value that is a function of `key` alone (a pattern's verdict), computed once per run and kept
   * across runs in the incremental cache; it must be plain JSON (`null`, not `undefined`, for none).
   */
  remember<T>(key: string, compute: () => T): T;
  /**
   * What a rule kept in the last run under `name` (with the incremental cache; undefined without it): a
   * table it answers from where its own checks say it may (it is no function of a key), kept as it was for
   * the next run unless the rule keeps another.
   */
  carried?(name: string): Carried;
}

/** A rule's table carried from one run to the next (`LintContext.carried`). */
export interface Carried {
  /** The last run's table (plain JSON), or undefined when there is none. */
  last(): unknown;
  /** Keeps `value` (plain JSON) for the next run in place of the last run's table. */
  keep(value: unknown): void;
}

/** The shared derivations of one lint run. */
export interface LintMemo {
  inputNodes?: readonly InputNode[];
  /** What each rule that compares primitives read of each (`LintRule.summarise`), by code, computed with the per-primitive findings. */
  summaries?: ReadonlyMap<string, ReadonlyMap<IrPrimitive, unknown>>;
}

/**
 * What a rule's findings depend on. `primitive`: one primitive's own declaration only (its IR and its
 * manifest entry), with the named schemas and the server settings; such a rule gives, for a manifest,
 * its findings on each primitive alone, tools then resources then prompts, so the engine runs it on one
 * primitive at a time and reuses a primitive's findings while those inputs are unchanged. `manifest`:
 * it compares primitives or reads catalog-wide settings, and runs on the whole manifest every time.
 */
export type RuleReads = 'primitive' | 'manifest';

/** One design rule. Exported as `rule` from `rules/<code>-<slug>.ts`. */
export interface LintRule {
  /** Stable code in the MG7xx range. */
  readonly code: string;
  /** Kebab-case name, the file's slug. */
  readonly name: string;
  readonly defaultSeverity: Severity;
  /** One sentence: what the rule catches. */
  readonly description: string;
  /** What its findings depend on; `manifest` when absent. */
  readonly reads?: RuleReads;
  /**
   * For a `primitive` rule that reports a node of a shared named schema once, with the first primitive
   * that reaches it: a finding at a path an earlier primitive already reported is dropped.
   */
  readonly sharedOnce?: boolean;
  /**
   * For a `manifest` rule: what it reads of one primitive, from the context of that primitive alone, as
   * plain JSON (`null` for nothing). The engine computes it with the per-primitive findings and keeps it
   * with them in the incremental cache, so the rule compares these summaries (`summariesOf`) instead of
   * reading every primitive again.
   */
  summarise?(one: LintContext, p: IrPrimitive): unknown;
  check(ctx: LintContext): readonly LintFinding[];
}
