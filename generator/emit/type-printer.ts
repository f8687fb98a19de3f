/**
 * Lays out the declarations json-schema-to-typescript writes when run without its formatter (one
 * member per line, no semicolons, no indentation). The text is read into a small syntax tree of the
 * type grammar that library emits — interfaces, aliases, members, index signatures, unions,
 * intersections, arrays, tuples, object literals, literals and references — and printed again with
 * the house layout: two-space indentation by nesting, members and aliases ending in `;`, no
 * parentheses around a whole member or alias type, `{}` for an empty body, JSDoc blocks indented with
 * their member. The placeholder name the library was given becomes the declaration's real name.
 * Every comment is kept where it stood: before a member or declaration, before a closing brace (a
 * note in an empty body, or after the last member), or inside a type.
 *
 * Printing from a tree rather than editing lines keeps strings, comments and nesting exact; loading
 * TypeScript's own parser for this would cost more than the rest of a large generation.
 */

type Token =
  | { readonly kind: 'comment'; readonly text: string; readonly nl: boolean }
  | { readonly kind: 'string' | 'word' | 'punct'; readonly text: string; readonly nl: boolean };

type TypeNode =
  | { readonly t: 'word'; readonly text: string; readonly args: readonly TypeNode[] }
  | { readonly t: 'paren'; readonly inner: TypeNode }
  | { readonly t: 'union' | 'intersection'; readonly members: readonly TypeNode[] }
  | { readonly t: 'array'; readonly element: TypeNode }
  | { readonly t: 'tuple'; readonly elements: readonly { readonly rest: boolean; readonly type: TypeNode }[] }
  | { readonly t: 'object'; readonly body: Body }
  | { readonly t: 'commented'; readonly comments: readonly string[]; readonly inner: TypeNode };

/** The members of a body, and the comments that stand after the last one (before the `}`). */
interface Body {
  readonly members: readonly Member[];
  readonly trailing: readonly string[];
}

interface Member {
  readonly comments: readonly string[];
  /** The key as written: an identifier, a quoted string, or an index signature's `[k: string]`. */
  readonly key: string;
  readonly optional: boolean;
  readonly type: TypeNode;
}

type Declaration =
  | { readonly comments: readonly string[]; readonly d: 'interface'; readonly name: string; readonly heritage: readonly string[]; readonly body: Body }
  | { readonly comments: readonly string[]; readonly d: 'alias'; readonly name: string; readonly type: TypeNode }
  /** Comments after the last declaration. */
  | { readonly comments: readonly string[]; readonly d: 'comments' };

const PUNCT = new Set(['{', '}', '(', ')', '[', ']', '<', '>', '|', '&', ',', ':', '?', ';', '=']);

/** Splits the library's output into tokens, noting which ones start a line. */
function tokenize(code: string): Token[] {
  const out: Token[] = [];
  let nl = true;
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '\n') {
      nl = true;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (code.startsWith('//', i)) {
      const end = code.indexOf('\n', i);
      const stop = end === -1 ? code.length : end;
      out.push({ kind: 'comment', text: code.slice(i, stop).trimEnd(), nl });
      i = stop;
      nl = false;
    } else if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      const stop = end === -1 ? code.length : end + 2;
      out.push({ kind: 'comment', text: code.slice(i, stop), nl });
      i = stop;
      nl = false;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      out.push({ kind: 'string', text: code.slice(i, j + 1), nl });
      i = j + 1;
      nl = false;
    } else if (code.startsWith('...', i)) {
      out.push({ kind: 'punct', text: '...', nl });
      i += 3;
      nl = false;
    } else if (PUNCT.has(c)) {
      out.push({ kind: 'punct', text: c, nl });
      i++;
      nl = false;
    } else {
      let j = i;
      while (j < code.length && !/[\s{}()[\]<>|&,:?;="'/]/.test(code[j]!)) j++;
      if (j === i) throw new Error(`unexpected character ${JSON.stringify(c)} in compiled type`);
      out.push({ kind: 'word', text: code.slice(i, j), nl });
      i = j;
      nl = false;
    }
  }
  return out;
}

