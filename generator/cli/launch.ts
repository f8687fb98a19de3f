/**
 * How a generated server is launched: one command with absolute paths, so an MCP client (which starts
 * servers from a working directory of its own) and `mcp-gen call` run exactly the same process.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UserError } from '../diagnostics.js';

/** A process to start: the command and its arguments, each absolute where it names a file. */
export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The tsx loader that `main.gen.ts` runs with, resolved from the output folder (the project's own tsx,
 * which `mcp-gen init` adds) and else from mcp-gen's installation. Undefined when neither has one.
 */
function tsxLoader(outDir: string): string | undefined {
  for (const from of [join(outDir, 'main.gen.ts'), fileURLToPath(import.meta.url)]) {
    try {
      return pathToFileURL(createRequire(from).resolve('tsx')).href;
    } catch {
      // not installed next to this one; try the next
    }
  }
  return undefined;
}

/**
 * The launch command of the server in `outDir`: `node main.gen.js` when a compiled entry sits next to the
 * sources, otherwise `node --import <tsx loader> main.gen.ts`, with the running Node's absolute path.
 */
export function launchSpec(outDir: string): LaunchSpec {
  const dir = resolve(outDir);
  const compiled = join(dir, 'main.gen.js');
  if (existsSync(compiled)) return { command: process.execPath, args: [compiled] };
  const entry = join(dir, 'main.gen.ts');
  if (!existsSync(entry)) throw new UserError(`${entry} does not exist: run \`mcp-gen generate\` first (or pass --out with the folder it wrote).`);
  const loader = tsxLoader(dir);
  if (loader === undefined) throw new UserError('main.gen.ts runs with tsx, which this project does not have: npm install --save-dev tsx');
  return { command: process.execPath, args: ['--import', loader, entry] };
}

/** Quotes one word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The registration of one server in the formats of the common MCP clients. */
export interface Registrations {
  /** `claude_desktop_config.json` and Cursor's `.cursor/mcp.json` (`mcpServers`). */
  readonly mcpServers: { mcpServers: Record<string, { command: string; args: string[] }> };
  /** VS Code's `.vscode/mcp.json` (`servers`, with a `type`). */
  readonly vscode: { servers: Record<string, { type: 'stdio'; command: string; args: string[] }> };
  /** The Claude Code command line that adds it. */
  readonly claudeCode: string;
}

/** Every client's entry for a server named `name` launched by `spec`. */
export function registrations(name: string, spec: LaunchSpec): Registrations {
  const entry = { command: spec.command, args: [...spec.args] };
  return {
    mcpServers: { mcpServers: { [name]: entry } },
    vscode: { servers: { [name]: { type: 'stdio', ...entry } } },
    claudeCode: ['claude', 'mcp', 'add', name, '--', spec.command, ...spec.args].map(shellWord).join(' '),
  };
}

/** The text `generate` prints after creating a server: each client's entry under its name. */
export function formatRegistrations(r: Registrations): string {
  return [
    'Register it in an MCP client (each entry starts the server from any working directory):',
    'Claude Desktop (claude_desktop_config.json) and Cursor (.cursor/mcp.json):',
    JSON.stringify(r.mcpServers, null, 2),
    'VS Code (.vscode/mcp.json):',
    JSON.stringify(r.vscode, null, 2),
    'Claude Code:',
    `  ${r.claudeCode}`,
  ].join('\n');
}
