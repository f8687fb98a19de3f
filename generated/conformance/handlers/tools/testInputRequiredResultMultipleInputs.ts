import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type { TestInputRequiredResultMultipleInputsTool } from '../../types.gen.js';
import { ask, askModel, askString, samplingText } from '../inputs.js';

/** Tool `test_input_required_result_multiple_inputs` (input-required-result-multiple-input-requests). */
export const testInputRequiredResultMultipleInputs: TestInputRequiredResultMultipleInputsTool = async (_input, ctx) => {
  const responses = ctx.sdk.mcpReq.inputResponses;
  const name = inputResponse(responses, 'user_name');
  const greeting = inputResponse(responses, 'greeting');
  const roots = inputResponse(responses, 'client_roots');
  const state = ctx.openState<{ tool?: string }>();
  if (name.kind !== 'elicit' || greeting.kind !== 'sampling' || roots.kind !== 'roots' || state?.tool !== 'multiple_inputs') {
    return ask(inputRequired({
      inputRequests: {
        user_name: askString('What is your name?', 'name'),
        greeting: askModel('Generate a greeting', 50),
        client_roots: inputRequired.listRoots(),
      },
      requestState: ctx.sealState({ tool: 'multiple_inputs' }),
    }));
  }
  return `name=${JSON.stringify(name.content?.name)}, greeting=${samplingText(greeting.result)}, roots=${roots.roots.map((r) => r.uri).join(', ')}`;
};
