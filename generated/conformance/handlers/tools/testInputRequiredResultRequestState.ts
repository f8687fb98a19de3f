import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { ToolError } from 'mcp-gen/runtime';
import type { HandlerContext, TestInputRequiredResultRequestStateTool } from '../../types.gen.js';
import { ask } from '../inputs.js';

const confirm = (ctx: HandlerContext) =>
  ask(inputRequired({
    inputRequests: {
      confirm: inputRequired.elicit({
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }),
    },
    requestState: ctx.sealState({ tool: 'request_state', round: 1 }),
  }));

/** Tool `test_input_required_result_request_state` (input-required-result-request-state). */
export const testInputRequiredResultRequestState: TestInputRequiredResultRequestStateTool = async (_input, ctx) => {
  const answer = acceptedContent(ctx.sdk.mcpReq.inputResponses, 'confirm');
  if (answer === undefined) return confirm(ctx);
  const state = ctx.openState<{ tool?: string }>();
  if (state?.tool !== 'request_state') throw new ToolError('requestState is missing or failed its integrity check');
  return `state-ok: confirmed=${String(answer.ok)}`;
};
