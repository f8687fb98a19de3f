import type { TestAudioContentTool } from '../../types.gen.js';
import { WAV_BASE64 } from '../fixtures.js';

/** Tool `test_audio_content` (scenario tools-call-audio). */
export const testAudioContent: TestAudioContentTool = async () => [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }];
