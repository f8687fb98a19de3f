/**
 * The control arguments: arguments a tool call carries for its gates rather than for its handler
 * (an idempotency key, an approval receipt). This table is their one source: the generator reads it
 * to publish each tool's input schema and to type the generated client's `call` parameter, the
 * runtime reads it to take them out of the arguments before the handler, and the contract suites
 * read it to build calls. A tool carries an argument exactly when its policy asks for it.
 */

/** The policy fields of a tool that decide which control arguments it takes. */
export interface ControlPolicy {
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
}

/** One control argument: its wire name, whether a call must carry it, and the schema it is published with. */
export interface ControlArgument {
  /** The argument's name in `tools/call` arguments. */
  readonly name: string;
  /** The policy that adds it. */
  readonly policy: keyof ControlPolicy;
  /** True when every call must carry it (the call is refused without it). */
  readonly required: boolean;
  /** What it does, for the documentation of generated clients (a sentence after its name). */
  readonly summary: string;
  /** The JSON Schema it is published with in the tool's `inputSchema`. */
  readonly schema: { readonly type: 'string'; readonly [keyword: string]: unknown };
}

/** The argument that carries the idempotency key of tools with `idempotency: required`. */
export const IDEMPOTENCY_FIELD = 'idempotencyKey';
/** The argument that carries an approval receipt for tools with `approval: required`. */
export const APPROVAL_FIELD = 'approvalReceipt';

/** Every control argument, in the order they are published. */
export const CONTROL_ARGUMENTS: readonly ControlArgument[] = [
  {
    name: IDEMPOTENCY_FIELD,
    policy: 'idempotency',
    required: true,
    summary: 'identifies the operation: a retry with the same key returns the first result.',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[!-~]+$',
      description:
        'Unique key of this operation. Retrying with the same key and the same input returns the first result without repeating the effect; a new operation needs a new key.',
    },
  },
  {
    name: APPROVAL_FIELD,
    policy: 'approval',
    required: false,
    summary: 'carries an approval of this exact call; without it the server asks the user through the client.',
    schema: {
      type: 'string',
      minLength: 1,
      description: 'Approval receipt for this exact call, issued by the approval system. Without it, the server asks the user to confirm through the client.',
    },
  },
];

/** The control arguments a tool with this policy takes, in publication order (none for an ungated tool). */
export function controlArgumentsOf(policy: ControlPolicy): readonly ControlArgument[] {
  return CONTROL_ARGUMENTS.filter((c) => policy[c.policy] === 'required');
}
