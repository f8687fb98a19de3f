/**
 * What young collections promote when a process makes one `AbortSignal` per request and keeps none, as
 * the SDK's dispatch does: a million `AbortController`s, each one's `signal` read (or not, or tagged with
 * a symbol property as mcp-gen ties a request to its connection), on the Node running this script or on
 * the one `BENCH_NODE` names. Prints, for each kind, the young collections, the megabytes they promoted
 * and their total pause, read from `--trace-gc-nvp`.
 *
 *   node bench/abort-signals.mjs
 *   BENCH_NODE=/path/to/node22 node bench/abort-signals.mjs
 */
import { spawnSync } from 'node:child_process';

const NODE = process.env.BENCH_NODE || process.execPath;
const COUNT = Number(process.env.BENCH_SIGNALS || 1_000_000);

/** The loop each child runs: `kind` is `controller` (signal never read), `signal` or `tagged`. */
const LOOP = `
const kind = process.argv[1]; const tag = Symbol('connection'); const connection = {}; let seen = 0;
for (let i = 0; i < ${COUNT}; i++) {
  const controller = new AbortController();
  if (kind === 'controller') continue;
  const signal = controller.signal;
  if (kind === 'tagged') signal[tag] = connection;
  seen += signal.aborted ? 1 : 0;
}`;

const version = spawnSync(NODE, ['-p', 'process.version + " (V8 " + process.versions.v8 + ")"'], { encoding: 'utf8' }).stdout.trim();
console.log(`Node ${version}, ${COUNT.toLocaleString('en-US')} AbortControllers`);
for (const kind of ['controller', 'signal', 'tagged']) {
  const run = spawnSync(NODE, ['--trace-gc-nvp', '-e', LOOP, kind], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`the ${kind} loop failed:\n${run.stderr}`);
  const young = run.stdout.split('\n').filter((line) => / gc=s /.test(line));
  const sum = (field) => young.reduce((total, line) => total + Number(new RegExp(`${field}=([\\d.]+)`).exec(line)?.[1] ?? 0), 0);
  console.log(`  ${kind.padEnd(10)} young collections ${String(young.length).padStart(4)}, promoted ${(sum('promoted') / 1e6).toFixed(1).padStart(6)} MB, paused ${sum('pause').toFixed(0).padStart(5)} ms`);
}
