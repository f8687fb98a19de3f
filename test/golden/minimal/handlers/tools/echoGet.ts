import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { EchoGetTool } from '../../types.gen.js';

/**
 * Tool `echo.get`.
 *
 * Return one stored note by id. Read only.
 *
 * Side effect: read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const echoGet: EchoGetTool = async (input, ctx): Promise<Returns<EchoGetTool>> => {
  throw notImplemented('tool', 'echo.get');
};
