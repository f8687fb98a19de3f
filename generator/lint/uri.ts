/**
 * Splits a resource URI or URI template into the parts the URI rules look
 * at: scheme, authority, path segments, query, and where each starts.
 */
import type { IrResource } from '../ir/types.js';

/** One literal or templated piece of a URI with its character index. */
export interface UriPart {
  readonly text: string;
  readonly index: number;
}

/** The parts of one resource address. */
export interface UriShape {
  /** The URI or template as written. */
  readonly text: string;
  /** `uri` or `uriTemplate`: the manifest key it came from. */
  readonly key: 'uri' | 'uriTemplate';
  readonly authority?: UriPart;
  /** Non-empty path segments after the authority. */
  readonly segments: readonly UriPart[];
  /** Where a query starts: a literal `?`, or a `{?…}` / `{&…}` expression. */
  readonly queryIndex?: number;
  /** Query parameter or variable names, with their index. */
  readonly queryNames: readonly UriPart[];
}

/** The address of a resource, split, or undefined when it has none. */
export function uriShape(r: IrResource): UriShape | undefined {
  const text = r.uriTemplate ?? r.uri;
  if (text === undefined) return undefined;
  const key = r.uriTemplate !== undefined ? 'uriTemplate' : 'uri';
  const colon = text.indexOf(':');
  let rest = colon + 1;
  let authority: UriPart | undefined;
  if (text.startsWith('//', rest)) {
    const start = rest + 2;
    const end = findEnd(text, start, '/?#');
    authority = { text: text.slice(start, end), index: start };
    rest = end;
  }
  const queryIndex = findQuery(text, rest);
  const pathEnd = queryIndex ?? findEnd(text, rest, '#');
  const segments = splitSegments(text, rest, pathEnd);
  const queryNames = queryIndex === undefined ? [] : queryParts(text, queryIndex);
  return { text, key, ...(authority ? { authority } : {}), segments, ...(queryIndex !== undefined ? { queryIndex } : {}), queryNames };
}

/** Index of the first char of `stops` outside `{…}` expressions (or of a `{?`/`{&` query expression), from `from`. */
function findEnd(text: string, from: number, stops: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (depth === 0 && ch === '{' && stops.includes('?') && /[?&]/.test(text[i + 1] ?? '')) return i;
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (depth === 0 && stops.includes(ch)) return i;
  }
  return text.length;
}

function findQuery(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '?') return i;
    if (text[i] === '{' && (text[i + 1] === '?' || text[i + 1] === '&')) return i;
    if (text[i] === '#') return undefined;
  }
  return undefined;
}

function splitSegments(text: string, from: number, to: number): UriPart[] {
  const out: UriPart[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i === to || text[i] === '/') {
      if (i > start) out.push({ text: text.slice(start, i), index: start });
      start = i + 1;
    }
  }
  return out;
}

function queryParts(text: string, at: number): UriPart[] {
  const out: UriPart[] = [];
  for (const m of text.slice(at).matchAll(/\{[?&]([^}]*)\}|[?&]([^=&#{}]+)/g)) {
    const names = (m[1] ?? m[2] ?? '').split(',');
    let offset = at + m.index + (m[1] !== undefined ? 2 : 1);
    for (const n of names) {
      const name = n.replace(/[*]|:\d+$/g, '');
      if (name) out.push({ text: name, index: offset });
      offset += n.length + 1;
    }
  }
  return out;
}

/** Template variables named in a segment (`{owner}`, `{+path}`) or the segment itself when literal. */
export function segmentNames(part: UriPart): { name: string; literal: boolean; index: number }[] {
  const vars = [...part.text.matchAll(/\{[+#./;]?([^}]*)\}/g)];
  if (vars.length === 0) return [{ name: part.text, literal: true, index: part.index }];
  return vars.map((m) => ({ name: m[1]!.replace(/[*]|:\d+$/g, ''), literal: false, index: part.index + m.index + 1 }));
}
