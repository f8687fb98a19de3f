import type { TestImageContentTool } from '../../types.gen.js';
import { PNG_BASE64 } from '../fixtures.js';

/** Tool `test_image_content` (scenario tools-call-image). */
export const testImageContent: TestImageContentTool = async () => [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }];
