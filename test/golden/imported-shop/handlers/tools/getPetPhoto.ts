import type { Returns } from 'mcp-gen/runtime';
import type { GetPetPhotoTool } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Tool `getPetPhoto`: Get a pet's photo.
 *
 * Get a pet's photo
 *
 * Side effect: read. Scopes: pets:read.
 *
 * Calls `GET /pets/{petId}/photo` upstream through upstream.gen.ts (upstream 4xx, 5xx and network failures become isError results); change it freely.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const getPetPhoto: GetPetPhotoTool = async (input, ctx): Promise<Returns<GetPetPhotoTool>> => {
  return upstream.tools.getPetPhoto(input, ctx);
};
