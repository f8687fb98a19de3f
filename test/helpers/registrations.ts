/**
 * Reads the client entries `mcp-gen generate` prints and launches each exactly as its client would:
 * the command and arguments as printed, from a working directory of the caller's choosing.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** A launch command taken from the printed text. */
export interface PrintedLaunch {
  readonly client: string;
  readonly command: string;
  readonly args: readonly string[];
}

function jsonAfter(text: string, heading: string): unknown {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" in:\n${text}`);
  const open = text.indexOf('{', start);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return JSON.parse(text.slice(open, i + 1));
  }
  throw new Error(`unterminated JSON after "${heading}"`);
}

/** Splits a POSIX command line of plain and single-quoted words (what the CLI prints). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

/** Every client's launch command for server `name` in `printed`. */
export function printedLaunches(printed: string, name: string): PrintedLaunch[] {
  const desktop = (jsonAfter(printed, 'Claude Desktop') as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers[name]!;
  const vscode = (jsonAfter(printed, 'VS Code (.vscode/mcp.json)') as { servers: Record<string, { type: string; command: string; args: string[] }> }).servers[name]!;
  if (vscode.type !== 'stdio') throw new Error(`VS Code entry type ${vscode.type}`);
  const line = printed.split('\n').find((l) => l.trim().startsWith('claude mcp add '));
  if (line === undefined) throw new Error(`no claude mcp add line in:\n${printed}`);
  const words = shellWords(line.trim());
  const dashes = words.indexOf('--');
  if (words[3] !== name || dashes !== 4) throw new Error(`unexpected Claude Code line: ${line}`);
  return [
    { client: 'Claude Desktop / Cursor', ...desktop },
    { client: 'VS Code', command: vscode.command, args: vscode.args },
    { client: 'Claude Code', command: words[dashes + 1]!, args: words.slice(dashes + 2) },
  ];
}

/** Starts `launch` in `cwd` with a bare environment (as a desktop client would) and lists its tools. */
export async function listToolsOf(launch: PrintedLaunch, cwd: string): Promise<string[]> {
  const client = new Client({ name: 'registration-test', version: '1' });
  const transport = new StdioClientTransport({ command: launch.command, args: [...launch.args], cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${launch.client}: ${launch.command} ${launch.args.join(' ')} did not start: ${(e as Error).message}\n${stderr}`);
  }
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}
