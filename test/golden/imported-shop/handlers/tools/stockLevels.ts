import type { Returns } from 'mcp-gen/runtime';
import type { StockLevelsTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `stock.levels`: Stock levels.
 *
 * Stock levels
 *
 * Side effect: read. Scopes: pets:read.
 *
 * Calls `GET /stock` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const stockLevels: StockLevelsTool = async (input, ctx): Promise<Returns<StockLevelsTool>> => {
  return upstream.tools.stockLevels(input, ctx);
};
