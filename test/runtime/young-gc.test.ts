import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PRETENURING_ENV, tuneYoungCollections } from '../../generator/runtime/host/youngGc.js';

/** The flags `tuneYoungCollections` asks V8 for, given an environment. */
function flagsFor(env: Record<string, string | undefined>): string[] {
  const set: string[] = [];
  const tuned = tuneYoungCollections(env, (flags) => set.push(flags));
  expect(tuned).toBe(set.length > 0);
  return set;
}

describe('tuneYoungCollections', () => {
  it('turns allocation-site pretenuring off by default', () => {
    expect(flagsFor({})).toEqual(['--no-allocation-site-pretenuring']);
  });

  it.each(['on', 'ON', ' 1 ', 'true'])('keeps V8 default when %s asks for it', (value) => {
    expect(flagsFor({ [PRETENURING_ENV]: value })).toEqual([]);
  });

  it.each(['off', '0', '', 'no'])('tunes when the variable is %j', (value) => {
    expect(flagsFor({ [PRETENURING_ENV]: value })).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('sets a flag this V8 knows (an unknown one is reported on stderr)', () => {
    const [flags] = flagsFor({});
    const stderrOf = (f: string): string => spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(f)})`], { encoding: 'utf8' }).stderr;
    expect(stderrOf(`${flags}x`)).toContain('unrecognized flag');
    expect(stderrOf(flags!)).toBe('');
  });
});
