import { inputRequired } from '@modelcontextprotocol/server';
import { ToolError } from 'mcp-gen/runtime';
import type { TestInputRequiredResultTamperedStateTool } from '../../types.gen.js';
import { ask } from '../inputs.js';
import { openState, sealState } from '../fixtures.js';

/**
 * Tool `test_input_required_result_tampered_state` (input-required-result-tampered-state).
 * The scenario wants a JSON-RPC error for a tampered state; a tool handler can
 * only fail with an isError result, so the server-level
 * `ServerOptions.requestState.verify` hook is what can pass it (docs/conformance.md).
 */
export const testInputRequiredResultTamperedState: TestInputRequiredResultTamperedStateTool = async (_input, ctx) => {
  const raw = ctx.sdk.mcpReq.requestState();
  if (raw === undefined) {
    return ask(inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) },
      requestState: sealState({ tool: 'tampered_state' }),
    }));
  }
  const state = openState<{ tool?: string }>(raw);
  if (state?.tool !== 'tampered_state') throw new ToolError('requestState failed its integrity check');
  return 'state verified';
};
