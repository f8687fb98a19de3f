import type { TestLoggingToolTool } from '../../types.gen.js';

/**
 * Tool `test_logging_tool` (scenario server-stateless, 2026): logs through the
 * SDK's request logger, which sends nothing unless the request carries a
 * `logLevel` (and nothing at all without the `logging` capability).
 */
export const testLoggingTool: TestLoggingToolTool = async (_input, ctx) => {
  try {
    await ctx.sdk.mcpReq.log('info', 'test_logging_tool ran');
  } catch {
    // No logging capability declared: nothing to send, which is what the scenario checks.
  }
  return 'Logging tool executed';
};
