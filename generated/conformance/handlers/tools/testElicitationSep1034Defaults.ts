import { ToolError } from 'mcp-gen/runtime';
import type { TestElicitationSep1034DefaultsTool } from '../../types.gen.js';

/** Tool `test_elicitation_sep1034_defaults` (scenario elicitation-sep1034-defaults, 2025). */
export const testElicitationSep1034Defaults: TestElicitationSep1034DefaultsTool = async (_input, ctx) => {
  let result;
  try {
    result = await ctx.sdk.mcpReq.send({
      method: 'elicitation/create',
      params: {
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      },
    });
  } catch (error) {
    throw new ToolError(`Elicitation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { action, content } = result as { action: string; content?: unknown };
  return `Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`;
};
