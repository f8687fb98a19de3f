/**
 * The attack cases of the contract suites: for each primitive, calls that try
 * to get around the gates (missing scope, another tenant, oversized input,
 * missing or conflicting idempotency keys, missing or declined approval, a
 * handler returning garbage). Each case runs on its own connection with
 * spied handlers and asserts the handler never ran where it must not.
 */
import type { IrPrompt, IrResource, IrTool, JsonSchema } from '../ir/types.js';
import type { EmitContext } from './context.js';
import { resourceHasHandler, promptHasHandler } from './context.js';
import { lit } from './text.js';

type Obj = Record<string, unknown>;

/** One `it(...)` block with its body indented, like the rest of the suite. */
export const it = (title: string, body: string, args = ''): string =>
  `    it(${lit(title)}, async (${args}) => {\n${body
    .split('\n')
    .map((l) => (l ? `      ${l}` : l))
    .join('\n')}\n    });`;

/** A case on its own connection: `c` is the client, `spy` the spied handler. */
function onConnection(setup: string, body: string): string {
  return `${setup}\ntry {\n${body
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n')}\n} finally {\n  await c.close();\n}`;
}

function otherScopes(ctx: EmitContext, own: readonly string[]): string[] {
  return ctx.ir.server.scopes.map((s) => s.name).filter((s) => !own.includes(s));
}

/** The control arguments a tool's gates need, as harness code. */
export function gateArgs(t: IrTool, input: string): string {
  const gates: string[] = [];
  if (t.idempotency === 'required') gates.push('key: true');
  if (t.approval === 'required') gates.push('receipt: true');
  return gates.length === 0 ? input : `argsFor(${input}, { ${gates.join(', ')} })`;
}

/** Another valid input, for the idempotency conflict; undefined when none can be derived. */
function variantOf(ctx: EmitContext, schema: JsonSchema, valid: Obj, examples: readonly unknown[]): Obj | undefined {
  const same = JSON.stringify(valid);
  for (const ex of examples) if (typeof ex === 'object' && ex !== null && JSON.stringify(ex) !== same) return ex as Obj;
  const props = (typeof schema === 'object' ? ((schema as Obj)['properties'] ?? {}) : {}) as Record<string, JsonSchema>;
  for (const [name, prop] of Object.entries(props)) {
    const p = typeof prop === 'object' ? (prop as Obj) : {};
    const current = valid[name];
    const candidates: unknown[] = [];
    if (Array.isArray(p['enum'])) candidates.push(...p['enum'].filter((v) => v !== current));
    if (typeof current === 'number') candidates.push(current + 1, current - 1);
    if (typeof current === 'boolean') candidates.push(!current);
    if (typeof current === 'string') candidates.push(`${current}0`, current.slice(0, -1) + (current.endsWith('1') ? '2' : '1'));
    if (current === undefined) {
      const sample = ctx.samples.sample(prop);
      if (sample !== undefined) candidates.push(sample);
    }
    for (const candidate of candidates) {
      const variant = { ...valid, [name]: candidate };
      if (ctx.samples.valid(schema, variant)) return variant;
    }
  }
  return undefined;
}

/** Attack cases for one tool, given a valid input. */
export function toolAttacks(ctx: EmitContext, t: IrTool, published: JsonSchema, valid: Obj): string[] {
  const name = lit(t.name);
  const input = lit(valid);
  const call = (args: string) => `await c.client.callTool({ name: ${name}, arguments: ${args} })`;
  const spied = (options: string, replace = '', elicit = '') => `const { c, spy } = await connectSpied(era, 'tools', ${lit(t.id)}, ${options}${replace ? `, ${replace}` : elicit ? ', undefined' : ''}${elicit ? `, ${lit(elicit)}` : ''});`;
  const out: string[] = [];
  if (t.scopes.length > 0) {
    out.push(
      it(
        `refuses a caller without scope ${t.scopes.join(' ')} before validation; the handler never runs and the tool is not listed`,
        onConnection(
          spied(`{ scopes: ${lit(otherScopes(ctx, t.scopes))} }`),
          `const r = ${call(gateArgs(t, input))};\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Forbidden/);\nconst malformed = ${call("{ mcpgen_unexpected: 'x' }")};\nexpect(textOf(malformed)).toMatch(/^Forbidden/);\nconst { tools } = await c.client.listTools();\nexpect(tools.map((t) => t.name)).not.toContain(${name});\nexpect(spy.calls).toHaveLength(0);`,
        ),
      ),
    );
  }
  out.push(
    it(
      'lets the authorize hook refuse another tenant; the hook sees the context identity and the stripped input',
      onConnection(
        `const seen: AuthorizeRequest[] = [];\n${spied("{ tenant: 'mcpgen-tenant-b', principal: 'mcpgen-mallory', authorize: (req) => (seen.push(req), req.tenant === 'mcpgen-tenant-a' || 'Forbidden: this object belongs to another tenant.') }")}`,
        `const r = ${call(gateArgs(t, input))};\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toContain('another tenant');\nexpect(spy.calls).toHaveLength(0);\nexpect(seen[0]).toMatchObject({ kind: 'tool', name: ${name}, principal: 'mcpgen-mallory', tenant: 'mcpgen-tenant-b', input: ${input} });`,
      ),
    ),
  );
  out.push(
    it(
      'refuses oversized input before the handler',
      onConnection(spied('{ limits: { maxInputBytes: 2048 } }'), `const r = ${call(gateArgs(t, `{ ...${input}, mcpgen_padding: 'x'.repeat(4096) }`))};\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Input too large/);\nexpect(spy.calls).toHaveLength(0);`),
    ),
  );
  if (t.output !== undefined) {
    out.push(
      it(
        'turns a handler output that violates the output schema into isError',
        onConnection(spied('{}', '() => ({ mcpgen_garbage: true })'), `const r = ${call(gateArgs(t, input))};\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/Output validation error/);\nexpect(spy.calls).toHaveLength(1);`),
      ),
    );
  }
  if (t.idempotency === 'required') out.push(...idempotencyAttacks(ctx, t, published, valid));
  if (t.approval === 'required') out.push(...approvalAttacks(t, valid));
  return out;
}

