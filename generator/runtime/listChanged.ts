/**
 * List-changed notifications only where advertised. The SDK sends `notifications/{tools,resources,prompts}/
 * list_changed` whenever a registered primitive is removed, disabled or updated while connected, even when
 * the server advertises `listChanged: false` (which generated servers do unless the manifest declares it):
 * a capability saying "no notifications" next to a method that sends them. This keeps the two in step.
 */
import type { McpServer } from '@modelcontextprotocol/server';

const SENDERS = { tools: 'sendToolListChanged', resources: 'sendResourceListChanged', prompts: 'sendPromptListChanged' } as const;

/** Makes `server`'s list-changed senders a no-op for each kind whose capability does not say `listChanged: true`. */
export function listChangedAsAdvertised(server: McpServer): void {
  const self = server as unknown as Record<string, (() => void) | undefined>;
  for (const [kind, sender] of Object.entries(SENDERS)) {
    const send = self[sender];
    if (typeof send !== 'function') continue;
    self[sender] = () => {
      const caps = server.server.getCapabilities() as Record<string, { listChanged?: boolean } | undefined>;
      if (caps[kind]?.listChanged === true) send.call(server);
    };
  }
}
