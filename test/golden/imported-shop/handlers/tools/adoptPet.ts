import type { Returns } from 'mcp-gen/runtime';
import type { AdoptPetTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `adoptPet`: Adopt a pet.
 *
 * Hands the pet over to its new owner. This cannot be undone.
 *
 * Side effect: irreversible. Scopes: pets:write. Calls carry an idempotency key. Runs only with an approval.
 *
 * Calls `POST /pets/{petId}/adopt` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const adoptPet: AdoptPetTool = async (input, ctx): Promise<Returns<AdoptPetTool>> => {
  return upstream.tools.adoptPet(input, ctx);
};
