import type { TestSimpleTextTool } from '../../types.gen.js';

/** Tool `test_simple_text` (scenario tools-call-simple-text). */
export const testSimpleText: TestSimpleTextTool = async () => [{ type: 'text', text: 'This is a simple text response for testing.' }];
