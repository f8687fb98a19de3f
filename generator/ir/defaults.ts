/** The shared defaults the IR builder puts in where the manifest declares nothing. */
import type { JsonSchema } from './types.js';

/** The input schema of a tool that declares none: no arguments, and no unexpected ones either. */
export const EMPTY_INPUT: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/** The schema of a template variable or prompt argument that declares none. */
export const DEFAULT_ARGUMENT_SCHEMA: JsonSchema = { type: 'string' };
