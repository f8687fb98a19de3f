import { didYouMean } from '../suggest.js';
import { each, type CheckContext } from './context.js';

/** Every scope a primitive names must be declared; declared scopes nobody uses are flagged. */
export function checkScopes(ctx: CheckContext): void {
  const declared = Object.keys(ctx.m.server.scopes ?? {});
  const used = new Set<string>();
  for (const section of ['tools', 'resources', 'prompts'] as const) {
    for (const [name, p] of each<{ scopes?: string[] }>(ctx.m[section])) {
      (p.scopes ?? []).forEach((scope, i) => {
        used.add(scope);
        if (declared.includes(scope)) return;
        ctx.r.error('MG305', [section, name, 'scopes', i], `scope \`${scope}\` is not declared in server.scopes${didYouMean(scope, declared)}`,
          declared.length ? `declared scopes: ${declared.join(', ')}; or add \`${scope}\` under server.scopes` : `declare it under server.scopes: with a description`);
      });
    }
  }
  for (const scope of declared) {
    if (!used.has(scope)) {
      ctx.r.warn('MG306', ['server', 'scopes', scope], `scope \`${scope}\` is declared but no tool, resource or prompt uses it`,
        'add it to the `scopes:` of the primitives it guards, or remove it', 'key');
    }
  }
}
