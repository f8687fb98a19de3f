/**
 * Random author edits to handler files, the way a person edits them: stub
 * bodies replaced with code that uses the input, comments and blank lines,
 * imports, helper functions, helper files under handlers/, an unused import
 * removed, a trailing comma dropped, now and then a file that does not parse.
 * Every line the author writes is returned so the test can look for it later,
 * and what the code assumes about the types is recorded for the compatibility
 * verdict of later manifest changes.
 */
import type { Obj, PType, Primitive, Prop } from './model.js';

/** A seeded source of choices (mulberry32), so a case replays from fast-check's seed alone. */
export class Rng {
  private state: number;
  private n = 0;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  subset<T>(items: readonly T[], p = 0.5): T[] {
    return items.filter(() => this.bool(p));
  }
  /** A fresh marker for names and comments. */
  uid(): string {
    return `${(this.n++).toString(36)}${Math.floor(this.next() * 1e6).toString(36)}`;
  }
}

/** What a handler body assumes about the generated types. */
export interface Uses {
  /** Input properties (tools) or prompt arguments read, with the type read and whether read as always present. */
  readonly reads: Map<string, { readonly type: PType; readonly required: boolean }>;
  /** A tool body returns an object literal (with these properties) or text. */
  output?: { readonly kind: 'object'; readonly included: Map<string, PType> } | { readonly kind: 'text' };
}

export const emptyUses = (): Uses => ({ reads: new Map() });

/** The result of editing one handler file. */
export interface Edit {
  readonly content: string;
  /** Lines the author wrote, in file order of insertion (each must survive every regeneration). */
  readonly authorLines: readonly string[];
  /** Files the author added under handlers/ (relative to handlers/). */
  readonly extraFiles: ReadonlyMap<string, string>;
  readonly unparseable: boolean;
  readonly log: readonly string[];
}

