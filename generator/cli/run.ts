/** Process entry: runs the CLI and exits with its status. */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