/** A recursive-descent reader over the tokens. */
class Reader {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  done(): boolean {
    return this.at >= this.tokens.length;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private is(text: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind !== 'comment' && t.kind !== 'string' && t.text === text;
  }

  private take(text?: string): Token {
    const t = this.tokens[this.at];
    if (t === undefined || (text !== undefined && t.text !== text)) {
      throw new Error(`compiled type: expected ${text ?? 'a token'}, found ${t === undefined ? 'the end' : JSON.stringify(t.text)}`);
    }
    this.at++;
    return t;
  }

  private comments(): string[] {
    const out: string[] = [];
    while (this.peek()?.kind === 'comment') out.push(this.take().text);
    return out;
  }

  declaration(): Declaration {
    const comments = this.comments();
    if (this.done()) return { comments, d: 'comments' };
    this.take('export');
    const kind = this.take().text;
    const name = this.take().text;
    if (kind === 'type') {
      this.take('=');
      const type = this.type();
      if (this.is(';')) this.take();
      return { comments, d: 'alias', name, type };
    }
    if (kind !== 'interface') throw new Error(`compiled type: unexpected declaration ${kind}`);
    const heritage: string[] = [];
    if (this.is('extends')) {
      this.take();
      do heritage.push(this.print(this.type()));
      while (this.is(',') && this.take());
    }
    return { comments, d: 'interface', name, heritage, body: this.body() };
  }

  private body(): Body {
    this.take('{');
    const members: Member[] = [];
    for (;;) {
      const comments = this.comments();
      if (this.is('}')) {
        this.take();
        return { members, trailing: comments };
      }
      members.push({ comments, ...this.member() });
      if (this.is(';') || this.is(',')) this.take();
    }
  }

  private member(): Omit<Member, 'comments'> {
    let key: string;
    if (this.is('[')) {
      this.take();
      const index = this.take().text;
      this.take(':');
      key = `[${index}: ${this.print(this.type())}]`;
      this.take(']');
    } else key = this.take().text;
    const optional = this.is('?');
    if (optional) this.take();
    this.take(':');
    return { key, optional, type: this.type() };
  }

  type(): TypeNode {
    return this.setOf('union', '|', () => this.setOf('intersection', '&', () => this.postfix()));
  }

  private setOf(t: 'union' | 'intersection', sep: string, part: () => TypeNode): TypeNode {
    if (this.is(sep)) this.take(); // a leading separator
    const members = [part()];
    while (this.is(sep)) {
      this.take();
      members.push(part());
    }
    return members.length === 1 ? members[0]! : { t, members };
  }

  private postfix(): TypeNode {
    let node = this.primary();
    // An array suffix follows on the same line; a `[` on a new line starts the next member.
    while (this.is('[') && !this.peek()!.nl && this.tokens[this.at + 1]?.text === ']') {
      this.take();
      this.take();
      node = { t: 'array', element: node };
    }
    return node;
  }

  /** A type, with the comments written just before it (kept in front of it, on its line). */
  private primary(): TypeNode {
    const comments = this.comments();
    const inner = this.bare();
    if (comments.length === 0) return inner;
    const line = comments.find((c) => c.startsWith('//'));
    if (line !== undefined) throw new Error(`compiled type: a line comment inside a type (${JSON.stringify(line)}) would comment out the rest of its line`);
    return { t: 'commented', comments, inner };
  }

  private bare(): TypeNode {
    if (this.is('(')) {
      this.take();
      const inner = this.type();
      this.take(')');
      return { t: 'paren', inner };
    }
    if (this.is('{')) return { t: 'object', body: this.body() };
    if (this.is('[')) {
      this.take();
      const elements: { rest: boolean; type: TypeNode }[] = [];
      while (!this.is(']')) {
        const rest = this.is('...');
        if (rest) this.take();
        elements.push({ rest, type: this.type() });
        if (this.is(',')) this.take();
      }
      this.take(']');
      return { t: 'tuple', elements };
    }
    let text = this.take().text;
    if (text === '-') text += this.take().text;
    const args: TypeNode[] = [];
    if (this.is('<')) {
      this.take();
      while (!this.is('>')) {
        args.push(this.type());
        if (this.is(',')) this.take();
      }
      this.take('>');
    }
    return { t: 'word', text, args };
  }

