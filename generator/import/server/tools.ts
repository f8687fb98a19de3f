/**
 * A published tool → a manifest tool: `sideEffect` inferred from its hints (with the reason), and an
 * `annotations:` block that makes the generated listing publish exactly the hints the original does.
 */
type Obj = Record<string, unknown>;

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
/** The fields of a published tool a manifest expresses; any other is reported as inexpressible. */
export const TOOL_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta']);

/** What the importer decided for one tool's side effect, and why. */
export interface SideEffectInference {
  readonly sideEffect: 'read' | 'write' | 'irreversible';
  readonly idempotency?: 'natural';
  readonly reason: string;
}

/**
 * Reads the side effect from the published hints, with the specification's defaults for absent ones
 * (readOnlyHint false, destructiveHint true, idempotentHint false): read-only → read; otherwise
 * destructive → irreversible, else write; an idempotent write is `idempotency: natural`.
 */
export function inferSideEffect(annotations: Obj | undefined): SideEffectInference {
  const a = annotations ?? {};
  const said = (h: string, fallback: boolean): [boolean, string] =>
    typeof a[h] === 'boolean' ? [a[h] as boolean, `${h}: ${String(a[h])}`] : [fallback, `${h} absent (default ${fallback})`];
  const [readOnly, r] = said('readOnlyHint', false);
  if (readOnly) return { sideEffect: 'read', reason: `from ${r}` };
  const [destructive, d] = said('destructiveHint', true);
  const [idempotent, i] = said('idempotentHint', false);
  return {
    sideEffect: destructive ? 'irreversible' : 'write',
    ...(idempotent ? { idempotency: 'natural' as const } : {}),
    reason: `from ${r}, ${d}, ${i}`,
  };
}

/** The hints mcp-gen derives for a side effect (the same rules as the contract phase, restated for the importer). */
function derivedHints(s: SideEffectInference): Obj {
  return {
    readOnlyHint: s.sideEffect === 'read',
    ...(s.sideEffect !== 'read' ? { destructiveHint: s.sideEffect === 'irreversible' } : {}),
    ...(s.sideEffect === 'read' || s.idempotency !== undefined ? { idempotentHint: true } : {}),
  };
}

/**
 * The `annotations:` block that turns the derived hints into the published ones: each differing hint
 * written as published, each derived hint the original does not publish written `~`. Undefined when
 * nothing needs writing.
 */
export function annotationsBlock(published: Obj | undefined, s: SideEffectInference): { block?: Obj; unknown: string[] } {
  const a = published ?? {};
  const derived = derivedHints(s);
  const block: Obj = {};
  if (typeof a['title'] === 'string') block['title'] = a['title'];
  for (const h of HINTS) {
    if (h in a) {
      if (typeof a[h] === 'boolean' && a[h] !== derived[h]) block[h] = a[h];
    } else if (h in derived) block[h] = null;
  }
  const unknown = Object.keys(a).filter((k) => (k === 'title' ? typeof a[k] !== 'string' : !(HINTS as readonly string[]).includes(k) || typeof a[k] !== 'boolean'));
  return { ...(Object.keys(block).length > 0 ? { block } : {}), unknown };
}
