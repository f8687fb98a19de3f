import { inputRequired, type InputRequest } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultCapabilitiesTool } from '../../types.gen.js';
import { ask, askModel, askString } from '../inputs.js';

/**
 * Tool `test_input_required_result_capabilities` (input-required-result-capability-check):
 * asks only for what the request's declared client capabilities allow.
 */
export const testInputRequiredResultCapabilities: TestInputRequiredResultCapabilitiesTool = async (_input, ctx) => {
  if (ctx.sdk.mcpReq.inputResponses) return 'Inputs received';
  const envelope = (ctx.sdk.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const caps = (envelope['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<string, unknown>;
  const requests: Record<string, InputRequest> = {};
  if (caps.sampling) requests.question = askModel('What is 2 + 2?', 20);
  if (caps.elicitation) requests.user_name = askString('What is your name?', 'name');
  if (caps.roots) requests.client_roots = inputRequired.listRoots();
  if (Object.keys(requests).length === 0) return 'The client declared no capability to ask with';
  return ask(inputRequired({ inputRequests: requests }));
};