const ident = (name: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
const access = (obj: string, name: string): string => (ident(name) ? `${obj}.${name}` : `${obj}[${JSON.stringify(name)}]`);
const keyOf = (name: string): string => (ident(name) ? name : JSON.stringify(name));

function readType(t: PType): string {
  switch (t.t) {
    case 'string':
    case 'enum':
      return 'string';
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'readonly unknown[]';
    case 'object':
      return 'object';
  }
}

/** A literal of type `t` (objects get their required properties). */
export function literal(t: PType): string {
  switch (t.t) {
    case 'string':
      return `'s'`;
    case 'integer':
      return '1';
    case 'boolean':
      return 'true';
    case 'enum':
      return `'${t.values[0]}'`;
    case 'array':
      return '[]';
    case 'object':
      return objLiteral(t.obj.props.filter((p) => p.required));
  }
}

function objLiteral(props: readonly Prop[]): string {
  return props.length === 0 ? '{}' : `{ ${props.map((p) => `${keyOf(p.name)}: ${literal(p.type)}`).join(', ')} }`;
}

const COMMENTS = [
  'keep this in sync with the billing service',
  'TODO: list(ctx) should page through results',
  'read(params, ctx) is cached upstream',
  'complete: values come from the search index',
  'export const draft: DraftTool = ... was the old way',
  'get(args) is called once per prompt',
  'NOTE: do not throw here',
];

/** Finds the member a `throw notImplemented(...)` line belongs to, looking up past comments and blank lines. */
function memberOf(lines: readonly string[], i: number): 'tool' | 'read' | 'list' | 'get' | undefined {
  for (let j = i - 1; j >= 0; j--) {
    const l = lines[j]!.trim();
    if (l === '' || l.startsWith('//') || l.startsWith('/*') || l.startsWith('*')) continue;
    if (/=> \{$/.test(l) && l.startsWith('export const')) return 'tool';
    const m = /^async (read|list|get)\(/.exec(l);
    return m ? (m[1] as 'read' | 'list' | 'get') : undefined;
  }
  return undefined;
}

/**
 * Edits one handler file. `p` is the primitive as the file was last generated
 * for; `uses` is updated with what replaced bodies read and return.
 */
export function editHandler(content: string, p: Primitive, uses: Uses, rng: Rng, opts: { unparseable: boolean }): Edit {
  let lines = content.split('\n');
  const authored = new Set<number>(); // indexes into `lines` of author lines (kept consistent on insert)
  const log: string[] = [];
  const extraFiles = new Map<string, string>();
  const insert = (at: number, newLines: readonly string[], track = true): void => {
    lines.splice(at, 0, ...newLines);
    const shifted = [...authored].map((i) => (i >= at ? i + newLines.length : i));
    authored.clear();
    for (const i of shifted) authored.add(i);
    if (track) newLines.forEach((l, k) => l.trim() !== '' && authored.add(at + k));
  };
  const replace = (at: number, newLines: readonly string[]): void => {
    lines.splice(at, 1);
    const shifted = [...authored].filter((i) => i !== at).map((i) => (i > at ? i - 1 : i));
    authored.clear();
    for (const i of shifted) authored.add(i);
    insert(at, newLines);
  };

  // A trailing comma after the last member of a handler object, dropped.
  if (p.kind !== 'tool' && rng.bool(0.2)) {
    const start = lines.findIndex((l) => l.startsWith('export const '));
    const end = start < 0 ? -1 : lines.findIndex((l, i) => i > start && l === '};');
    if (end > 0 && lines[end - 1]!.endsWith(',') && !authored.has(end - 1)) {
      lines[end - 1] = lines[end - 1]!.slice(0, -1);
      log.push('dropped the trailing comma of the last member');
    }
  }

  // Stub bodies replaced with code that uses the input.
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)throw notImplemented\(/.exec(lines[i]!);
    if (!m || !rng.bool(0.75)) continue;
    const member = memberOf(lines, i);
    if (!member) continue;
    const ind = rng.bool(0.8) ? m[1]! : `${m[1]!}  `;
    const u = rng.uid();
    const body: string[] = [];
    if (rng.bool(0.5)) body.push(`${ind}// ${rng.pick(COMMENTS)} (${u})`);
    if (member === 'tool' && p.kind === 'tool') {
      for (const [k, prop] of (p.input?.props ?? []).entries()) {
        if (!rng.bool(0.6)) continue;
        const required = prop.required;
        body.push(`${ind}const in${u}${k}: ${readType(prop.type)}${required ? '' : ' | undefined'} = ${access('input', prop.name)};`);
        uses.reads.set(prop.name, { type: prop.type, required });
      }
      if (p.output) {
        const included = p.output.props.filter((q) => q.required || rng.bool(0.4));
        body.push(`${ind}return ${objLiteral(included)};`);
        uses.output = { kind: 'object', included: new Map(included.map((q) => [q.name, q.type])) };
      } else {
        body.push(`${ind}return \`done ${u}\`;`);
        uses.output = { kind: 'text' };
      }
    } else if (member === 'get' && p.kind === 'prompt') {
      for (const [k, a] of p.args.entries()) {
        if (!rng.bool(0.6)) continue;
        body.push(`${ind}const arg${u}${k}: ${a.type === 'integer' ? 'number' : a.type}${a.required ? '' : ' | undefined'} = ${access('args', a.name)};`);
        uses.reads.set(a.name, { type: { t: a.type }, required: a.required });
      }
      body.push(`${ind}return \`Prompt ${u}\`;`);
    } else if (member === 'read' && p.kind === 'resource') {
      if (p.vars.length === 0) body.push(`${ind}return 'text ${u}';`);
      else {
        p.vars.forEach((v, k) => body.push(`${ind}const p${u}${k}: string = ${access('params', v)};`));
        body.push(`${ind}return { ${p.vars.map((v, k) => `${keyOf(v)}: p${u}${k}`).join(', ')} };`);
      }
    } else if (member === 'list' && p.kind === 'resource') {
      body.push(`${ind}return [{ params: { ${p.vars.map((v) => `${keyOf(v)}: '${u}'`).join(', ')} } }];`);
    } else continue;
    replace(i, body);
    log.push(`replaced the ${member} body (${body.length} lines)`);
    i += body.length - 1;
  }

  // Completers implemented.
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)([\w$]+|'[^']*'|"[^"]*"): async \(value, context, ctx\) => \[\],?$/.exec(lines[i]!);
    if (!m || !rng.bool(0.5)) continue;
    const comma = lines[i]!.endsWith(',') ? ',' : '';
    replace(i, [`${m[1]!}${m[2]!}: async (value) => [value, '${rng.uid()}']${comma}`]);
    log.push(`implemented completer ${m[2]!}`);
  }

  // The unused notImplemented import removed (as a linter would).
  const impIdx = lines.findIndex((l) => l === `import { notImplemented } from 'mcp-gen/runtime';`);
  if (impIdx >= 0 && !lines.some((l) => l.includes('notImplemented(')) && rng.bool(0.5)) {
    lines.splice(impIdx, 1);
    const shifted = [...authored].map((i) => (i > impIdx ? i - 1 : i));
    authored.clear();
    for (const i of shifted) authored.add(i);
    log.push('removed the unused notImplemented import');
  }

  // Imports of its own.
  const lastImport = (): number => lines.reduce((acc, l, i) => (l.startsWith('import ') ? i : acc), -1);
  if (rng.bool(0.3)) {
    const u = rng.uid();
    const line = rng.pick([`import { createHash as hash${u} } from 'node:crypto';`, `import * as path${u} from 'node:path';`, `import type { Readable as Readable${u} } from 'node:stream';`]);
    insert(lastImport() + 1, [line]);
    log.push(`added an import: ${line}`);
  }
  if (rng.bool(0.2)) {
    const u = rng.uid();
    const file = `lib/fmt${u}.ts`;
    extraFiles.set(file, `// A helper module of the author's.\nexport function fmt${u}(v: unknown): string {\n  return JSON.stringify(v);\n}\n`);
    insert(lastImport() + 1, [`import { fmt${u} } from '../lib/fmt${u}.js';`]);
    insert(lines.length - (lines[lines.length - 1] === '' ? 1 : 0), ['', `export const uses${u} = fmt${u}(1);`]);
    log.push(`added handlers/${file} and used it`);
  }
  if (rng.bool(0.3)) {
    const u = rng.uid();
    const fn = [`/** A helper of the author's. */`, `function helper${u}(value: string): string {`, `  return value.trim();`, `}`, `void helper${u};`];
    insert(lines.length - (lines[lines.length - 1] === '' ? 1 : 0), ['', ...fn]);
    log.push('added a helper function');
  }
  if (rng.bool(0.1)) {
    extraFiles.set(`NOTES-${rng.uid()}.md`, '# Notes\n\nHandlers are ours.\n');
    log.push('added a notes file');
  }

  // Comments and blank lines anywhere between lines.
  for (let k = rng.int(0, 3); k > 0; k--) {
    const at = rng.int(0, Math.max(0, lines.length - 1));
    if (insideBlockComment(lines, at)) continue;
    const u = rng.uid();
    const indent = /^\s*/.exec(lines[at] ?? '')![0];
    const block = rng.pick([[`${indent}// ${rng.pick(COMMENTS)} (${u})`], [''], [`${indent}/* ${u}: ${rng.pick(COMMENTS)} */`], ['', `${indent}// ${u}`, '']]);
    insert(at, block);
    log.push(`inserted ${block.length} comment/blank line(s) at line ${at + 1}`);
  }

  let unparseable = false;
  if (opts.unparseable) {
    const u = rng.uid();
    insert(lines.length - (lines[lines.length - 1] === '' ? 1 : 0), [`export const broken${u} = {;`]);
    unparseable = true;
    log.push('made the file unparseable');
  }

  lines = [...lines];
  return {
    content: lines.join('\n'),
    authorLines: [...authored].sort((a, b) => a - b).map((i) => lines[i]!),
    extraFiles,
    unparseable,
    log,
  };
}

