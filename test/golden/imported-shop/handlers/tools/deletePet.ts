import type { Returns } from 'mcp-gen/runtime';
import type { DeletePetTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `deletePet`: Delete a pet.
 *
 * Delete a pet
 *
 * Side effect: irreversible. Scopes: pets:write. Idempotent by nature: a repeated call must leave the same state. Runs only with an approval.
 *
 * Calls `DELETE /pets/{petId}` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const deletePet: DeletePetTool = async (input, ctx): Promise<Returns<DeletePetTool>> => {
  return upstream.tools.deletePet(input, ctx);
};
