import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { TreesGetTool } from '../../types.gen.js';

/**
 * Tool `trees.get`: Get tree.
 *
 * Get the stored category tree with this root name. Read only.
 *
 * Side effect: read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const treesGet: TreesGetTool = async (input, ctx): Promise<Returns<TreesGetTool>> => {
  throw notImplemented('tool', 'trees.get');
};
