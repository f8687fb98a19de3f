/**
 * Regressions found by the regeneration property test (test/regen/property.ts),
 * each reduced to the handler file and spec that showed it.
 */
import { describe, expect, it } from 'vitest';
import type { HandlerSpec } from '../../generator/emit/handlers.js';
import { looksComplete, reconcileHandler } from '../../generator/write/handlers.js';

const stubBody = "{\n  throw notImplemented('resource', 'inv');\n}";
const spec = (members: string[], completeKeys: string[]): HandlerSpec => ({
  kind: 'resource',
  name: 'inv',
  path: 'handlers/resources/inv.ts',
  id: 'inv',
  typeName: 'InvResource',
  stub: '',
  exportStub: '',
  members: members.map((name) =>
    name === 'complete'
      ? { name, text: `complete: {\n${completeKeys.map((k) => `  ${k}: async (value, context, ctx) => [],`).join('\n')}\n}` }
      : { name, text: `async ${name}(${name === 'read' ? 'params, ' : ''}ctx) ${stubBody}` },
  ),
  completeKeys,
});

// The author implemented read and removed the then unused notImplemented import.
const authored = `import type { InvResource } from '../../types.gen.js';

// TODO: list(ctx) should page through results
export const inv: InvResource = {
  async read(params, ctx) {
    return { id: params.id, owner: params.owner };
  },
};
`;

describe('handler edits found by the property test', () => {
  it('adds a first complete member (ts-morph nodes are navigated afresh after each insertion)', async () => {
    const r = await reconcileHandler(authored, spec(['read', 'complete'], ['id']));
    expect(r.kind).toBe('edited');
    expect(r.kind === 'edited' && r.content).toContain('  complete: {\n    id: async (value, context, ctx) => [],\n  },\n};');
  });

  it('adds two members at once and imports notImplemented for their stub bodies', async () => {
    const r = await reconcileHandler(authored, spec(['read', 'list', 'complete'], ['id', 'owner']));
    if (r.kind !== 'edited') throw new Error(r.kind);
    expect(r.changes).toEqual(['added list to inv', 'added complete to inv']);
    expect(r.content).toContain("import { notImplemented } from 'mcp-gen/runtime';");
    expect(r.content).toContain('    return { id: params.id, owner: params.owner };\n  },\n  async list(ctx) {');
  });

  it('does not take a comment or a property in a body for a member or a completer', () => {
    expect(looksComplete(authored, spec(['read', 'list'], []))).toBe(false);
    const withComplete = authored.replace('  },\n};', '  },\n  complete: {\n    id: async () => [],\n  },\n};');
    expect(looksComplete(withComplete, spec(['read', 'complete'], ['id']))).toBe(true);
    expect(looksComplete(withComplete, spec(['read', 'complete'], ['id', 'owner']))).toBe(false);
  });
});
