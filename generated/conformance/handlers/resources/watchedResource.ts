import type { WatchedResourceResource } from '../../types.gen.js';

/** Resource `test://watched-resource` (scenarios resources-subscribe and resources-unsubscribe). */
export const watchedResource: WatchedResourceResource = {
  read: () => 'Watched resource content',
};