  /** A type on one line, for heritage clauses and index keys. */
  print(node: TypeNode): string {
    return printType(node, 0, new Map());
  }
}

const UNIT = '  ';

function printComment(text: string, level: number, names: ReadonlyMap<string, string>): string {
  const pad = UNIT.repeat(level);
  // The library names the root type in some notes ("referenced by `X`'s JSON-Schema definition").
  let named = text;
  // Longest first, so a name that begins another (`XNode`, `XNodeList`) never renames part of it.
  for (const [from, to] of [...names].sort(([a], [b]) => b.length - a.length)) named = named.split(from).join(to);
  return named
    .split('\n')
    .map((raw) => {
      const line = raw.trim();
      return `${pad}${line.startsWith('*') ? ' ' : ''}${line}`;
    })
    .join('\n');
}

function printMembers(body: Body, level: number, names: ReadonlyMap<string, string>): string {
  if (body.members.length === 0 && body.trailing.length === 0) return '{}';
  const lines = body.members.map((m) => {
    const docs = m.comments.map((c) => `${printComment(c, level + 1, names)}\n`).join('');
    return `${docs}${UNIT.repeat(level + 1)}${m.key}${m.optional ? '?' : ''}: ${printType(unwrap(m.type), level + 1, names)};`;
  });
  lines.push(...body.trailing.map((c) => printComment(c, level + 1, names)));
  return `{\n${lines.join('\n')}\n${UNIT.repeat(level)}}`;
}

/** A whole member or alias type needs no parentheses of its own. */
function unwrap(node: TypeNode): TypeNode {
  return node.t === 'paren' ? unwrap(node.inner) : node;
}

function printType(node: TypeNode, level: number, names: ReadonlyMap<string, string>): string {
  switch (node.t) {
    case 'word': {
      const text = names.get(node.text) ?? node.text;
      return node.args.length === 0 ? text : `${text}<${node.args.map((a) => printType(a, level, names)).join(', ')}>`;
    }
    case 'paren':
      return `(${printType(node.inner, level, names)})`;
    case 'union':
      return node.members.map((m) => printType(m, level, names)).join(' | ');
    case 'intersection':
      return node.members.map((m) => printType(m, level, names)).join(' & ');
    case 'array':
      return `${printType(node.element, level, names)}[]`;
    case 'tuple':
      return `[${node.elements.map((e) => `${e.rest ? '...' : ''}${printType(e.type, level, names)}`).join(', ')}]`;
    case 'object':
      return printMembers(node.body, level, names);
    case 'commented':
      return `${node.comments.map((c) => `${printComment(c, level, names).trimStart()} `).join('')}${printType(node.inner, level, names)}`;
  }
}

function printDeclaration(d: Declaration, names: ReadonlyMap<string, string>): string {
  const docs = d.comments.map((c) => `${printComment(c, 0, names)}\n`).join('');
  if (d.d === 'comments') return docs.trimEnd();
  const name = names.get(d.name) ?? d.name;
  if (d.d === 'alias') return `${docs}export type ${name} = ${printType(unwrap(d.type), 0, names)};`;
  const heritage = d.heritage.length > 0 ? ` extends ${d.heritage.map((h) => names.get(h) ?? h).join(', ')}` : '';
  return `${docs}export interface ${name}${heritage} ${printMembers(d.body, 0, names)}`;
}

/**
 * The declarations of `code` (json-schema-to-typescript's unformatted output) laid out, with every
 * identifier that is a key of `names` — a declaration and any reference to it, in types and in the
 * library's notes — spelled as its value (the placeholder of the compiled schema becomes its type name,
 * the placeholders of its recursive definitions theirs).
 */
export function layoutTypes(code: string, names: ReadonlyMap<string, string>): string {
  const reader = new Reader(tokenize(code));
  const out: string[] = [];
  while (!reader.done()) out.push(printDeclaration(reader.declaration(), names));
  return out.join('\n\n');
}
