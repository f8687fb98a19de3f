/**
 * `ownRegistries()`: the SDK keeps registered tools, prompts and resources in
 * plain objects, so a primitive named after an Object.prototype member
 * (`constructor`, `toString`, `hasOwnProperty`) looks registered before it is
 * (`already registered`) and `__proto__` cannot be stored at all. Generated
 * servers swap the empty registries for objects without a prototype right
 * after construction, before anything registers.
 */
import type { McpServer } from '@modelcontextprotocol/server';

const REGISTRIES = ['_registeredTools', '_registeredPrompts', '_registeredResources', '_registeredResourceTemplates'] as const;

/** Replaces the SDK's empty registries of `server` with prototype-free ones. Call before the first registration. */
export function ownRegistries(server: McpServer): McpServer {
  const fields = server as unknown as Record<string, unknown>;
  for (const field of REGISTRIES) {
    const current = fields[field];
    // Only an empty plain object is swapped: an SDK that changed its storage is left as it is.
    if (current !== null && typeof current === 'object' && Object.getPrototypeOf(current) === Object.prototype && Object.keys(current).length === 0) {
      fields[field] = Object.create(null) as object;
    }
  }
  return server;
}