function idempotencyAttacks(ctx: EmitContext, t: IrTool, published: JsonSchema, valid: Obj): string[] {
  const name = lit(t.name);
  const input = lit(valid);
  const receipt = t.approval === 'required';
  const out = (r: string) => (receipt ? `{ ...${r}, approvalReceipt: receiptFor(${r}) }` : r);
  let fake = "() => 'mcpgen ok'";
  if (t.output !== undefined) {
    const sample = ctx.samples.sample(ctx.graph.publish(t.output));
    if (sample === undefined) return [];
    fake = `() => (${lit(sample)})`;
  }
  const cases = [
    it(
      'refuses a call without idempotencyKey before the handler',
      onConnection(`const { c, spy } = await connectSpied(era, 'tools', ${lit(t.id)}, {});`, `const r = await c.client.callTool({ name: ${name}, arguments: ${out(input)} });\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Missing idempotencyKey/);\nexpect(spy.calls).toHaveLength(0);`),
    ),
    it(
      'replays the first result for the same key and input without running the handler again',
      onConnection(
        `const { c, spy } = await connectSpied(era, 'tools', ${lit(t.id)}, {}, ${fake});`,
        `const idempotencyKey = freshKey();\nconst first = await c.client.callTool({ name: ${name}, arguments: { ...${out(input)}, idempotencyKey } });\nexpect(first.isError, textOf(first)).toBeFalsy();\nconst second = await c.client.callTool({ name: ${name}, arguments: { ...${out(input)}, idempotencyKey } });\nexpect(second.content).toEqual(first.content);\nexpect(spy.calls).toHaveLength(1);`,
      ),
    ),
  ];
  const variant = variantOf(ctx, ctx.graph.publish(t.input), valid, t.examples.map((e) => e.input));
  void published;
  if (variant !== undefined) {
    cases.push(
      it(
        'refuses the same key with a different input',
        onConnection(
          `const { c, spy } = await connectSpied(era, 'tools', ${lit(t.id)}, {}, ${fake});`,
          `const idempotencyKey = freshKey();\nconst first = await c.client.callTool({ name: ${name}, arguments: { ...${out(input)}, idempotencyKey } });\nexpect(first.isError, textOf(first)).toBeFalsy();\nconst other = await c.client.callTool({ name: ${name}, arguments: { ...${out(lit(variant))}, idempotencyKey } });\nexpect(other.isError).toBe(true);\nexpect(textOf(other)).toMatch(/^Idempotency conflict/);\nexpect(spy.calls).toHaveLength(1);`,
        ),
      ),
    );
  }
  return cases;
}

function approvalAttacks(t: IrTool, valid: Obj): string[] {
  const name = lit(t.name);
  const input = lit(valid);
  const key = t.idempotency === 'required' ? ', idempotencyKey: freshKey()' : '';
  const connectWith = (elicit: string, replace = 'undefined') => `const { c, spy } = await connectSpied(era, 'tools', ${lit(t.id)}, {}, ${replace}, ${lit(elicit)});`;
  return [
    it(
      'refuses a call without approval (client cannot confirm) and says what is missing',
      onConnection(connectWith('none'), `const r = await c.client.callTool({ name: ${name}, arguments: { ...${input}${key} } });\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Approval required/);\nexpect(textOf(r)).toContain('approvalReceipt');\nexpect(spy.calls).toHaveLength(0);`),
    ),
    it(
      'refuses a receipt for a different input',
      onConnection(connectWith('none'), `const r = await c.client.callTool({ name: ${name}, arguments: { ...${input}${key}, approvalReceipt: receiptFor({ mcpgen: 'other input' }) } });\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Approval refused/);\nexpect(spy.calls).toHaveLength(0);`),
    ),
    it(
      'asks the user through the client and never runs when the user declines',
      onConnection(connectWith('decline'), `const r = await c.client.callTool({ name: ${name}, arguments: { ...${input}${key} } });\nexpect(r.isError).toBe(true);\nexpect(textOf(r)).toMatch(/^Approval refused/);\nexpect(spy.calls).toHaveLength(0);`),
    ),
    it(
      'runs once the user confirms through the client',
      onConnection(connectWith('accept', "() => 'mcpgen approved'"), `const r = await c.client.callTool({ name: ${name}, arguments: { ...${input}${key} } });\nexpect(textOf(r)).not.toMatch(/^Approval/);\nexpect(spy.calls).toHaveLength(1);`),
    ),
  ];
}

