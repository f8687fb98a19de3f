/**
 * Expected listings built from a primitive's declared manifest values. The contract suites compare the
 * server's `tools/list` with these, so this module must not share the generator's derivation: it
 * restates the MCP rules for tool annotations on its own (a wrong annotation in the generator then fails
 * the suite instead of passing its own test). The control arguments come from their one source,
 * `runtime/control.ts`, which the runtime enforces.
 */
import { CONTROL_ARGUMENTS } from '../runtime/control.js';

type Obj = Record<string, unknown>;

/** What the manifest declares of a tool, as a contract suite states it (other base fields are listed as declared). */
export interface DeclaredTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly sideEffect: 'read' | 'write' | 'irreversible';
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
  readonly openWorld?: boolean;
  /** The tool's `annotations:` block as written (a `null` hint is not published). */
  readonly annotations?: Obj;
  readonly icons?: readonly unknown[];
  readonly _meta?: Obj;
  /** The declared input schema (self-contained). */
  readonly input: Obj | boolean;
  readonly output?: Obj | boolean;
  /** A base field every listing shows as declared (title and description are named above). */
  readonly [field: string]: unknown;
}

/**
 * The annotations of each side effect, per the MCP tool annotations: a read is read-only and repeatable;
 * a write is neither read-only nor destructive; an irreversible operation is destructive. Hints that
 * equal the protocol's defaults for the case are still stated where the manifest decides them.
 */
const BY_SIDE_EFFECT: Readonly<Record<DeclaredTool['sideEffect'], Obj>> = {
  read: { readOnlyHint: true, idempotentHint: true },
  write: { readOnlyHint: false, destructiveHint: false },
  irreversible: { readOnlyHint: false, destructiveHint: true },
};

/** The annotations a tool with these declared values must be listed with. */
export function expectedAnnotations(d: Pick<DeclaredTool, 'sideEffect' | 'idempotency' | 'openWorld' | 'annotations'>): Obj {
  const { title, ...written } = d.annotations ?? {};
  const out: Obj = { ...(title !== undefined ? { title } : {}), ...BY_SIDE_EFFECT[d.sideEffect] };
  // An idempotency key makes a repeat harmless: the server returns the first result.
  if (d.idempotency === 'required') out['idempotentHint'] = true;
  // A write idempotent by nature (`idempotency: natural`) publishes the hint without a key.
  if (d.idempotency === 'natural') out['idempotentHint'] = true;
  if (d.openWorld !== undefined) out['openWorldHint'] = d.openWorld;
  // Hints written explicitly are published as written; `null` means "leave it out".
  for (const [hint, value] of Object.entries(written)) {
    if (value === null) delete out[hint];
    else out[hint] = value;
  }
  return out;
}

/** The input schema a tool must publish: the declared one plus the control arguments its policies add. */
export function expectedInputSchema(d: Pick<DeclaredTool, 'input' | 'idempotency' | 'approval'>): Obj | boolean {
  if (typeof d.input !== 'object') return d.input;
  const wanted = CONTROL_ARGUMENTS.filter((c) => d[c.policy] === 'required');
  if (wanted.length === 0) return { type: 'object', ...d.input };
  const properties = { ...((d.input['properties'] ?? {}) as Obj) };
  const required = [...((d.input['required'] ?? []) as string[])];
  for (const c of wanted) {
    if (Object.hasOwn(properties, c.name)) continue;
    properties[c.name] = c.schema;
    if (c.required && !required.includes(c.name)) required.push(c.name);
  }
  return { type: 'object', ...d.input, properties, required };
}

/** The `tools/list` entry a tool with these declared values must have. */
export function declaredTool(d: DeclaredTool): Obj {
  const { sideEffect: _s, idempotency: _i, approval: _a, openWorld: _o, annotations: _an, input: _in, output: _out, ...base } = d;
  const annotations = expectedAnnotations(d);
  return {
    ...base,
    inputSchema: expectedInputSchema(d),
    ...(d.output !== undefined ? { outputSchema: typeof d.output === 'object' ? { type: 'object', ...d.output } : d.output } : {}),
    // With every hint left out and no title there is nothing to publish: no `annotations` field.
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(d._meta !== undefined ? { _meta: d._meta } : {}),
  };
}
