import type { Returns } from 'mcp-gen/runtime';
import type { GetPetTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `getPet`: Get a pet.
 *
 * Get a pet
 *
 * Side effect: read. Scopes: pets:read.
 *
 * Calls `GET /pets/{petId}` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const getPet: GetPetTool = async (input, ctx): Promise<Returns<GetPetTool>> => {
  return upstream.tools.getPet(input, ctx);
};
