/**
 * What both importers share when they print a draft as manifest YAML: one-line comment text and the
 * comment above each primitive that gives the reason for its classification.
 */
import { Document, isMap, isScalar, type Pair } from 'yaml';

/** Text made one line: a line break inside a comment would end the comment and start YAML. */
export const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

/** Comment lines as the `yaml` library takes them (each after `#`, one space). */
export function commentText(lines: readonly string[]): string {
  return lines.map((l) => ` ${oneLine(l)}`).join('\n');
}

/**
 * The draft manifest as a YAML document, with `comments` (keyed `section.name`) written above each
 * primitive of the given sections.
 */
export function commentedDocument(manifest: unknown, sections: readonly string[], comments: ReadonlyMap<string, readonly string[]>): Document {
  const doc = new Document(manifest, { aliasDuplicateObjects: false });
  const root = doc.contents;
  if (!isMap(root)) return doc;
  for (const section of sections) {
    const node = root.get(section, true);
    if (!isMap(node)) continue;
    for (const pair of node.items as Pair[]) {
      const lines = isScalar(pair.key) ? comments.get(`${section}.${String(pair.key.value)}`) : undefined;
      if (lines && isScalar(pair.key)) pair.key.commentBefore = commentText(lines);
    }
  }
  return doc;
}

/** The printed manifest: the header lines, then the document (no line folding, two-space indent). */
export function printDraft(header: readonly string[], doc: Document): string {
  return `${header.join('\n')}\n${doc.toString({ lineWidth: 0, indent: 2 })}`;
}
