import type { Returns } from 'mcp-gen/runtime';
import type { GetPetResource } from '../../types.gen.js';
import { upstream } from '../../upstream.gen.js';

/**
 * Resource `getPet`: Get a pet.
 *
 * Get a pet
 *
 * URI: pet-shop://pets/{petId} (application/json). Scopes: pets:read.
 *
 * Reads `GET /pets/{petId}` upstream through upstream.gen.ts (an upstream 404 is "resource not found"); change it freely.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const getPet: GetPetResource = {
  async read(params, ctx): Promise<Returns<GetPetResource['read']>> {
    return upstream.resources.getPet(params, ctx);
  },
};
