// Preloaded into the mcp-gen CLI by test/regen/kill.test.ts with `node --require`.
// Wraps the fs/promises calls that change the output folder (MCPGEN_KILL_DIR):
// MCPGEN_KILL_AT=n sends SIGKILL to this process right before the n-th one,
// MCPGEN_SLOW_WRITES=ms waits that long before each (so timed kills land in
// the write phase), MCPGEN_KILL_LOG=file records them (`op path`) at exit.
// Generator code is not changed: the wrapped functions are the ones it imports.
'use strict';
const fsp = require('node:fs/promises');
const { writeFileSync } = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');

const dir = process.env.MCPGEN_KILL_DIR;
const at = Number(process.env.MCPGEN_KILL_AT || 0);
const slow = Number(process.env.MCPGEN_SLOW_WRITES || 0);
const logFile = process.env.MCPGEN_KILL_LOG;
const ops = [];

for (const name of ['writeFile', 'rename', 'unlink', 'rm', 'mkdir', 'rmdir', 'copyFile', 'appendFile']) {
  const original = fsp[name];
  fsp[name] = async function (...args) {
    if (dir && String(args[0]).startsWith(dir)) {
      ops.push(`${name} ${String(args[0]).slice(dir.length + 1)}${name === 'rename' ? ` -> ${String(args[1]).slice(dir.length + 1)}` : ''}`);
      if (ops.length === at) process.kill(process.pid, 'SIGKILL');
      if (slow > 0) await new Promise((resolve) => setTimeout(resolve, slow));
    }
    return original.apply(this, args);
  };
}
syncBuiltinESMExports();
process.on('exit', () => {
  if (logFile) writeFileSync(logFile, ops.join('\n'));
});
