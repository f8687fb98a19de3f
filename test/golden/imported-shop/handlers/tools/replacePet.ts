import type { Returns } from 'mcp-gen/runtime';
import type { ReplacePetTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `replacePet`: Replace a pet.
 *
 * Replace a pet
 *
 * Side effect: write. Scopes: pets:write. Idempotent by nature: a repeated call must leave the same state.
 *
 * Calls `PUT /pets/{petId}` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const replacePet: ReplacePetTool = async (input, ctx): Promise<Returns<ReplacePetTool>> => {
  return upstream.tools.replacePet(input, ctx);
};
