import { inputRequired } from '@modelcontextprotocol/server';
import type { TestMissingCapabilityTool } from '../../types.gen.js';
import { ask, askModel } from '../inputs.js';

/**
 * Tool `test_missing_capability` (scenario server-stateless): needs sampling; the
 * SDK answers -32021 MissingRequiredClientCapability with
 * `requiredCapabilities: {sampling: {}}` when the client did not declare it.
 */
export const testMissingCapability: TestMissingCapabilityTool = async (_input, ctx) => {
  if (ctx.sdk.mcpReq.inputResponses?.answer) return 'Sampling answered';
  return ask(inputRequired({ inputRequests: { answer: askModel('Say hello', 20) } }));
};
