import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import type { TestStreamingElicitationTool } from '../../types.gen.js';
import { ask, askString } from '../inputs.js';

/**
 * Tool `test_streaming_elicitation` (scenario server-stateless): in 2026 a question to
 * the user is an `input_required` result, never a request on the response stream.
 */
export const testStreamingElicitation: TestStreamingElicitationTool = async (_input, ctx) => {
  const answer = acceptedContent(ctx.sdk.mcpReq.inputResponses, 'answer');
  if (typeof answer?.text !== 'string') return ask(inputRequired({ inputRequests: { answer: askString('Say something', 'text') } }));
  return `You said: ${answer.text}`;
};
