import { createRequire } from 'node:module';
import type { JsonSchema } from '../../ir/types.js';
import { isLinear } from '../../runtime/schema/regex.js';
import { walkSchema } from '../schema-walk.js';
import type { LintContext, LintFinding, LintPath, LintRule, PrimitiveRef } from '../types.js';

// safe-regex2 (CommonJS) flags nested quantifiers (star height above one), the shape of every
// exponential-time pattern; it loads only when a manifest has patterns.
const require = createRequire(import.meta.url);
let detector: ((pattern: string) => boolean) | undefined;

function catastrophic(pattern: string): boolean {
  detector ??= require('safe-regex2') as (pattern: string) => boolean;
  try {
    return !detector(pattern);
  } catch {
    return false; // not a pattern this detector can parse: the manifest checks report invalid ones
  }
}

/** Every schema of a primitive that checks request data, with where it is written. */
function requestSchemas(ctx: LintContext): { schema: JsonSchema; path: LintPath; owner: PrimitiveRef; label: string }[] {
  const out: { schema: JsonSchema; path: LintPath; owner: PrimitiveRef; label: string }[] = [];
  for (const t of ctx.ir.tools) out.push({ schema: t.input, path: ['tools', t.name, 'input'], owner: { kind: 'tools', name: t.name }, label: `the input of \`${t.name}\`` });
  for (const r of ctx.ir.resources) {
    const owner = { kind: 'resources', name: r.name } as const;
    for (const p of r.params) out.push({ schema: p.schema, path: ['resources', r.name, 'params', p.name], owner, label: `variable \`${p.name}\` of \`${r.name}\`` });
  }
  for (const p of ctx.ir.prompts) {
    const owner = { kind: 'prompts', name: p.name } as const;
    for (const a of p.arguments) out.push({ schema: a.schema, path: ['prompts', p.name, 'arguments', a.name, 'schema'], owner, label: `argument \`${a.name}\` of \`${p.name}\`` });
  }
  return out;
}

function problem(pattern: string): { message: string; hint: string } | undefined {
  if (catastrophic(pattern)) {
    return {
      message: 'has nested repetition, which backtracking engines run in exponential time (a short crafted value stalls the process)',
      hint: 'remove the nesting, e.g. `^(\\w+\\s?)*$` → `^[\\w\\s]*$`, or bound the string with `maxLength`; generated servers match patterns in linear time, other validators of this schema may not',
    };
  }
  if (!isLinear(pattern)) {
    return {
      message: 'needs lookaround or backreferences, so the server matches it with the backtracking engine instead of the linear-time one',
      hint: 'rewrite it without `(?=`, `(?!`, `(?<=`, `(?<!` or `\\1`, or bound the string with a small `maxLength`',
    };
  }
  return undefined;
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  const seen = new Set<string>();
  // Manifests repeat a few patterns on many schemas, and each verdict compiles the pattern: it is reached once per run, and kept across runs.
  const verdict = (pattern: string) => ctx.remember(`MG725\u0000${pattern}`, () => problem(pattern) ?? null);
  for (const root of requestSchemas(ctx)) {
    for (const n of walkSchema(root.schema, root.path, ctx.named)) {
      const key = n.path.join('\u0000');
      if (seen.has(key)) continue; // a named schema shared by several primitives is reported once
      seen.add(key);
      const candidates: [string, LintPath, 'key' | 'value'][] = [];
      if (typeof n.schema['pattern'] === 'string') candidates.push([n.schema['pattern'], [...n.path, 'pattern'], 'value']);
      const props = n.schema['patternProperties'];
      if (props !== null && typeof props === 'object') for (const p of Object.keys(props)) candidates.push([p, [...n.path, 'patternProperties', p], 'key']);
      for (const [pattern, path, at] of candidates) {
        const found = verdict(pattern);
        if (found) out.push({ path, at, owner: root.owner, message: `pattern \`${pattern}\` in ${root.label} ${found.message}`, hint: found.hint });
      }
    }
  }
  return out;
}

/** MG725: patterns that backtrack catastrophically, or that cannot run on the linear-time engine. */
export const rule: LintRule = {
  code: 'MG725',
  name: 'backtracking-pattern',
  defaultSeverity: 'warning',
  reads: 'primitive',
  sharedOnce: true,
  description: 'A `pattern` or `patternProperties` key with nested repetition (catastrophic backtracking), or with lookaround or backreferences (not linear-time).',
  check,
};
