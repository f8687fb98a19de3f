import type { JsonSchema202012ToolTool } from '../../types.gen.js';

/** Tool `json_schema_2020_12_tool` (scenario json-schema-2020-12): the scenario only lists it; a call echoes the arguments. */
export const jsonSchema202012Tool: JsonSchema202012ToolTool = async (input) => `Received: ${JSON.stringify(input)}`;
