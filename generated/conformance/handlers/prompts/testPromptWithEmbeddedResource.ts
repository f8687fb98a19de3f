import type { TestPromptWithEmbeddedResourcePrompt } from '../../types.gen.js';

/** Prompt `test_prompt_with_embedded_resource` (scenario prompts-get-embedded-resource). */
export const testPromptWithEmbeddedResource: TestPromptWithEmbeddedResourcePrompt = {
  get: ({ resourceUri }) => [
    { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
    { role: 'user', text: 'Please process the embedded resource above.' },
  ],
};
