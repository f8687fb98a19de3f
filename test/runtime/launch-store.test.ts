/**
 * The store a launch configures without code: `--redis URL` / `MCP_REDIS_URL`,
 * and nothing at all (ioredis is never imported) when neither is set.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parseMainArgs } from '../../generator/runtime/index.js';

const entry = fileURLToPath(new URL('./main.fixture.ts', import.meta.url));
/** A resolve hook that fails any import of ioredis, as on a machine where it is not installed. */
const HOOK = `export async function resolve(specifier, context, next) { if (specifier === 'ioredis') throw new Error('Cannot find package ioredis'); return next(specifier, context); }`;
const WITHOUT_IOREDIS = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${HOOK}`)});`;
const nodeArgs = ['--import', WITHOUT_IOREDIS, '--import', 'tsx', entry];

describe('launch store', () => {
  it('parses --redis and --drain-timeout, and refuses what is not a Redis URL or a duration', () => {
    expect(parseMainArgs(['--http', '--redis', 'redis://:pw@10.0.0.2:6380/1', '--drain-timeout', '2500'])).toMatchObject({ mode: 'http', redis: 'redis://:pw@10.0.0.2:6380/1', drainTimeoutMs: 2500 });
    expect(parseMainArgs(['--redis', 'rediss://cache:6379'])).toEqual({ mode: 'stdio', redis: 'rediss://cache:6379' });
    expect(parseMainArgs(['--redis', 'http://cache:6379'])).toEqual({ mode: 'error', message: '--redis needs a redis:// or rediss:// URL, got http://cache:6379' });
    expect(parseMainArgs(['--http', '--drain-timeout', 'soon'])).toMatchObject({ mode: 'error', message: expect.stringContaining('--drain-timeout needs milliseconds') });
  });

  it('serves without ioredis installed when no Redis URL is configured', async () => {
    const env = { ...process.env } as Record<string, string>;
    delete env['MCP_REDIS_URL'];
    const client = new Client({ name: 'no-redis', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: nodeArgs, env, stderr: 'pipe' }));
    try {
      const r = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234' } });
      expect(r.structuredContent).toEqual({ id: 'T-1234', status: 'open' });
    } finally {
      await client.close();
    }
  });

  it('says how to install ioredis when MCP_REDIS_URL is set without it, and exits 1', () => {
    const r = spawnSync(process.execPath, [...nodeArgs, '--http', '--port', '0'], { encoding: 'utf8', env: { ...process.env, MCP_REDIS_URL: 'redis://127.0.0.1:1' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the `ioredis` package is not installed: run `npm install ioredis`');
  });

  it('refuses to start, exit 1, when the configured Redis cannot be reached (password not printed)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, '--http', '--port', '0'], { encoding: 'utf8', env: { ...process.env, MCP_REDIS_URL: 'redis://:hunter2@127.0.0.1:1' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot reach Redis at redis://:***@127.0.0.1:1');
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toContain('listening on');
  });
});
