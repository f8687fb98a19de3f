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
import { lit } from './text.js';

type Obj = Record<string, unknown>;

/** One test of a suite, as the template lays it out: `it(title, async (args) => { body })`. */
export interface TestView {
  /** The title, as code. */
  readonly title: string;
  /** The test function's parameters (`context` when it can skip). */
  readonly args: string;
  /** The statements, each line indented to sit inside the test function. */
  readonly body: string;
}

/** A test for the suite template; `body` is code laid out from column 0. */
export const it = (title: string, body: string, args = ''): TestView => ({
  title: lit(title),
  args,
  body: body
    .split('\n')
    .map((l) => (l ? `      ${l}` : l))
    .join('\n'),
});

function otherScopes(ctx: SuiteContext, own: readonly string[]): string[] {
  return ctx.ir.server.scopes.map((s) => s.name).filter((s) => !own.includes(s));
}

/** The control arguments a tool's gates need, as harness code. */
export function gateArgs(ctx: SuiteContext, t: IrTool, input: string): string {
  const gates: string[] = [];
  if (t.idempotency === 'required') gates.push('key: true');
  if (t.approval === 'required') gates.push('receipt: true');
  return gates.length === 0 ? input : `${ctx.use('argsFor')}(${input}, { ${gates.join(', ')} })`;
}

/** The gate checks of one primitive: the line that binds them and one test per check. */
export interface Attacks {
  readonly setup: string;
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

const check = (title: string, call: string, gate?: Gate): TestView => it(gate === undefined ? title : `${FAMILY[gate]} · ${gate}: ${title}`, `await gates.${call};`);

/** `prefix` followed by a value laid out as code on a line indented by `indent`, the prefix starting at column `start`. */
export const withValue = (prefix: string, value: unknown, indent: number, start = indent): string => `${prefix}${lit(value, indent, start + prefix.length)}`;

/** Attack cases for one tool, given a valid input. */
export function toolAttacks(ctx: SuiteContext, c: ToolContract, valid: Obj): Attacks {
  const t = c.ir;
  const subject = { id: t.id, name: t.name, input: valid, ...(t.idempotency === 'required' ? { key: true } : {}), ...(t.approval === 'required' ? { receipt: true } : {}) };
  const tests: TestView[] = [];
  if (t.scopes.length > 0) {
    const gate = t.sideEffect === 'read' ? 'unauthorized read' : 'unauthorized write';
    tests.push(check(`refuses a caller without scope ${t.scopes.join(' ')} before validation; the handler never runs and the tool is not listed`, `withoutScope(${lit(otherScopes(ctx, t.scopes))})`, gate));
  }
  tests.push(check('lets the authorize hook refuse another tenant; the hook sees the context identity and the stripped input', 'otherTenant()', 'cross-tenant canary'));
  tests.push(check('refuses oversized input before the handler', 'oversized()'));
  if (t.output !== undefined) tests.push(check('turns a handler output that violates the output schema into isError', 'badOutput()', 'capability vs behaviour'));
  if (t.idempotency === 'required') tests.push(...idempotencyAttacks(ctx, c, valid));
  if (t.approval === 'required') {
    tests.push(
      check('refuses a call without approval (client cannot confirm) and says what is missing', 'noApproval()', 'unauthorized write'),
      check('refuses a receipt for a different input', 'wrongReceipt()', 'unauthorized write'),
      check('asks the user through the client and never runs when the user declines', 'declined()', 'unauthorized write'),
      check('runs once the user confirms through the client', 'confirmed()'),
    );
    const result = sampleResult(ctx, c);
    if (result !== undefined) tests.push(check('refuses a receipt that already authorized a call, even under a fresh key', `receiptReused(${lit(result)})`, 'unauthorized write'));
  }
  return { setup: `${withValue(`const gates = ${ctx.use('toolGates')}(era, `, subject, 4)});`, tests };
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
    check('refuses a call without idempotencyKey before the handler', 'missingKey()', 'retry without a duplicate effect'),
    check('replays the first result for the same key and input without running the handler again', `${withValue('replay(', result, 0, 6 + 'await gates.'.length)})`, 'retry without a duplicate effect'),
  ];
  const variant = variantOf(ctx.samples, c.input, valid, t.examples.map((e) => e.input));
  if (variant !== undefined) cases.push(check('refuses the same key with a different input', `keyConflict(${lit(variant)}, ${lit(result)})`, 'retry without a duplicate effect'));
  cases.push(
    check('answers "in progress" to a retry while the first call with the key runs; the handler runs once', `inProgress(${lit(result)})`, 'retry without a duplicate effect'),
    check('never runs twice for the same key with an input that differs by an own "__proto__" key', `prototypeKey(${lit(result)})`, 'retry without a duplicate effect'),
  );
  return cases;
}

/** Attack cases for one resource; `uri` is code for a URI that passes the variable checks. */
export function resourceAttacks(ctx: SuiteContext, r: IrResource, uri: string | undefined): Attacks {
  if (uri === undefined) return { setup: '', tests: [] };
  const spied = resourceHasHandler(r);
  const tests: TestView[] = [];
  if (r.scopes.length > 0) tests.push(check(`refuses a reader without scope ${r.scopes.join(' ')}; the handler never runs and it is not listed`, `withoutScope(${lit(otherScopes(ctx, r.scopes))})`, 'unauthorized read'));
  tests.push(check('lets the authorize hook refuse another tenant before the handler', 'otherTenant()', 'cross-tenant canary'));
  if (r.schema !== undefined && spied) tests.push(check('refuses content that violates its schema', 'badContent()', 'capability vs behaviour'));
  if (r.subscribe && r.scopes.length > 0) tests.push(check(`refuses a subscription without scope ${r.scopes.join(' ')}`, `subscribeWithoutScope(${lit(otherScopes(ctx, r.scopes))})`, 'unauthorized read'));
  if (r.subscribe) tests.push(check("lets the authorize hook refuse another tenant's subscription", 'subscribeOtherTenant()', 'cross-tenant canary'));
  const subject = `{ ${spied ? `id: ${lit(r.id)}, ` : ''}name: ${lit(r.name)}, uri: ${uri}, template: ${r.uriTemplate !== undefined} }`;
  return { setup: `const gates = ${ctx.use('resourceGates')}(era, ${subject});`, tests };
}

/** Attack cases for one prompt, given valid arguments. */
export function promptAttacks(ctx: SuiteContext, p: IrPrompt, args: Record<string, string>): Attacks {
  const spied = promptHasHandler(p) && p.messages === undefined;
  const tests: TestView[] = [];
  if (p.scopes.length > 0) tests.push(check(`refuses a caller without scope ${p.scopes.join(' ')} before validation; not listed`, `withoutScope(${lit(otherScopes(ctx, p.scopes))})`, 'unauthorized read'));
  tests.push(check('lets the authorize hook refuse another tenant before the handler', 'otherTenant()', 'cross-tenant canary'));
  // A prompt listed without `arguments` is registered without an argument schema: the SDK hands it no arguments at all.
  if (p.listsArguments) tests.push(check('refuses oversized arguments before the handler', `oversized(${lit(p.arguments[0]?.name ?? 'mcpgen')})`));
  const subject = { ...(spied ? { id: p.id } : {}), name: p.name, args };
  return { setup: `${withValue(`const gates = ${ctx.use('promptGates')}(era, `, subject, 4)});`, tests };
}
