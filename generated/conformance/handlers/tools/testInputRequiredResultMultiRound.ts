import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import type { HandlerContext, TestInputRequiredResultMultiRoundTool } from '../../types.gen.js';
import { ask, askString } from '../inputs.js';

interface Round {
  readonly tool: 'multi_round';
  readonly round: 1 | 2;
  readonly name?: string;
}

const stepOne = (ctx: HandlerContext) =>
  ask(inputRequired({ inputRequests: { step1: askString('Step 1: What is your name?', 'name') }, requestState: ctx.sealState({ tool: 'multi_round', round: 1 } satisfies Round) }));

/** Tool `test_input_required_result_multi_round` (input-required-result-multi-round): name, then colour, then the answer. */
export const testInputRequiredResultMultiRound: TestInputRequiredResultMultiRoundTool = async (_input, ctx) => {
  const responses = ctx.sdk.mcpReq.inputResponses;
  const state = ctx.openState<Round>();
  if (state?.tool !== 'multi_round') return stepOne(ctx);
  if (state.round === 1) {
    const step1 = acceptedContent(responses, 'step1');
    if (typeof step1?.name !== 'string') return stepOne(ctx);
    return ask(inputRequired({
      inputRequests: { step2: askString('Step 2: What is your favorite color?', 'color') },
      requestState: ctx.sealState({ tool: 'multi_round', round: 2, name: step1.name } satisfies Round),
    }));
  }
  const step2 = acceptedContent(responses, 'step2');
  if (typeof step2?.color !== 'string') {
    return ask(inputRequired({ inputRequests: { step2: askString('Step 2: What is your favorite color?', 'color') }, requestState: ctx.sealState(state) }));
  }
  return `${state.name ?? 'Someone'} likes ${step2.color}.`;
};
