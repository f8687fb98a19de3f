import type { TestPromptWithArgumentsPrompt } from '../../types.gen.js';

const SUGGESTIONS = ['paris', 'park', 'party', 'test', 'testing'];

/** Prompt `test_prompt_with_arguments` (its messages are the manifest's template; completion-complete asks about arg1). */
export const testPromptWithArguments: TestPromptWithArgumentsPrompt = {
  complete: {
    arg1: async (value) => SUGGESTIONS.filter((s) => s.startsWith(value.toLowerCase())),
  },
};
