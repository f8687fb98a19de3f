import type { StaticBinaryResource } from '../../types.gen.js';
import { PNG_BASE64 } from '../fixtures.js';

const png = new Uint8Array(Buffer.from(PNG_BASE64, 'base64'));

/** Resource `test://static-binary` (scenario resources-read-binary): a PNG, sent as a base64 blob. */
export const staticBinary: StaticBinaryResource = {
  read: () => png,
};
