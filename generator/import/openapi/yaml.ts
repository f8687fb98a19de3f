/**
 * Prints the draft as manifest YAML: a header that says where it came from,
 * the schema line for editors, and above each primitive the comment lines
 * that give its classification and the reason for it.
 */
import { isMap, isScalar, type Pair } from 'yaml';
import { commentText, commentedDocument, oneLine, printDraft } from '../draft-yaml.js';
import type { Draft } from './build.js';

/** The manifest text of a draft; `source` is the document's file name, `schemaRef` where editors find the manifest schema. */
export function draftYaml(draft: Draft, source: string, schemaRef: string): string {
  const doc = commentedDocument(draft.manifest, ['tools', 'resources'], draft.comments);
  const root = doc.contents;
  if (isMap(root) && draft.leftOut.length) {
    const last = root.items[root.items.length - 1] as Pair;
    if (isScalar(last.key)) last.key.commentBefore = commentText(['Operations not imported (see docs/import-openapi.md to bring one in):', ...draft.leftOut.map((l) => `- ${l}`), '', 'The HTTP API the handlers call: base URL and credentials from configureUpstream() or these variables.']);
  }
  return printDraft([
    `# yaml-language-server: $schema=${schemaRef}`,
    `# Imported by \`mcp-gen import openapi\` from ${oneLine(source)}. This file is yours now: review`,
    '# each decision (the comment above every primitive gives its reason), then run `mcp-gen lint` and `mcp-gen generate`.',
  ], doc);
}