/** Attack cases for one resource; `uri` is code for a URI that passes the variable checks. */
export function resourceAttacks(ctx: EmitContext, r: IrResource, uri: string | undefined): string[] {
  if (uri === undefined) return [];
  const spied = resourceHasHandler(r);
  const setup = (options: string, replace = '') =>
    spied ? `const { c, spy } = await connectSpied(era, 'resources', ${lit(r.id)}, ${options}${replace ? `, ${replace}` : ''});` : `const c = await connect(era, undefined, ${options});\nconst spy = { calls: [] };`;
  const out: string[] = [];
  if (r.scopes.length > 0) {
    const listed = r.uriTemplate !== undefined ? `const { resourceTemplates } = await c.client.listResourceTemplates();\nexpect(resourceTemplates.map((t) => t.name)).not.toContain(${lit(r.name)});` : `const { resources } = await c.client.listResources();\nexpect(resources.map((x) => x.uri)).not.toContain(${lit(r.uri)});`;
    out.push(
      it(
        `refuses a reader without scope ${r.scopes.join(' ')}; the handler never runs and it is not listed`,
        onConnection(setup(`{ scopes: ${lit(otherScopes(ctx, r.scopes))} }`), `await expectProtocolError(c.client.readResource({ uri: ${uri} }), [-32602], 'Forbidden');\n${listed}\nexpect(spy.calls).toHaveLength(0);`),
      ),
    );
  }
  out.push(
    it(
      'lets the authorize hook refuse another tenant before the handler',
      onConnection(setup("{ tenant: 'mcpgen-tenant-b', authorize: (req) => req.tenant === 'mcpgen-tenant-a' || 'Forbidden: another tenant' }"), `await expectProtocolError(c.client.readResource({ uri: ${uri} }), [-32602], 'another tenant');\nexpect(spy.calls).toHaveLength(0);`),
    ),
  );
  if (r.schema !== undefined && spied) {
    out.push(
      it(
        'refuses content that violates its schema',
        onConnection(setup('{}', '() => ({ mcpgen_garbage: true })').replace('const { c, spy } =', 'const { c } =').replace('\nconst spy = { calls: [] };', ''), `await expectProtocolError(c.client.readResource({ uri: ${uri} }), [-32603], 'does not match its schema');`),
      ),
    );
  }
  return out;
}

/** Attack cases for one prompt, given valid arguments. */
export function promptAttacks(ctx: EmitContext, p: IrPrompt, args: Record<string, string>): string[] {
  const spied = promptHasHandler(p) && p.messages === undefined;
  const setup = (options: string) => (spied ? `const { c, spy } = await connectSpied(era, 'prompts', ${lit(p.id)}, ${options});` : `const c = await connect(era, undefined, ${options});\nconst spy = { calls: [] };`);
  const get = (a: string) => `c.client.getPrompt({ name: ${lit(p.name)}, arguments: ${a} })`;
  const out: string[] = [];
  if (p.scopes.length > 0) {
    out.push(
      it(
        `refuses a caller without scope ${p.scopes.join(' ')} before validation; not listed`,
        onConnection(setup(`{ scopes: ${lit(otherScopes(ctx, p.scopes))} }`), `await expectProtocolError(${get(lit(args))}, [-32602], 'Forbidden');\nawait expectProtocolError(${get('{}')}, [-32602], 'Forbidden');\nconst { prompts } = await c.client.listPrompts();\nexpect(prompts.map((x) => x.name)).not.toContain(${lit(p.name)});\nexpect(spy.calls).toHaveLength(0);`),
      ),
    );
  }
  out.push(
    it(
      'lets the authorize hook refuse another tenant before the handler',
      onConnection(setup("{ tenant: 'mcpgen-tenant-b', authorize: (req) => req.tenant === 'mcpgen-tenant-a' || 'Forbidden: another tenant' }"), `await expectProtocolError(${get(lit(args))}, [-32602], 'another tenant');\nexpect(spy.calls).toHaveLength(0);`),
    ),
    it(
      'refuses oversized arguments before the handler',
      onConnection(setup('{ limits: { maxInputBytes: 2048 } }'), `await expectProtocolError(${get(`{ ...${lit(args)}, ${lit(p.arguments[0]?.name ?? 'mcpgen')}: 'x'.repeat(4096) }`)}, [-32602], 'too large');\nexpect(spy.calls).toHaveLength(0);`),
    ),
  );
  return out;
}
