import type { TestMultipleContentTypesTool } from '../../types.gen.js';
import { PNG_BASE64 } from '../fixtures.js';

/** Tool `test_multiple_content_types` (scenario tools-call-mixed-content). */
export const testMultipleContentTypes: TestMultipleContentTypesTool = async () => [
  { type: 'text', text: 'Multiple content types test:' },
  { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
  { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
];
