import type { TestReconnectionTool } from '../../types.gen.js';
import { sleep } from '../fixtures.js';

/**
 * Tool `test_reconnection` (scenario server-sse-polling, 2025): closes the
 * request's SSE stream mid-call, then answers; a sessionful transport with an
 * event store replays the answer when the client reconnects with Last-Event-ID.
 */
export const testReconnection: TestReconnectionTool = async (_input, ctx) => {
  await sleep(50, ctx.signal);
  ctx.sdk.http?.closeSSE?.();
  await sleep(100, ctx.signal);
  return 'Reconnection test completed';
};
