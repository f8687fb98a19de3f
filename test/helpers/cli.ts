/** Runs the built `mcp-gen` command in a child process, the way a user would. */
import { spawn } from 'node:child_process';
import { binPath } from './paths.js';

/** What one CLI run printed and how it exited. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/mcp-gen.js ...args` in `cwd` (colour off, `env` added to this process's) and waits for it to exit. */
export function runCli(args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A one-tool manifest (`notes.get`, one string argument of at most 40 characters) with `description`. */
export const oneToolManifest = (description: string): string => `mcpgen: 1
server:
  name: notes
  version: 1.0.0
tools:
  notes.get:
    description: ${description}
    sideEffect: read
    input: { type: object, properties: { noteId: { type: string, maxLength: 40 } }, required: [noteId], additionalProperties: false }
`;
