import { ToolError } from 'mcp-gen/runtime';
import type { TestSamplingTool } from '../../types.gen.js';

/**
 * Tool `test_sampling` (scenario tools-call-sampling, 2025): a real
 * `sampling/createMessage` request, sent on the request's own stream.
 */
export const testSampling: TestSamplingTool = async ({ prompt }, ctx) => {
  let result;
  try {
    result = await ctx.sdk.mcpReq.send({
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
    });
  } catch (error) {
    throw new ToolError(`Sampling failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const content = (result as { content?: { type?: string; text?: string } }).content;
  const text = content?.type === 'text' ? content.text : JSON.stringify(content);
  return `LLM response: ${text}`;
};