/** True when the boundary before line `at` lies inside a block comment. */
function insideBlockComment(lines: readonly string[], at: number): boolean {
  let open = false;
  for (const l of lines.slice(0, at)) {
    for (let i = 0; i < l.length - 1; i++) {
      if (!open && l[i] === '/' && l[i + 1] === '*') (open = true), i++;
      else if (open && l[i] === '*' && l[i + 1] === '/') (open = false), i++;
    }
  }
  return open;
}

/** Whether code reading a value typed `readType(from)` still compiles against `to`. */
export function readCompatible(from: PType, to: PType): boolean {
  if (from.t === 'enum' || from.t === 'string') return to.t === 'enum' || to.t === 'string';
  return from.t === to.t;
}

/** Whether `literal(from)` is still assignable to `to`. */
export function literalCompatible(from: PType, to: PType): boolean {
  if (from.t === 'enum') return to.t === 'enum' ? to.values.includes(from.values[0]!) : to.t === 'string';
  if (from.t === 'object') return to.t === 'object' && objLiteralCompatible(from.obj.props.filter((p) => p.required), to.obj);
  return from.t === to.t;
}

/** Whether an object literal with `included` properties is still assignable to `to`. */
export function objLiteralCompatible(included: readonly Prop[] | ReadonlyMap<string, PType>, to: Obj): boolean {
  const inc = included instanceof Map ? [...included].map(([name, type]) => ({ name, type })) : (included as readonly Prop[]);
  const names = new Set(inc.map((p) => p.name));
  if (to.props.some((p) => p.required && !names.has(p.name))) return false;
  return inc.every((p) => {
    const target = to.props.find((q) => q.name === p.name);
    return target ? literalCompatible(p.type, target.type) : false;
  });
}
