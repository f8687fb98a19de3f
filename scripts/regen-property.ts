/**
 * The regeneration property test at scale: `npx tsx scripts/regen-property.ts [N] [--seed S] [--path P] [--typecheck-every K]`.
 * Runs N cases (default 1000), prints the count, the seed and timings; on a
 * failure prints fast-check's report (seed and path to replay) and the case log.
 */
import { newStats, runProperty } from '../test/regen/property.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1]!.startsWith('--')));
const numRuns = Number(positional[0] ?? 1000);
const seed = Number(flag('--seed') ?? process.env.REGEN_SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
const path = flag('--path');
const typecheckEvery = Number(flag('--typecheck-every') ?? 10);
const stats = newStats();
const started = performance.now();
console.log(`regen property: ${numRuns} cases, seed ${seed}${path ? `, path ${path}` : ''}, type-check every ${typecheckEvery}th compatible case`);
const timer = setInterval(() => console.log(`  … ${stats.cases} cases passed (${((performance.now() - started) / 1000).toFixed(0)} s)`), 30_000);
try {
  await runProperty({ numRuns, seed, typecheckEvery, stats, endOnFailure: args.includes('--no-shrink'), ...(path ? { path } : {}) });
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`ok: ${stats.cases} cases passed in ${s} s (seed ${seed})`);
  console.log(`  ${stats.rounds} regenerations after edits, ${stats.compatibleCases} cases compatible, ${stats.typechecked} type-checked (${(stats.typecheckMs / 1000).toFixed(1)} s), ${stats.noOpChecks} no-op reruns`);
  console.log(`  ${stats.renames} handler moves, ${stats.removedKept} handlers kept for removed primitives, ${stats.unparseable} unparseable handlers left alone, ${stats.authorLinesChecked} author lines checked; generate ${(stats.generateMs / 1000).toFixed(1)} s`);
  if (stats.generatorTypeErrors.length) {
    console.log(`  warning: ${stats.generatorTypeErrors.length} type errors inside generator-owned files (not handler code), e.g.:`);
    for (const e of [...new Set(stats.generatorTypeErrors.map((x) => x.replace(/^case \d+: /, '')))].slice(0, 5)) console.log(`    ${e}`);
  }
} catch (e) {
  console.error(`FAILED after ${stats.cases} passing cases (seed ${seed}); replay: npx tsx scripts/regen-property.ts ${numRuns} --seed ${seed}`);
  console.error((e as Error).message);
  const cause = (e as Error).cause;
  if (cause) console.error(`\n${cause instanceof Error ? cause.message : String(cause)}`);
  process.exitCode = 1;
} finally {
  clearInterval(timer);
}
