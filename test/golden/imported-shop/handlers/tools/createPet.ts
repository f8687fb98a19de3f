import type { Returns } from 'mcp-gen/runtime';
import type { CreatePetTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `createPet`: Create a pet.
 *
 * Create a pet
 *
 * Side effect: write. Scopes: pets:write. Calls carry an idempotency key.
 *
 * Calls `POST /pets` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const createPet: CreatePetTool = async (input, ctx): Promise<Returns<CreatePetTool>> => {
  return upstream.tools.createPet(input, ctx);
};
