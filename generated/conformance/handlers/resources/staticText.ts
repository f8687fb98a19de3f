import type { StaticTextResource } from '../../types.gen.js';

/** Resource `test://static-text` (scenario resources-read-text). */
export const staticText: StaticTextResource = {
  read: () => 'This is the content of the static text resource.',
};
