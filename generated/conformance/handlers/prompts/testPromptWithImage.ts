import type { TestPromptWithImagePrompt } from '../../types.gen.js';
import { PNG_BASE64 } from '../fixtures.js';

/** Prompt `test_prompt_with_image` (scenario prompts-get-with-image). */
export const testPromptWithImage: TestPromptWithImagePrompt = {
  get: () => [
    { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
    { role: 'user', text: 'Please analyze the image above.' },
  ],
};
