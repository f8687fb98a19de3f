import type { TestEmbeddedResourceTool } from '../../types.gen.js';

/** Tool `test_embedded_resource` (scenario tools-call-embedded-resource). */
export const testEmbeddedResource: TestEmbeddedResourceTool = async () => [
  { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
];
