import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultListRootsTool } from '../../types.gen.js';
import { ask } from '../inputs.js';

/** Tool `test_input_required_result_list_roots` (input-required-result-basic-list-roots). */
export const testInputRequiredResultListRoots: TestInputRequiredResultListRootsTool = async (_input, ctx) => {
  const answer = inputResponse(ctx.sdk.mcpReq.inputResponses, 'client_roots');
  if (answer.kind !== 'roots') return ask(inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } }));
  return `Client roots: ${answer.roots.map((root) => root.uri).join(', ')}`;
};
