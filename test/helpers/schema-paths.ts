/** The property paths of a manifest JSON Schema, as docs/manifest.md names them. */

/** A node of the manifest schema, as far as its property paths go. */
export type SchemaNode = { $ref?: string; properties?: Record<string, SchemaNode>; additionalProperties?: SchemaNode | boolean; items?: SchemaNode };

/** The manifest schema's root: a node with its `$defs`. */
export type ManifestSchema = SchemaNode & { $defs: Record<string, SchemaNode> };

/** Every property path of `schema`, with map keys as `<name>`, list items as `[]` and rule codes as `<CODE>`. */
export function schemaPaths(schema: ManifestSchema): string[] {
  const out = new Set<string>();
  const walk = (node: SchemaNode, prefix: string[], depth: number): void => {
    if (depth > 8) return;
    const n = node.$ref ? schema.$defs[node.$ref.split('/').pop()!]! : node;
    for (const [k, v] of Object.entries(n.properties ?? {})) {
      const p = [...prefix, /^MG\d{3}$/.test(k) ? '<CODE>' : k];
      out.add(p.join('.'));
      walk(v, p, depth + 1);
    }
    if (typeof n.additionalProperties === 'object' && (n.additionalProperties.properties || n.additionalProperties.$ref)) walk(n.additionalProperties, [...prefix, '<name>'], depth + 1);
    if (n.items) walk(n.items, [...prefix, '[]'], depth + 1);
  };
  walk(schema, [], 0);
  return [...out];
}

/** Whether docs/manifest.md (its text) documents `path`: the path in backticks, or a top-level section's table row. */
export function documents(doc: string, path: string): boolean {
  const top = path.split('.')[0]!;
  return doc.includes(`\`${path}\``) || (path === top && doc.includes(`| \`${top}\``));
}
