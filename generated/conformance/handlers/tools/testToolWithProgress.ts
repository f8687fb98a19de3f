import type { TestToolWithProgressTool } from '../../types.gen.js';
import { sleep } from '../fixtures.js';

/** Tool `test_tool_with_progress` (scenario tools-call-with-progress): 0, 50, 100 of 100. */
export const testToolWithProgress: TestToolWithProgressTool = async (_input, ctx) => {
  await ctx.progress(0, 100, 'Started');
  await sleep(50, ctx.signal);
  await ctx.progress(50, 100, 'Half way');
  await sleep(50, ctx.signal);
  await ctx.progress(100, 100, 'Done');
  return 'Tool with progress executed successfully';
};
