import { didYouMean } from '../suggest.js';
import type { Check, CheckContext, Entry, EntrySummary } from './context.js';

/** Every scope a primitive names must be declared. */
function checkNamed(ctx: CheckContext, e: Entry): void {
  const declared = Object.keys(ctx.m.server.scopes ?? {});
  (e.value.scopes ?? []).forEach((scope, i) => {
    if (declared.includes(scope)) return;
    ctx.r.error('MG305', [e.section, e.name, 'scopes', i], `scope \`${scope}\` is not declared in server.scopes${didYouMean(scope, declared)}`,
      declared.length ? `declared scopes: ${declared.join(', ')}; or add \`${scope}\` under server.scopes` : `declare it under server.scopes: with a description`);
  });
}

/** Declared scopes nobody uses are flagged. */
function checkUsed(ctx: CheckContext, entries: readonly EntrySummary[]): void {
  const used = new Set(entries.flatMap((e) => e.scopes));
  for (const scope of Object.keys(ctx.m.server.scopes ?? {})) {
    if (!used.has(scope)) {
      ctx.r.warn('MG306', ['server', 'scopes', scope], `scope \`${scope}\` is declared but no tool, resource or prompt uses it`,
        'add it to the `scopes:` of the primitives it guards, or remove it', 'key');
    }
  }
}

/** Every scope a primitive names must be declared; declared scopes nobody uses are flagged. */
export const checkScopes: Check = { entry: checkNamed, whole: checkUsed };
