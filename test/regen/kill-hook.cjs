// Preloaded into the mcp-gen CLI by test/regen/kill.test.ts with `node --require`.
// Wraps the fs calls (promise and sync forms) that change the output folder (MCPGEN_KILL_DIR):
// MCPGEN_KILL_AT=n sends SIGKILL to this process right before the n-th one (MCPGEN_KILL_NOTE=file
// records the changes up to it first),
// MCPGEN_SLOW_WRITES=ms waits that long before each (so timed kills land in
// the write phase), MCPGEN_KILL_LOG=file records them (`op path`) at exit.
// Generator code is not changed: the wrapped functions are the ones it imports.
'use strict';
const fsp = require('node:fs/promises');
const fs = require('node:fs');
const { writeFileSync } = fs;
const { syncBuiltinESMExports } = require('node:module');

const dir = process.env.MCPGEN_KILL_DIR;
const at = Number(process.env.MCPGEN_KILL_AT || 0);
const slow = Number(process.env.MCPGEN_SLOW_WRITES || 0);
const logFile = process.env.MCPGEN_KILL_LOG;
const ops = [];

const NAMES = ['writeFile', 'rename', 'unlink', 'rm', 'mkdir', 'rmdir', 'copyFile', 'appendFile'];
/** Logs the change (under its promise name) and kills the process when it is the chosen one. */
function before(name, args) {
  if (!dir || !String(args[0]).startsWith(dir)) return false;
  ops.push(`${name} ${String(args[0]).slice(dir.length + 1)}${name === 'rename' ? ` -> ${String(args[1]).slice(dir.length + 1)}` : ''}`);
  if (ops.length === at) {
    // The changes this run made before the one it is killed at: concurrent writes may reach the folder
    // in another order than in the reference run, so the test judges the outcome from this run's own list.
    if (process.env.MCPGEN_KILL_NOTE) writeFileSync(process.env.MCPGEN_KILL_NOTE, ops.join('\n'));
    process.kill(process.pid, 'SIGKILL');
  }
  return slow > 0;
}
const pause = new Int32Array(new SharedArrayBuffer(4));
for (const name of NAMES) {
  const original = fsp[name];
  fsp[name] = async function (...args) {
    if (before(name, args)) await new Promise((resolve) => setTimeout(resolve, slow));
    return original.apply(this, args);
  };
  const originalSync = fs[`${name}Sync`];
  fs[`${name}Sync`] = function (...args) {
    if (before(name, args)) Atomics.wait(pause, 0, 0, slow);
    return originalSync.apply(this, args);
  };
}
syncBuiltinESMExports();
process.on('exit', () => {
  if (logFile) writeFileSync(logFile, ops.join('\n'));
});
