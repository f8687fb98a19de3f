/**
 * V8 settings for a command that runs once and exits (`generate`, `check`), set once it knows it has work
 * to do: an up-to-date manifest answers before this, with V8's defaults.
 *
 * Such a run touches most of its memory once. On a virtual machine that backs guest memory lazily, the
 * first touch of a page is the costly part (≈ 11–15 µs per 4 KB page on the benchmark's machine, so about
 * 3 ms per MB), and V8's defaults spend pages a one-shot run never reuses:
 *
 * - the young generation grows from 1 MB per semi-space up to 16 MB as the run allocates, each growth
 *   on fresh pages; with `--semi-space-growth-factor=1` it stays at its first pages, reused by every young
 *   collection;
 * - TurboFan (and, from Node 24, Maglev) compile hot functions on a background thread into fresh zone
 *   memory, for code a run of a few hundred milliseconds mostly has no time to profit from; with
 *   `--no-turbofan --no-maglev` the run stays on the interpreter and Sparkplug's baseline code.
 *
 * Measured at 1,000 primitives, one tool's description changed, cold command, medians of 7 in one sitting
 * on Node 20 (no-op 190 ms): 678 ms with the defaults, 602 with the young generation kept, 661 without
 * TurboFan, 558 with both; Node 22 838 → 688 ms; Node 24 594 → 505 ms (Maglev off too: the same time,
 * 50 ms less CPU). A generation from scratch without the cache 1,900 → 1,785 ms, and 12.8 → 11.9 s at
 * 4,000 primitives (peak memory 603 → 555 MB). These flags are read when V8 decides to grow the young
 * generation or to optimize a function, so setting them mid-run takes effect from there on; flags that
 * size the heap or pick the collector are read once at start-up and must not be changed this way.
 *
 * `MCP_GEN_V8=default` keeps V8's defaults. `watch` keeps them too: a long-lived process profits from both.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

/** The environment variable that keeps V8's defaults for `generate` and `check`. */
export const ONE_SHOT_ENV = 'MCP_GEN_V8';

/** What `generate --help` and `check --help` say of it. */
export const ONE_SHOT_HELP = `
Environment:
  ${ONE_SHOT_ENV}=default  keep V8's defaults; a run with work to do otherwise tunes V8 for a short-lived
                      process (its young generation and optimizing compilers; see docs/incremental.md)
  MCP_GEN_CODE_CACHE=off  neither read nor write the compiled code cached beside the bundled command line`;

/** The flags a one-shot run sets. */
export const ONE_SHOT_FLAGS = '--semi-space-growth-factor=1 --no-turbofan --no-maglev';

let tuned = false;

/**
 * Sets {@link ONE_SHOT_FLAGS} for this process, once, unless `env` keeps V8's defaults
 * (`MCP_GEN_V8=default`). Returns whether this call set them.
 */
export function tuneOneShotRun(env: Readonly<Record<string, string | undefined>>, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (tuned || env[ONE_SHOT_ENV]?.trim().toLowerCase() === 'default') return false;
  tuned = true;
  setFlags(ONE_SHOT_FLAGS);
  return true;
}

/** The names of the flags {@link ONE_SHOT_FLAGS} sets (`--no-turbofan` names `turbofan`). */
export const ONE_SHOT_FLAG_NAMES: readonly string[] = ONE_SHOT_FLAGS.split(' ').map((f) => f.replace(/^--(no-)?/, '').replace(/=.*$/, ''));

/**
 * The defaults of `names` in `v8Options` (what `node --v8-options` prints: a flag's line, then its type
 * and default), as flags to set: `--semi-space-growth-factor=2 --turbofan`. A name it does not list is left out.
 */
export function defaultFlags(v8Options: string, names: readonly string[]): string {
  const out: string[] = [];
  for (const name of names) {
    const at = v8Options.indexOf(`\n  --${name} `);
    if (at < 0) continue;
    const found = /^\s+type: \S+\s+default: (\S+)/m.exec(v8Options.slice(at + 1).split('\n').slice(1, 3).join('\n'));
    if (found) out.push(found[1]!);
  }
  return out.join(' ');
}

/**
 * Sets the flags {@link tuneOneShotRun} changed back to V8's defaults, read from `node --v8-options`: code
 * V8 caches from then on is for the flags a run starts with (a cache is refused under other flags, see
 * codeCache.ts). True when the flags are as a run starts with them; false when they cannot be set back
 * (the command line or NODE_OPTIONS names one of them, or the defaults cannot be read).
 */
export function untuneOneShotRun(setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (!tuned) return true;
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  // `--opt` is V8's other name for `--turbofan`.
  if ([...ONE_SHOT_FLAG_NAMES, 'opt'].some((n) => new RegExp(`--(no-?)?${n.replace(/[-_]/g, '[-_]')}\\b`).test(given))) return false;
  // Loaded here: only a run that writes a code cache needs it.
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const listed = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (listed.status !== 0) return false;
  const flags = defaultFlags(listed.stdout, ONE_SHOT_FLAG_NAMES);
  if (flags === '') return false;
  setFlags(flags);
  tuned = false;
  return true;
}
