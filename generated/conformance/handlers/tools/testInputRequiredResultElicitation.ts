import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultElicitationTool } from '../../types.gen.js';
import { ask, askString } from '../inputs.js';

/**
 * Tool `test_input_required_result_elicitation` (input-required-result-basic-elicitation and
 * the missing-input, result-type, extra-params and validate-input scenarios): asks for
 * `user_name` until an accepted answer with a string `name` arrives, then greets it.
 */
export const testInputRequiredResultElicitation: TestInputRequiredResultElicitationTool = async (_input, ctx) => {
  const answer = acceptedContent(ctx.sdk.mcpReq.inputResponses, 'user_name');
  if (typeof answer?.name !== 'string') return ask(inputRequired({ inputRequests: { user_name: askString('What is your name?', 'name') } }));
  return `Hello, ${answer.name}!`;
};
