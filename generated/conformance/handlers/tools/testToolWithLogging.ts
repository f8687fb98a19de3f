import type { TestToolWithLoggingTool } from '../../types.gen.js';
import { sleep } from '../fixtures.js';

/**
 * Tool `test_tool_with_logging` (scenario tools-call-with-logging, 2025): three
 * `notifications/message` at info level, about 50 ms apart. `ctx.log` writes to
 * stderr only, so the notifications go through the SDK context.
 */
export const testToolWithLogging: TestToolWithLoggingTool = async (_input, ctx) => {
  const log = (data: string) => ctx.sdk.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', logger: 'conformance', data } });
  await log('Tool execution started');
  await sleep(50, ctx.signal);
  await log('Tool processing data');
  await sleep(50, ctx.signal);
  await log('Tool execution completed');
  return 'Tool with logging executed successfully';
};
