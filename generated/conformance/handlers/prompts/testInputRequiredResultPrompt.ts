import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import type { PromptReturn } from 'mcp-gen/runtime';
import type { TestInputRequiredResultPromptPrompt } from '../../types.gen.js';
import { askString } from '../inputs.js';

/**
 * Prompt `test_input_required_result_prompt` (input-required-result-non-tool-request, 2026):
 * asks for `user_context` first. The runtime's prompt callback does not pass an
 * `input_required` result through yet (docs/conformance.md), hence the cast.
 */
export const testInputRequiredResultPrompt: TestInputRequiredResultPromptPrompt = {
  get: (_args, ctx) => {
    const answer = acceptedContent(ctx.sdk.mcpReq.inputResponses, 'user_context');
    if (typeof answer?.context !== 'string') {
      return inputRequired({ inputRequests: { user_context: askString('What context should the prompt use?', 'context') } }) as unknown as PromptReturn;
    }
    return `Use this context: ${answer.context}`;
  },
};
