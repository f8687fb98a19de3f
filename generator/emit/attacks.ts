/**
 * The attack cases of the contract suites: for each primitive, calls that try
 * to get around the gates (missing scope, another tenant, oversized input,
 * missing or conflicting idempotency keys, missing or declined approval, a
 * handler returning garbage). Each case runs on its own connection with
 * spied handlers and asserts the handler never ran where it must not.
 */
import type { ToolContract } from '../contract/types.js';
import type { IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import type { SuiteContext } from './contract.js';
import { resourceHasHandler, promptHasHandler } from './context.js';
import { variantOf } from './samples.js';
import { type Code, code, lit } from './text.js';

type Obj = Record<string, unknown>;

/**
 * One test of a suite: `it(title, async (args) => { … })` around the body that the partial
 * `templates/partials/contract/<partial>.hbs` writes from the test's values (printed by `{{lit}}`).
 */
export interface TestView {
  readonly title: string;
  /** The test function's parameters (`context` when it can skip). */
  readonly args: string;
  /** The partial that writes the body, `contract/<name>`. */
  readonly partial: string;
  readonly [value: string]: unknown;
}

/** A line the template writes before a `describe`'s tests (the gate checks' binding), from its partial. */
export interface SetupView {
  readonly partial: string;
  readonly [value: string]: unknown;
}

/**
 * The harness functions each partial of templates/partials/contract/ calls: a suite that uses the partial
 * imports them, so its imports are exactly the names its tests use (the generated suites are
 * type-checked with `noUnusedLocals`, which catches a table that drifts from the partials).
 */
const USES: Readonly<Record<string, readonly string[]>> = {
  'capabilities': [],
  'identity': [],
  'instructions': [],
  'tool-list-cache': ['expectToolListCache', 'expectedCache'],
  'lists-tools': [],
  'lists-prompts': [],
  'unknown-tool': ['expectProtocolError'],
  'unknown-prompt': ['expectProtocolError'],
  'unknown-resource': ['expectProtocolError'],
  'not-served': ['expectProtocolError'],
  'tool-listed': ['expectListed', 'declaredTool'],
  'invalid-input': ['expectInvalidInput'],
  'example': ['expectExample'],
  'accepted': ['expectAccepted'],
  'gate': [],
  'listed': ['expectListed'],
  'contents': ['expectContents'],
  'read-cache': ['expectReadCache', 'expectedCache', 'readIsPerCaller'],
  'readable': ['expectReadable'],
  'canaries': ['expectCanariesRefused'],
  'listed-instances': ['expectListedInstances'],
  'prompt-refused': ['expectProtocolError'],
  'messages': ['expectMessages'],
  'prompt-builds': ['expectPromptBuilds'],
  'hidden-effect': ['expectNoHiddenEffect'],
  'read-tool-unchanged': ['expectReadToolUnchanged'],
  'planted-canary': ['expectCanaryHidden', 'connectSpied'],
  'revision': ['expectDeclaredRevision'],
  'capabilities-behave': ['expectCapabilitiesBehave'],
  'retry-after-timeout': ['expectRetryAfterTimeout', 'connectSpied'],
  'alone': ['expectAlone', 'connectComposed'],
  'together': ['expectTogether', 'connectComposed'],
  'catalog-change': ['expectCatalogChange', 'connectComposed'],
  'tool-gates': ['toolGates'],
  'resource-gates': ['resourceGates'],
  'prompt-gates': ['promptGates'],
  'declared-setup': [],
};

/** The partial `name`, recording the harness names it calls as used by the suite. */
function partial(ctx: SuiteContext, name: string): string {
  const uses = USES[name];
  if (uses === undefined) throw new Error(`no contract test partial ${name}`);
  for (const n of uses) ctx.use(n);
  return `contract/${name}`;
}

/** A test whose body the partial `name` writes from `values`; `args` is `context` for a test that can skip. */
export function test(ctx: SuiteContext, name: string, title: string, values: object = {}, args = ''): TestView {
  for (const k of ['title', 'args', 'partial']) if (k in values) throw new Error(`a test's value may not be named ${k}`);
  return { ...values, title, args, partial: partial(ctx, name) };
}

/** A setup line written by the partial `name` from `values`. */
export const setup = (ctx: SuiteContext, name: string, values: object): SetupView => ({ ...values, partial: partial(ctx, name) });

function otherScopes(ctx: SuiteContext, own: readonly string[]): string[] {
  return ctx.ir.server.scopes.map((s) => s.name).filter((s) => !own.includes(s));
}

/** A tool's input with the control arguments its gates need (`argsFor(input, { key: true })`), as a value to print. */
export function gateArgs(ctx: SuiteContext, t: IrTool, input: unknown): unknown {
  const gates: string[] = [];
  if (t.idempotency === 'required') gates.push('key: true');
  if (t.approval === 'required') gates.push('receipt: true');
  return gates.length === 0 ? input : code(`${ctx.use('argsFor')}(${lit(input)}, { ${gates.join(', ')} })`);
}

/** The gate checks of one primitive: the line that binds them and one test per check. */
export interface Attacks {
  readonly setup: SetupView | undefined;
  readonly tests: TestView[];
}

/** The seed's gate a check belongs to, named in its title so a failure says which gate broke. */
type Gate = 'cross-tenant canary' | 'unauthorized write' | 'unauthorized read' | 'capability vs behaviour' | 'retry without a duplicate effect';
const FAMILY: Readonly<Record<Gate, string>> = {
  'cross-tenant canary': 'hard gate',
  'unauthorized write': 'hard gate',
  'unauthorized read': 'hard gate',
  'capability vs behaviour': 'compatibility gate',
  'retry without a duplicate effect': 'recovery gate',
};

/** A gate check: `await gates.<name>(...args)`, titled with its gate. */
const check = (ctx: SuiteContext, title: string, name: string, args: readonly unknown[], gate?: Gate): TestView =>
  test(ctx, 'gate', gate === undefined ? title : `${FAMILY[gate]} · ${gate}: ${title}`, { check: name, callArgs: args });

/** Attack cases for one tool, given a valid input. */
export function toolAttacks(ctx: SuiteContext, c: ToolContract, valid: Obj): Attacks {
  const t = c.ir;
  const subject = { id: t.id, name: t.name, input: valid, ...(t.idempotency === 'required' ? { key: true } : {}), ...(t.approval === 'required' ? { receipt: true } : {}) };
  const tests: TestView[] = [];
  if (t.scopes.length > 0) {
    const gate = t.sideEffect === 'read' ? 'unauthorized read' : 'unauthorized write';
    tests.push(check(ctx, `refuses a caller without scope ${t.scopes.join(' ')} before validation; the handler never runs and the tool is not listed`, 'withoutScope', [otherScopes(ctx, t.scopes)], gate));
  }
  tests.push(check(ctx, 'lets the authorize hook refuse another tenant; the hook sees the context identity and the stripped input', 'otherTenant', [], 'cross-tenant canary'));
  tests.push(check(ctx, 'refuses oversized input before the handler', 'oversized', []));
  if (t.output !== undefined) tests.push(check(ctx, 'turns a handler output that violates the output schema into isError', 'badOutput', [], 'capability vs behaviour'));
  if (t.idempotency === 'required') tests.push(...idempotencyAttacks(ctx, c, valid));
  if (t.approval === 'required') {
    tests.push(
      check(ctx, 'refuses a call without approval (client cannot confirm) and says what is missing', 'noApproval', [], 'unauthorized write'),
      check(ctx, 'refuses a receipt for a different input', 'wrongReceipt', [], 'unauthorized write'),
      check(ctx, 'asks the user through the client and never runs when the user declines', 'declined', [], 'unauthorized write'),
      check(ctx, 'runs once the user confirms through the client', 'confirmed', []),
    );
    const result = sampleResult(ctx, c);
    if (result !== undefined) tests.push(check(ctx, 'refuses a receipt that already authorized a call, even under a fresh key', 'receiptReused', [result], 'unauthorized write'));
  }
  return { setup: setup(ctx, 'tool-gates', { subject }), tests };
}

/** What a replaced handler returns in the gate checks: a valid output, or text; undefined when no output can be made. */
function sampleResult(ctx: SuiteContext, c: ToolContract): unknown {
  return c.output === undefined ? 'mcpgen ok' : ctx.samples.sample(c.output);
}

function idempotencyAttacks(ctx: SuiteContext, c: ToolContract, valid: Obj): TestView[] {
  const t = c.ir;
  const result = sampleResult(ctx, c);
  if (result === undefined) return [];
  const cases = [
    check(ctx, 'refuses a call without idempotencyKey before the handler', 'missingKey', [], 'retry without a duplicate effect'),
    check(ctx, 'replays the first result for the same key and input without running the handler again', 'replay', [result], 'retry without a duplicate effect'),
  ];
  const variant = variantOf(ctx.samples, c.input, valid, t.examples.map((e) => e.input));
  if (variant !== undefined) cases.push(check(ctx, 'refuses the same key with a different input', 'keyConflict', [variant, result], 'retry without a duplicate effect'));
  cases.push(
    check(ctx, 'answers "in progress" to a retry while the first call with the key runs; the handler runs once', 'inProgress', [result], 'retry without a duplicate effect'),
    check(ctx, 'never runs twice for the same key with an input that differs by an own "__proto__" key', 'prototypeKey', [result], 'retry without a duplicate effect'),
  );
  return cases;
}

/** Attack cases for one resource; `uri` is a URI that passes the variable checks (a string, or code that builds it). */
export function resourceAttacks(ctx: SuiteContext, r: IrResource, uri: string | Code | undefined): Attacks {
  if (uri === undefined) return { setup: undefined, tests: [] };
  const spied = resourceHasHandler(r);
  const tests: TestView[] = [];
  if (r.scopes.length > 0) tests.push(check(ctx, `refuses a reader without scope ${r.scopes.join(' ')}; the handler never runs and it is not listed`, 'withoutScope', [otherScopes(ctx, r.scopes)], 'unauthorized read'));
  tests.push(check(ctx, 'lets the authorize hook refuse another tenant before the handler', 'otherTenant', [], 'cross-tenant canary'));
  if (r.schema !== undefined && spied) tests.push(check(ctx, 'refuses content that violates its schema', 'badContent', [], 'capability vs behaviour'));
  if (r.subscribe && r.scopes.length > 0) tests.push(check(ctx, `refuses a subscription without scope ${r.scopes.join(' ')}`, 'subscribeWithoutScope', [otherScopes(ctx, r.scopes)], 'unauthorized read'));
  if (r.subscribe) tests.push(check(ctx, "lets the authorize hook refuse another tenant's subscription", 'subscribeOtherTenant', [], 'cross-tenant canary'));
  const subject = { ...(spied ? { id: r.id } : {}), name: r.name, uri, template: r.uriTemplate !== undefined };
  return { setup: setup(ctx, 'resource-gates', { subject }), tests };
}

/** Attack cases for one prompt, given valid arguments. */
export function promptAttacks(ctx: SuiteContext, p: IrPrompt, args: Record<string, string>): Attacks {
  const spied = promptHasHandler(p) && p.messages === undefined;
  const tests: TestView[] = [];
  if (p.scopes.length > 0) tests.push(check(ctx, `refuses a caller without scope ${p.scopes.join(' ')} before validation; not listed`, 'withoutScope', [otherScopes(ctx, p.scopes)], 'unauthorized read'));
  tests.push(check(ctx, 'lets the authorize hook refuse another tenant before the handler', 'otherTenant', [], 'cross-tenant canary'));
  // A prompt listed without `arguments` is registered without an argument schema: the SDK hands it no arguments at all.
  if (p.listsArguments) tests.push(check(ctx, 'refuses oversized arguments before the handler', 'oversized', [p.arguments[0]?.name ?? 'mcpgen']));
  const subject = { ...(spied ? { id: p.id } : {}), name: p.name, args };
  return { setup: setup(ctx, 'prompt-gates', { subject }), tests };
}
