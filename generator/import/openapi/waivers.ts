/**
 * Design-rule errors in a draft (a read operation whose description says "sends", a name lint calls
 * generic) would stop `mcp-gen generate` before the author has seen the server. The importer keeps the
 * operation as the API wrote it and waives the rule on that primitive with a reason that says so; the
 * waiver shows in the manifest, the summary and the contract card, and is the author's to resolve.
 */
import type { Diagnostic } from '../../diagnostics.js';

/** `tools.<name>` / `resources.<name>` → rule code → reason. */
export type Waivers = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The waivers for the lint errors (MG7xx) in `diagnostics`, keyed by primitive; names are the draft's. */
export function waiversFor(diagnostics: readonly Diagnostic[], primitives: readonly string[]): Map<string, Record<string, string>> {
  const byLength = [...primitives].sort((a, b) => b.length - a.length);
  const out = new Map<string, Record<string, string>>();
  for (const d of diagnostics) {
    if (d.severity !== 'error' || !/^MG7\d\d$/.test(d.code)) continue;
    const owner = byLength.find((p) => d.path === p || d.path.startsWith(`${p}.`));
    if (owner === undefined) continue;
    const entry = out.get(owner) ?? {};
    entry[d.code] ??= `imported as the API describes it; review: ${d.message}`;
    out.set(owner, entry);
  }
  return out;
}
