import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { TreesSaveTool } from '../../types.gen.js';

/**
 * Tool `trees.save`: Save tree.
 *
 * Save one category tree. Replaces the stored tree with the same root name.
 *
 * Side effect: write. Idempotent by nature: a repeated call must leave the same state.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const treesSave: TreesSaveTool = async (input, ctx): Promise<Returns<TreesSaveTool>> => {
  throw notImplemented('tool', 'trees.save');
};
