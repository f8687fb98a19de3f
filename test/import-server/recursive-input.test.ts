/**
 * Real-world schemas run, not just compile: the spec-exact golden server (local `$defs`, recursion
 * inline, in a file and in a file fragment) validates a recursive input at every depth, and a valid
 * deep input reaches the handler (a stub, which answers that it is not implemented).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, eras } from '../golden/spec-exact/contract/harness.gen.js';

type Connection = Awaited<ReturnType<typeof connect>>;

const deep = (leaf: Record<string, unknown>) => ({ root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [leaf] }] }] } });
const blocks = (leaf: Record<string, unknown>) => ({ pageId: 'p1', blocks: [{ type: 'toggle', children: [{ type: 'toggle', children: [leaf] }] }] });

describe.each(eras)('recursive inputs ($name)', (era) => {
  let h: Connection | undefined;
  afterEach(async () => h?.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    h = await connect(era);
    const r = await h.client.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: JSON.stringify(r.content) };
  };

  it('refuses a node three levels down that breaks the file schema (recursion through #/$defs/Node)', async () => {
    const r = await call('trees.save', deep({ name: 'd', colour: 'red' }));
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Input validation error|additional propert/i);
  });

  it('refuses a block two levels down that breaks the inline $defs (recursion through #/$defs/block)', async () => {
    const r = await call('pages.append_blocks', blocks({ type: 'heading' }));
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Input validation error|allowed values/i);
  });

  it('lets a valid deep input through to the handler', async () => {
    const r = await call('trees.save', deep({ name: 'd' }));
    expect(r.text).not.toMatch(/Input validation error/);
    expect(r.text).toMatch(/not implemented/i);
  });
});
