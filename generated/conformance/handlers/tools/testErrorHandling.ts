import { ToolError } from 'mcp-gen/runtime';
import type { TestErrorHandlingTool } from '../../types.gen.js';

/** Tool `test_error_handling` (scenario tools-call-error): always an isError result. */
export const testErrorHandling: TestErrorHandlingTool = async () => {
  throw new ToolError('This tool intentionally returns an error for testing');
};
