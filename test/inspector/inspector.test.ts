/**
 * An example server driven by the official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`,
 * which speaks through the v1 SDK client): one tool call, one resource read and one prompt get over stdio.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const generated = fileURLToPath(new URL('../../generated/', import.meta.url));
const cli = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js', import.meta.url));

/**
 * Runs the inspector against the support-desk server. Its working directory is `generated/`: the
 * inspector CLI looks for its own package.json at `../package.json` relative to the working directory.
 */
function inspect(args: string[]): unknown {
  const r = spawnSync('node', [cli, 'node', '--import', 'tsx', 'support-desk/main.gen.ts', ...args], { cwd: generated, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('MCP Inspector CLI against generated/support-desk', () => {
  it('calls a tool', () => {
    const result = inspect(['--method', 'tools/call', '--tool-name', 'tickets.get', '--tool-arg', 'ticketId=T-1001']) as { structuredContent: { id: string; status: string } };
    expect(result.structuredContent).toMatchObject({ id: 'T-1001', status: 'open' });
  });

  it('reads a templated resource', () => {
    const result = inspect(['--method', 'resources/read', '--uri', 'support://tickets/T-1001']) as { contents: { uri: string; mimeType: string; text: string }[] };
    expect(result.contents[0]).toMatchObject({ uri: 'support://tickets/T-1001', mimeType: 'application/json' });
    expect(JSON.parse(result.contents[0]!.text)).toMatchObject({ id: 'T-1001' });
  });

  it('gets a prompt with arguments', () => {
    const result = inspect(['--method', 'prompts/get', '--prompt-name', 'draft_refund_review', '--prompt-args', 'ticketId=T-1001', 'depth=quick']) as { messages: { content: { type: string; text?: string } }[] };
    expect(result.messages[0]!.content.text).toBe('Review ticket T-1001 at quick depth. Cite the policy sections you rely on. Propose a refund draft only; never submit.');
    expect(result.messages[1]!.content.type).toBe('resource');
  });
});
