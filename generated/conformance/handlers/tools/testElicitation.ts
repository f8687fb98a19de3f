import { ToolError } from 'mcp-gen/runtime';
import type { TestElicitationTool } from '../../types.gen.js';

/** Tool `test_elicitation` (scenario tools-call-elicitation, 2025): a real `elicitation/create`. */
export const testElicitation: TestElicitationTool = async ({ message }, ctx) => {
  let result;
  try {
    result = await ctx.sdk.mcpReq.send({
      method: 'elicitation/create',
      params: {
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      },
    });
  } catch (error) {
    throw new ToolError(`Elicitation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { action, content } = result as { action: string; content?: unknown };
  return `User response: action=${action}, content=${JSON.stringify(content ?? {})}`;
};
