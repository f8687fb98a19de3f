import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { CategoriesTreeTool } from '../../types.gen.js';

/**
 * Tool `categories.tree`: Category tree.
 *
 * The whole category tree. Read only.
 *
 * Side effect: read. Scopes: orders:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const categoriesTree: CategoriesTreeTool = async (input, ctx): Promise<Returns<CategoriesTreeTool>> => {
  throw notImplemented('tool', 'categories.tree');
};
