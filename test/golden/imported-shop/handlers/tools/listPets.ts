import type { Returns } from 'mcp-gen/runtime';
import type { ListPetsTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `listPets`: List pets.
 *
 * Lists pets, filtered by status, a page at a time.
 *
 * Side effect: read. Scopes: pets:read.
 *
 * Calls `GET /pets` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const listPets: ListPetsTool = async (input, ctx): Promise<Returns<ListPetsTool>> => {
  return upstream.tools.listPets(input, ctx);
};
