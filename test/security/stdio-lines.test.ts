/**
 * One stdio line over the 10 MiB bound: the SDK's read buffer would close the connection (and the process
 * would exit 0 mid-session). The server answers it with a JSON-RPC error and keeps serving.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LineBound } from '../../generator/runtime/host/stdio.js';

const entry = fileURLToPath(new URL('../runtime/main.fixture.ts', import.meta.url));

describe('stdio line bound', () => {
  it('answers an 11 MiB line with an error and keeps serving', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<Record<string, unknown>> => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { blob: 'x'.repeat(11 * 1024 * 1024) } } });
    child.stdin.write(`${huge}\n`);
    const refused = await next();
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(JSON.stringify(refused)).toMatch(/exceeds 10485760 bytes/);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    expect(await next()).toMatchObject({ id: 2, result: { serverInfo: { name: 'support-desk' } } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } })}\n`);
    expect(await next()).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'echo {"a":1}' }] } });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exit).toBe(0);
    expect(stderr).toMatch(/exceeds 10485760 bytes/);
  });
});

describe('LineBound', () => {
  async function through(max: number, chunks: string[]): Promise<{ out: string; oversized: number }> {
    let oversized = 0;
    const bound = new LineBound(max, () => void oversized++);
    const out: Buffer[] = [];
    bound.on('data', (b: Buffer) => out.push(b));
    for (const c of chunks) bound.write(Buffer.from(c));
    bound.end();
    await new Promise((resolve) => bound.once('end', resolve));
    return { out: Buffer.concat(out).toString(), oversized };
  }

  it('passes lines up to the bound, split across chunks, unchanged', async () => {
    expect(await through(5, ['ab', 'c\nde', 'fgh\n', '12345\n'])).toEqual({ out: 'abc\ndefgh\n12345\n', oversized: 0 });
  });

  it('drops an oversized line up to its newline, once, and ends what it had passed on', async () => {
    expect(await through(5, ['abc', 'defgh', 'ij\nok\n'])).toEqual({ out: 'abc\nok\n', oversized: 1 });
    expect(await through(3, ['toolong\nfine\nalsotoolong\nx\n'])).toEqual({ out: 'x\n', oversized: 3 });
  });
});
