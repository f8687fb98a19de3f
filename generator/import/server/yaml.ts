/**
 * Prints a server draft as manifest YAML: the schema line for editors, where it came from, what could
 * not be expressed, and above each primitive the reason for its side effect.
 */
import { commentedDocument, oneLine, printDraft } from '../draft-yaml.js';
import type { ServerDraft } from './build.js';

/** The manifest text of a draft; `source` describes the server it was read from, `schemaRef` where editors find the manifest schema. */
export function serverDraftYaml(draft: ServerDraft, source: string, schemaRef: string): string {
  const doc = commentedDocument(draft.manifest, ['tools', 'resources', 'prompts'], draft.comments);
  return printDraft([
    `# yaml-language-server: $schema=${schemaRef}`,
    `# Imported by \`mcp-gen import server\` from ${oneLine(source)}: the published contract, kept exactly.`,
    '# Check it against the original with `mcp-gen verify`, then `mcp-gen generate` and fill in the handlers.',
    ...(draft.inexpressible.length
      ? ['#', '# Not expressible (the generated server will not publish these):', ...draft.inexpressible.map((i) => `# - ${oneLine(i.at)}: ${oneLine(i.reason)}`)]
      : []),
  ], doc);
}
