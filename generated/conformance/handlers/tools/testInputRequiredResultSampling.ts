import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultSamplingTool } from '../../types.gen.js';
import { ask, askModel, samplingText } from '../inputs.js';

/** Tool `test_input_required_result_sampling` (input-required-result-basic-sampling). */
export const testInputRequiredResultSampling: TestInputRequiredResultSamplingTool = async (_input, ctx) => {
  const answer = inputResponse(ctx.sdk.mcpReq.inputResponses, 'capital_question');
  if (answer.kind !== 'sampling') return ask(inputRequired({ inputRequests: { capital_question: askModel('What is the capital of France?', 100) } }));
  return `Sampling response: ${samplingText(answer.result)}`;
};
