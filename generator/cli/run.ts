/** Process entry of the unbundled command line: runs the CLI and exits with its status. */
import { main } from './main.js';
import { guardStdout } from './stdout.js';

guardStdout();
process.exitCode = await main(process.argv.slice(2));
