/** The in-memory default store against the same conformance suite as Redis (its peer is itself: one process). */
import { memoryStore } from '../../generator/runtime/store/memory.js';
import { storeConformance } from './conformance.js';

storeConformance('memory', async ({ maxKeysPerOwner }) => {
  const store = memoryStore({ maxRecordsPerOwner: maxKeysPerOwner });
  return { store, peer: store, close: () => store.close() };
});
