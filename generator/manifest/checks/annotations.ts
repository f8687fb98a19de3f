import type { RawTool } from '../types.js';
import type { Check, CheckContext, Entry } from './context.js';

/**
 * A hint written in a tool's `annotations:` is published as written, so it must not say the
 * opposite of what `sideEffect`, `idempotency` and `openWorld` make the server do: a client that
 * trusts `readOnlyHint: true` on a write would run it without asking. Hints the specification calls
 * meaningless for a read-only tool (`idempotentHint`, `destructiveHint`) are not checked there.
 */
function checkToolAnnotations(ctx: CheckContext, e: Entry): void {
  if (e.section !== 'tools') return;
  const t = e.value;
  const a = t.annotations;
  if (a === undefined) return;
  const at = (hint: string) => ['tools', e.name, 'annotations', hint];
  for (const [hint, why] of contradictions(t)) {
    ctx.r.error('MG307', at(hint), `\`${hint}: ${String(a[hint as keyof typeof a])}\` contradicts ${why}`,
      `remove \`${hint}\` (it is derived), or change the declaration it contradicts; \`~\` leaves the hint unpublished`);
  }
}

function contradictions(t: RawTool): [string, string][] {
  const a = t.annotations ?? {};
  const out: [string, string][] = [];
  const read = t.sideEffect === 'read';
  const idempotent = t.idempotency === 'required' || t.idempotency === 'natural';
  if (typeof a.readOnlyHint === 'boolean' && a.readOnlyHint !== read) out.push(['readOnlyHint', `\`sideEffect: ${t.sideEffect}\``]);
  if (a.destructiveHint === true && t.sideEffect === 'write') out.push(['destructiveHint', `\`sideEffect: ${t.sideEffect}\` (a destructive change is \`irreversible\`)`]);
  if (a.destructiveHint === false && t.sideEffect === 'irreversible') out.push(['destructiveHint', '`sideEffect: irreversible`']);
  if (!read && a.idempotentHint === true && !idempotent) out.push(['idempotentHint', `\`idempotency: ${t.idempotency ?? 'none'}\` (declare \`idempotency: natural\` for a write idempotent by nature)`]);
  if (!read && a.idempotentHint === false && idempotent) out.push(['idempotentHint', `\`idempotency: ${t.idempotency}\``]);
  if (typeof a.openWorldHint === 'boolean' && t.openWorld !== undefined && a.openWorldHint !== t.openWorld) out.push(['openWorldHint', `\`openWorld: ${t.openWorld}\``]);
  return out;
}

/** Annotations a tool writes must not contradict what it declares. */
export const checkAnnotations: Check = { entry: checkToolAnnotations };
