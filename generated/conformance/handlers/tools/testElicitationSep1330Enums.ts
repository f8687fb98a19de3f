import { ToolError } from 'mcp-gen/runtime';
import type { TestElicitationSep1330EnumsTool } from '../../types.gen.js';

/** Tool `test_elicitation_sep1330_enums` (scenario elicitation-sep1330-enums, 2025): the five enum shapes. */
export const testElicitationSep1330Enums: TestElicitationSep1330EnumsTool = async (_input, ctx) => {
  let result;
  try {
    result = await ctx.sdk.mcpReq.send({
      method: 'elicitation/create',
      params: {
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
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
