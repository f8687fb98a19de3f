import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { PagesAppendBlocksTool } from '../../types.gen.js';

/**
 * Tool `pages.append_blocks`: Append blocks.
 *
 * Append rich-text blocks to a page. Not for creating pages (use pages.create).
 *
 * Side effect: write. Idempotent by nature: a repeated call must leave the same state.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const pagesAppendBlocks: PagesAppendBlocksTool = async (input, ctx): Promise<Returns<PagesAppendBlocksTool>> => {
  throw notImplemented('tool', 'pages.append_blocks');
};
