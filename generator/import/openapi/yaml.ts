/**
 * Prints the draft as manifest YAML: a header that says where it came from,
 * the schema line for editors, and above each primitive the comment lines
 * that give its classification and the reason for it.
 */
import { Document, isMap, isScalar, type Pair } from 'yaml';
import type { Draft } from './build.js';

function commentText(lines: readonly string[]): string {
  return lines.map((l) => ` ${l.replace(/[\r\n]+/g, ' ')}`).join('\n');
}

/** The manifest text of a draft; `source` is the document's file name, `schemaRef` where editors find the manifest schema. */
export function draftYaml(draft: Draft, source: string, schemaRef: string): string {
  const doc = new Document(draft.manifest, { aliasDuplicateObjects: false });
  const root = doc.contents;
  if (isMap(root)) {
    for (const section of ['tools', 'resources'] as const) {
      const node = root.get(section, true);
      if (!isMap(node)) continue;
      for (const pair of node.items as Pair[]) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const lines = draft.comments.get(`${section}.${key}`);
        if (lines && isScalar(pair.key)) pair.key.commentBefore = commentText(lines);
      }
    }
    if (draft.leftOut.length) {
      const last = root.items[root.items.length - 1] as Pair;
      if (isScalar(last.key)) last.key.commentBefore = commentText(['Operations not imported (see docs/import-openapi.md to bring one in):', ...draft.leftOut.map((l) => `- ${l}`), '', 'The HTTP API the handlers call: base URL and credentials from configureUpstream() or these variables.']);
    }
  }
  const header = [
    `# yaml-language-server: $schema=${schemaRef}`,
    `# Imported by \`mcp-gen import openapi\` from ${source.replace(/[\r\n]+/g, ' ')}. This file is yours now: review`,
    '# each decision (the comment above every primitive gives its reason), then run `mcp-gen lint` and `mcp-gen generate`.',
  ].join('\n');
  return `${header}\n${doc.toString({ lineWidth: 0, indent: 2 })}`;
}
