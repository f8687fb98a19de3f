/** What the command line does with its standard output before it runs. */

let guarded = false;

/** A closed pipe (`mcp-gen … | head`) ends the run quietly instead of with a stack trace. Once per process. */
export function guardStdout(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}
