import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { FilesReadTool } from '../../types.gen.js';

/**
 * Tool `files.read`: Read file.
 *
 * Read one text file by path. Read only. Not for listing folders.
 *
 * Side effect: read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const filesRead: FilesReadTool = async (input, ctx): Promise<Returns<FilesReadTool>> => {
  throw notImplemented('tool', 'files.read');
};
