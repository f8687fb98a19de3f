/** docs/manifest.md documents every field of the manifest's JSON Schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Node = { $ref?: string; properties?: Record<string, Node>; additionalProperties?: Node | boolean; items?: Node };

const schema = JSON.parse(readFileSync(new URL('../schema/manifest.schema.json', import.meta.url), 'utf8')) as Node & { $defs: Record<string, Node> };
const doc = readFileSync(new URL('../docs/manifest.md', import.meta.url), 'utf8');

/** Every property path of the schema, with map keys as `<name>` and rule codes as `<CODE>`. */
function paths(node: Node, prefix: string[], out: Set<string>, depth = 0): Set<string> {
  if (depth > 8) return out;
  const n = node.$ref ? schema.$defs[node.$ref.split('/').pop()!]! : node;
  for (const [k, v] of Object.entries(n.properties ?? {})) {
    const key = /^MG\d{3}$/.test(k) ? '<CODE>' : k;
    const p = [...prefix, key];
    out.add(p.join('.'));
    paths(v, p, out, depth + 1);
  }
  if (typeof n.additionalProperties === 'object' && (n.additionalProperties.properties || n.additionalProperties.$ref)) paths(n.additionalProperties, [...prefix, '<name>'], out, depth + 1);
  if (n.items) paths(n.items, [...prefix, '[]'], out, depth + 1);
  return out;
}

describe('docs/manifest.md', () => {
  const all = [...paths(schema, [], new Set())];
  it('finds the fields of the schema', () => {
    expect(all).toContain('tools.<name>.sideEffect');
    expect(all.length).toBeGreaterThan(60);
  });
  it.each(all.filter((p) => !p.includes('.lint.disable.<CODE>')))('documents `%s`', (path) => {
    const top = path.split('.')[0]!;
    expect(doc.includes(`\`${path}\``) || (path === top && doc.includes(`| \`${top}\``))).toBe(true);
  });
});
