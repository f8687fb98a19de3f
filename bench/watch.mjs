/**
 * The watch loop per save: starts `mcp-gen generate --watch` on a copy of a manifest, then saves it with
 * one description changed, `saves` times, and times each save from the write to the loop's line for
 * that run (the loop's 100 ms debounce included; it is reported apart too). Output lines are read as
 * they come; stderr is read and returned. Run through bench/run.mjs (group `watch`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The loop's debounce (generator/cli/watch.ts, `realWatchDeps.debounceMs`). */
export const DEBOUNCE_MS = 100;

/**
 * Times `saves` saves of `manifest` (copied into `dir`) under `mcp-gen generate --watch`.
 * `edit(text, i)` returns the manifest with its i-th change.
 */
export async function watchSaves({ node, cli, manifest, dir, saves, edit }) {
  mkdirSync(dir, { recursive: true });
  const m = join(dir, 'mcp.manifest.yaml');
  copyFileSync(manifest, m);
  const original = readFileSync(m, 'utf8');
  const child = spawn(node, [cli, 'generate', m, '--out', join(dir, 'out'), '--watch'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  let buffer = '';
  const waiters = [];
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      for (const w of [...waiters]) if (w.re.test(line)) (waiters.splice(waiters.indexOf(w), 1), w.done(line));
    }
  });
  const exited = new Promise((_, fail) => child.on('exit', (code) => fail(new Error(`the watch loop exited (${code}):\n${stderr}`))));
  const next = (re) => Promise.race([
    new Promise((done) => waiters.push({ re, done })),
    exited,
    new Promise((_, fail) => setTimeout(() => fail(new Error(`the watch loop did not answer in 120 s:\n${stderr}`)), 120_000).unref()),
  ]);
  try {
    await next(/^Watching /);
    const times = [];
    for (let i = 1; i <= saves; i++) {
      await new Promise((r) => setTimeout(r, 300)); // the file system's events of the last save are over
      const run = next(/^\[\d\d:\d\d:\d\d\] .* → /);
      const t0 = process.hrtime.bigint();
      writeFileSync(m, edit(original, i));
      const line = await run;
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (/no changes| 0 updated/.test(line)) throw new Error(`a save changed nothing: ${line}`);
    }
    return { times, stderr };
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r)).catch(() => undefined);
  }
}
