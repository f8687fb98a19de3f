/** Process entry: runs the CLI and exits with its status. */
import { main } from './main.js';

// A closed pipe (`mcp-gen … | head`) is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));
