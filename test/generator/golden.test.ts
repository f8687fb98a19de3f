/**
 * Golden files: every fixture manifest under test/fixtures/golden/ is
 * compiled in memory and each emitted file (generator- and author-owned) must
 * equal its committed copy under test/golden/<case>/ byte for byte. Missing
 * and orphaned goldens fail too. After an intended change, run
 * `npx tsx scripts/update-golden.ts` and review the diff.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emitCase, goldenCases, readGoldens } from '../helpers/golden.js';

const UPDATE = 'run `npx tsx scripts/update-golden.ts` and review the diff';
const cases = goldenCases();

describe('golden files', () => {
  it('has the cases this suite promises', () => {
    expect(cases).toEqual(expect.arrayContaining(['every-field', 'minimal']));
  });

  describe.each(cases)('%s', (name) => {
    let emitted = new Map<string, string>();
    let goldens = new Map<string, string>();
    beforeAll(async () => {
      [emitted, goldens] = await Promise.all([emitCase(name), readGoldens(name)]);
    });

    it('emits exactly the committed set of files (no missing, no orphaned goldens)', () => {
      const missing = [...emitted.keys()].filter((p) => !goldens.has(p));
      const orphaned = [...goldens.keys()].filter((p) => !emitted.has(p));
      expect.soft(missing, `emitted but no golden; ${UPDATE}`).toEqual([]);
      expect(orphaned, `orphaned golden (no longer emitted); ${UPDATE}`).toEqual([]);
    });

    it('emits every file byte for byte as committed', () => {
      const differing = [...emitted].filter(([p, c]) => goldens.has(p) && goldens.get(p) !== c).map(([p]) => p);
      for (const path of differing) {
        expect.soft(emitted.get(path), `test/golden/${name}/${path} differs; ${UPDATE}`).toBe(goldens.get(path));
      }
      expect(differing, `differing goldens; ${UPDATE}`).toEqual([]);
    });
  });
});
