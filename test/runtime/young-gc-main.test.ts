import { afterEach, describe, expect, it, vi } from 'vitest';

// runMain reaches V8 through node:v8; the flags it asks for are recorded instead of set.
const setFlags = vi.hoisted(() => vi.fn<(flags: string) => void>());
vi.mock('node:v8', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:v8')>()), setFlagsFromString: setFlags }));

const { runMain } = await import('../../generator/runtime/index.js');
const { createServer } = await import('./fixture.js');

const quiet = { write: () => true };
const info = { name: 'support-desk', version: '1.4.0' };

async function launch(argv: string[], env: Record<string, string>): Promise<void> {
  const handle = await runMain((ctx) => createServer({ era: ctx.era }), info, { argv, env, stderr: quiet });
  await handle?.close();
}

describe('runMain and V8 pretenuring', () => {
  afterEach(() => setFlags.mockClear());

  it('turns pretenuring off when it serves HTTP', async () => {
    await launch(['--http', '--port', '0'], {});
    expect(setFlags.mock.calls).toEqual([['--no-allocation-site-pretenuring']]);
  });

  it('keeps V8 default with MCP_V8_PRETENURING=on', async () => {
    await launch(['--http', '--port', '0'], { MCP_V8_PRETENURING: 'on' });
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('sets nothing when the launch fails before a server is built', async () => {
    await launch(['--http', '--port', '0', '--disable', 'tool:no.such.tool'], {});
    expect(process.exitCode).toBe(2);
    process.exitCode = undefined;
    expect(setFlags).not.toHaveBeenCalled();
  });
});
