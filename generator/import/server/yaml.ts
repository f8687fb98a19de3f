/**
 * Prints a server draft as manifest YAML: the schema line for editors, where it came from, what could
 * not be expressed, and above each primitive the reason for its side effect.
 */
import { Document, isMap, isScalar, type Pair } from 'yaml';
import type { ServerDraft } from './build.js';

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

function commentText(lines: readonly string[]): string {
  return lines.map((l) => ` ${oneLine(l)}`).join('\n');
}

/** The manifest text of a draft; `source` describes the server it was read from, `schemaRef` where editors find the manifest schema. */
export function serverDraftYaml(draft: ServerDraft, source: string, schemaRef: string): string {
  const doc = new Document(draft.manifest, { aliasDuplicateObjects: false });
  const root = doc.contents;
  if (isMap(root)) {
    for (const section of ['tools', 'resources', 'prompts'] as const) {
      const node = root.get(section, true);
      if (!isMap(node)) continue;
      for (const pair of node.items as Pair[]) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const lines = draft.comments.get(`${section}.${key}`);
        if (lines && isScalar(pair.key)) pair.key.commentBefore = commentText(lines);
      }
    }
  }
  const header = [
    `# yaml-language-server: $schema=${schemaRef}`,
    `# Imported by \`mcp-gen import server\` from ${oneLine(source)}: the published contract, kept exactly.`,
    '# Check it against the original with `mcp-gen verify`, then `mcp-gen generate` and fill in the handlers.',
    ...(draft.inexpressible.length
      ? ['#', '# Not expressible (the generated server will not publish these):', ...draft.inexpressible.map((i) => `# - ${oneLine(i.at)}: ${oneLine(i.reason)}`)]
      : []),
  ].join('\n');
  return `${header}\n${doc.toString({ lineWidth: 0, indent: 2 })}`;
}
