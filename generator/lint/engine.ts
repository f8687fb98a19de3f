/**
 * Runs every lint rule over a loaded manifest and turns findings into
 * located diagnostics: severities from `lint.rules`, waivers from each
 * primitive's `lint.disable`, and MG700 for the configuration itself.
 */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { Ir, JsonSchema } from '../ir/types.js';
import { dotted, type SourceMap } from '../manifest/source-map.js';
import type { RawManifest } from '../manifest/types.js';
import { resolveConfig, severityOf, type Waiver } from './config.js';
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
}

const KINDS = new Set(['tools', 'resources', 'prompts']);

function ownerOf(f: LintFinding): PrimitiveRef | undefined {
  if (f.owner) return f.owner;
  const [kind, name] = f.path;
  return typeof kind === 'string' && KINDS.has(kind) && typeof name === 'string' ? { kind: kind as PrimitiveRef['kind'], name } : undefined;
}

function locate(input: LintInput, code: string, severity: Severity, f: Pick<LintFinding, 'path' | 'at' | 'offset' | 'message' | 'hint'>): Diagnostic {
  const p = f.offset !== undefined ? input.map.locateInString(f.path, f.offset) : input.map.locate(f.path, f.at ?? 'value');
  const sourceLine = input.map.lineText(p.line);
  return {
    code, severity, message: f.message, path: dotted(f.path), file: input.file, line: p.line, column: p.column, hint: f.hint,
    ...(sourceLine !== undefined ? { sourceLine } : {}),
  };
}

function waiverFor(waivers: readonly Waiver[], code: string, owner: PrimitiveRef | undefined): Waiver | undefined {
  if (!owner) return undefined;
  return waivers.find((w) => w.code === code && w.owner.kind === owner.kind && w.owner.name === owner.name);
}

/** MG700 findings: waivers without a reason, and waivers that suppress nothing. */
function configDiagnostics(input: LintInput, waivers: readonly Waiver[], used: ReadonlySet<Waiver>, active: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const w of waivers) {
    const where = `${w.owner.kind.slice(0, -1)} \`${w.owner.name}\``;
    if (w.reason.trim() === '') {
      out.push(locate(input, CONFIG_CODE, 'error', { path: w.path, message: `the waiver of ${w.code} on ${where} has no reason`, hint: `say why the rule does not apply here, for example \`${w.code}: "lookup by a public catalogue number; nothing to protect"\`; the reason is shown in the contract card` }));
    } else if (active.has(w.code) && !used.has(w) && RULES.some((r) => r.code === w.code)) {
      out.push(locate(input, CONFIG_CODE, 'warning', { path: w.path, at: 'key', message: `the waiver of ${w.code} on ${where} suppresses nothing`, hint: 'remove it: a stale waiver would hide the rule if the primitive later breaks it' }));
    }
  }
  return out;
}

/**
 * Runs the rules and returns their diagnostics (unsorted). Pure: reads only
 * its input; a finding waived by its primitive is dropped, a rule set to
 * `off` is not run.
 */
export function lintManifest(input: LintInput): Diagnostic[] {
  const rules = input.rules ?? RULES;
  const config = resolveConfig(input.manifest, rules);
  const named = new Map<string, JsonSchema>(input.ir.schemas.map((s) => [s.name, s.schema]));
  const ctx: LintContext = { manifest: input.manifest, ir: input.ir, named, budget: config.budget, memo: {} };
  const used = new Set<Waiver>();
  const active = new Set<string>();
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const severity = severityOf(config.levels.get(rule.code));
    if (!severity) continue;
    active.add(rule.code);
    for (const f of rule.check(ctx)) {
      const waiver = waiverFor(config.waivers, rule.code, ownerOf(f));
      if (waiver) {
        used.add(waiver);
        continue;
      }
      const d = locate(input, rule.code, severity, f);
      const key = `${d.code}|${d.line}|${d.column}`;
      if (!seen.has(key)) out.push(d);
      seen.add(key);
    }
  }
  return [...out, ...configDiagnostics(input, config.waivers, used, active)];
}

