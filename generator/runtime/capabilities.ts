/**
 * `publishCapabilities()`: the server advertises exactly the capabilities its contract declares.
 * The SDK adds `listChanged: true` to a kind when its first primitive registers (`?? true`), so a
 * contract that publishes `tools: {}` with no `listChanged` (as many existing servers do) would
 * otherwise change on the wire. Only the emitted servers whose contract needs it call this.
 */
import type { McpServer, ServerCapabilities } from '@modelcontextprotocol/server';

/**
 * Makes `initialize` and `server/discover` advertise `capabilities` as given. Call last, after every
 * registration and install (they may still register capabilities), and before connecting.
 */
export function publishCapabilities(server: McpServer, capabilities: ServerCapabilities): void {
  const inner = server.server;
  const registered = inner.getCapabilities.bind(inner);
  const declared = capabilities as Record<string, unknown>;
  // Per kind: the declared entry replaces the registered one; a kind only the SDK registered stays as it is.
  inner.getCapabilities = () => Object.fromEntries(Object.entries(registered()).map(([k, v]) => [k, declared[k] ?? v])) as ServerCapabilities;
}
