/**
 * Regenerate without fear: random manifests, random author edits, random
 * manifest changes, regenerated again and again (see ./property.ts for what
 * is asserted). A few hundred cases here; `npx tsx scripts/regen-property.ts`
 * runs a thousand or more. Replay a failure with REGEN_SEED=<seed>.
 */
import { expect, it } from 'vitest';
import { newStats, runProperty } from './property.js';

const seed = Number(process.env.REGEN_SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
const numRuns = Number(process.env.REGEN_RUNS ?? 150);

it(`no author line is lost and compatible changes still type-check (${numRuns} cases)`, async () => {
  const stats = newStats();
  console.log(`regeneration property: ${numRuns} cases, seed ${seed} (replay: REGEN_SEED=${seed})`);
  try {
    await runProperty({ numRuns, seed, typecheckEvery: 8, stats, endOnFailure: true });
  } catch (e) {
    const cause = (e as Error).cause;
    throw new Error(`regeneration property failed (seed ${seed}; replay: REGEN_SEED=${seed} npx vitest run test/regen/property.test.ts, or npx tsx scripts/regen-property.ts ${numRuns} --seed ${seed})\n${(e as Error).message}\n${cause instanceof Error ? cause.message : ''}`);
  }
  expect(stats.cases).toBe(numRuns);
  expect(stats.typechecked).toBeGreaterThan(0);
  expect(stats.renames + stats.removedKept).toBeGreaterThan(0);
}, 240_000);
