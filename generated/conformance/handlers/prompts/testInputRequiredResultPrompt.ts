import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultPromptPrompt } from '../../types.gen.js';
import { askString } from '../inputs.js';

/**
 * Prompt `test_input_required_result_prompt` (input-required-result-non-tool-request, 2026):
 * asks for `user_context` first, then builds the message from the answer.
 */
export const testInputRequiredResultPrompt: TestInputRequiredResultPromptPrompt = {
  get: (_args, ctx) => {
    const answer = acceptedContent(ctx.sdk.mcpReq.inputResponses, 'user_context');
    if (typeof answer?.context !== 'string') {
      return inputRequired({ inputRequests: { user_context: askString('What context should the prompt use?', 'context') } });
    }
    return `Use this context: ${answer.context}`;
  },
};
