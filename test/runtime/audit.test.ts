/**
 * The default audit sink writes each event as a JSON line it builds itself (off the request's path);
 * it must be exactly the JSON of the event a custom sink receives, `audit: 'mcp-gen'` first.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, type AuditEvent, type Runtime } from '../../generator/runtime/index.js';
import { beginCall } from '../../generator/runtime/security/call.js';

const sdk = { mcpReq: { signal: new AbortController().signal, _meta: {} } } as unknown as Parameters<typeof beginCall>[3];
/** Both runtimes read the same clock, so the two forms of each event carry the same time and duration. */
const clock = () => Date.UTC(2026, 10, 30, 6, 0, 0, 5);

type Case = { kind: 'tool' | 'resource' | 'prompt'; name: string; args: unknown; uri?: string; outcome: AuditEvent['outcome']; extra?: { reason?: string; idempotencyKey?: string; approval?: string } };
const cases: Case[] = [
  { kind: 'tool', name: 'tickets.get', args: { ticketId: 'T-1' }, outcome: 'ok' },
  { kind: 'tool', name: 'we"ird\\name\u2028', args: { z: [1, { b: 2, a: '\u0000' }] }, outcome: 'forbidden', extra: { reason: `Forbidden: "quoted" \n${'x'.repeat(300)}` } },
  { kind: 'tool', name: 'refunds.submit', args: {}, outcome: 'replayed', extra: { idempotencyKey: 'k-1', approval: 'elicitation' } },
  { kind: 'resource', name: 'ticket', args: { uri: 'support://tickets/T-1' }, uri: 'support://tickets/T-1', outcome: 'error', extra: { reason: 'boom' } },
  { kind: 'prompt', name: 'summarize', args: { ticketId: 'T-1' }, outcome: 'invalid' },
];

function run(rt: Runtime): void {
  for (const c of cases) beginCall(rt, c.kind, c.name, sdk, c.args, c.uri).end(c.outcome, c.extra);
}

describe('default audit sink', () => {
  for (const tenant of [undefined, 'tenant "b"']) {
    it(`writes exactly the JSON of the event a custom sink receives (tenant ${tenant ?? 'none'})`, async () => {
      const identity = { principal: 'alice\t"ops"', ...(tenant === undefined ? {} : { tenant }), scopes: [] };
      const events: AuditEvent[] = [];
      const written: string[] = [];
      run(createRuntime({ ...identity, clock, audit: (e) => void events.push(e) }));
      run(createRuntime({ ...identity, clock, stderr: { write: (s: string) => (written.push(s), true) } }));
      await new Promise((resolve) => setImmediate(resolve));
      const lines = written.join('').split('\n').filter(Boolean);
      expect(lines).toHaveLength(cases.length);
      expect(lines).toEqual(events.map((e) => JSON.stringify({ audit: 'mcp-gen', ...e })));
    });
  }
});
