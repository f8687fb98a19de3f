/** `type/subtype` with RFC 6838 characters, optional parameters after `;`. */
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

const TEXTUAL = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/javascript',
  'application/ecmascript',
  'application/graphql',
  'application/toml',
  'application/sql',
  'application/x-sh',
]);

/** True when the string is shaped `type/subtype`. */
export function isMimeType(m: string): boolean {
  return MIME.test(m);
}

function essence(m: string): string {
  return m.split(';')[0]!.trim().toLowerCase();
}

/** True when content of this MIME type is served as MCP `text` (otherwise as a base64 `blob`). */
export function isTextualMime(m: string): boolean {
  const e = essence(m);
  return e.startsWith('text/') || TEXTUAL.has(e) || e.endsWith('+json') || e.endsWith('+xml');
}

/** True for `application/json` and `*+json`: the types a content `schema:` can describe. */
export function isJsonMime(m: string): boolean {
  const e = essence(m);
  return e === 'application/json' || e.endsWith('+json');
}
