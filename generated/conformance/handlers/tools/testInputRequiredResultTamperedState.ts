import { inputRequired } from '@modelcontextprotocol/server';
import { ToolError } from 'mcp-gen/runtime';
import type { TestInputRequiredResultTamperedStateTool } from '../../types.gen.js';
import { ask } from '../inputs.js';

/**
 * Tool `test_input_required_result_tampered_state` (input-required-result-tampered-state).
 * The server refuses a tampered state with a JSON-RPC error before this handler
 * runs (every generated server seals `requestState`); the check below is a second line.
 */
export const testInputRequiredResultTamperedState: TestInputRequiredResultTamperedStateTool = async (_input, ctx) => {
  if (ctx.sdk.mcpReq.requestState() === undefined) {
    return ask(inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) },
      requestState: ctx.sealState({ tool: 'tampered_state' }),
    }));
  }
  const state = ctx.openState<{ tool?: string }>();
  if (state?.tool !== 'tampered_state') throw new ToolError('requestState failed its integrity check');
  return 'state verified';
};
