/**
 * Surgical updates of author-owned handler files with ts-morph: add a missing
 * export, add missing members to a handler object, retype or rename a
 * declaration. Only the edited nodes change; bodies, comments, imports the
 * author added and formatting elsewhere stay byte-identical. A file that does
 * not parse is left alone and reported.
 */
import type { HandlerSpec } from '../emit/handlers.js';

type TsMorph = typeof import('ts-morph');
let tsMorph: TsMorph | undefined;

/** ts-morph is loaded only when a handler file actually needs an edit. */
async function load(): Promise<TsMorph> {
  tsMorph ??= await import('ts-morph');
  return tsMorph;
}

/**
 * The outcome of reconciling one handler file with what the server needs. `parsed` says TypeScript parsed
 * the content (the file as found when unchanged, the edit when edited) without a syntax error: a file kept
 * on `looksComplete` alone was not parsed.
 */
export type Reconciled =
  | { readonly kind: 'unchanged'; readonly parsed?: true }
  | { readonly kind: 'edited'; readonly content: string; readonly changes: readonly string[]; readonly parsed?: true }
  | { readonly kind: 'unparseable'; readonly message: string };

/**
 * A cheap text check that the file already has what the spec needs, so a
 * no-op regeneration never loads the TypeScript compiler. It may answer
 * "no" for a complete file (ts-morph then decides), never "yes" for an
 * incomplete one: members count only at the top level of the exported object
 * literal, completers only at the top level of its `complete` object, and
 * comments and string contents are ignored (`// list(ctx) pages`, a
 * `return { owner: … }` in a body, are not members).
 */
export function looksComplete(content: string, spec: HandlerSpec, exportName = spec.id): boolean {
  const text = blankCommentsAndStrings(content);
  const decl = new RegExp(`export\\s+const\\s+${exportName}\\s*:\\s*${spec.typeName}\\b(\\s*=\\s*\\{)?`).exec(text);
  if (!decl) return false;
  if (spec.members.length === 0 && spec.completeKeys.length === 0) return true;
  if (decl[1] === undefined) return false;
  const members = topLevel(text, decl.index + decl[0].length - 1);
  if (members === undefined) return false;
  if (!spec.members.every((m) => new RegExp(`(^|[\\s{,])(async\\s+)?${m.name}\\s*[(:]`).test(members))) return false;
  if (spec.completeKeys.length === 0) return true;
  const complete = /(^|[\s{,])complete\s*:\s*\{/.exec(members);
  if (!complete) return false;
  const keys = topLevel(text, decl.index + decl[0].length + complete.index + complete[0].length - 1);
  return keys !== undefined && spec.completeKeys.every((k) => new RegExp(`(^|[\\s{,])${k}\\s*:`).test(keys));
}

/** `code` with comments and the contents of string and template literals replaced by spaces (same length, line breaks kept). */
function blankCommentsAndStrings(code: string): string {
  let out = '';
  let i = 0;
  const blank = (to: number) => {
    out += code.slice(i, to).replace(/[^\n]/g, ' ');
    i = to;
  };
  while (i < code.length) {
    const c = code[i]!;
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      const end = code.indexOf('\n', i);
      blank(end < 0 ? code.length : end);
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      blank(end < 0 ? code.length : end + 2);
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== c && (c === '`' || code[j] !== '\n')) j += code[j] === '\\' ? 2 : 1;
      out += c;
      i++;
      blank(Math.min(j, code.length));
      if (i < code.length) (out += code[i]), i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The text inside the braces opening at `open`, with everything nested deeper blanked; undefined when unbalanced. */
function topLevel(text: string, open: number): string | undefined {
  let depth = 0;
  let out = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return out;
    if (i > open) out += depth === 1 || (depth === 2 && c === '{') || c === '\n' ? c : ' ';
  }
  return undefined;
}

/** True when TypeScript parses `content` without a syntax error (loads ts-morph and TypeScript). */
export async function parses(content: string): Promise<boolean> {
  const { Project } = await load();
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true, compilerOptions: { allowJs: false } });
  return parseErrors(project.createSourceFile('/handler.ts', content)).length === 0;
}

/** The syntax errors TypeScript found in `sf` as it stands. */
function parseErrors(sf: import('ts-morph').SourceFile): readonly import('typescript').Diagnostic[] {
  return (sf.compilerNode as unknown as { parseDiagnostics?: readonly import('typescript').Diagnostic[] }).parseDiagnostics ?? [];
}

/** Brings one existing handler file up to date with `spec`; `fromId`/`fromType` name the declaration being renamed. */
export async function reconcileHandler(
  content: string,
  spec: HandlerSpec,
  rename?: { readonly fromId: string; readonly fromType: string },
): Promise<Reconciled> {
  if (!rename && looksComplete(content, spec)) return { kind: 'unchanged' };
  const { Project, Node, ts } = await load();
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true, compilerOptions: { allowJs: false } });
  const sf = project.createSourceFile('/handler.ts', content);
  const errors = parseErrors(sf);
  if (errors.length > 0) {
    const d = errors[0]!;
    const pos = d.start !== undefined ? sf.getLineAndColumnAtPos(d.start) : { line: 1, column: 1 };
    return { kind: 'unparseable', message: `${pos.line}:${pos.column} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}` };
  }
  const changes: string[] = [];
  let decl = sf.getVariableDeclaration(spec.id);
  if (rename && !decl) {
    const old = sf.getVariableDeclaration(rename.fromId);
    if (old) {
      old.getNameNode().replaceWithText(spec.id);
      changes.push(`renamed export ${rename.fromId} to ${spec.id}`);
      decl = sf.getVariableDeclaration(spec.id);
    }
  }
  if (!decl || !decl.getVariableStatement()?.isExported()) {
    if (sf.getFunction(spec.id)?.isExported() || sf.getExportedDeclarations().has(spec.id)) return changes.length ? edited(sf, changes) : { kind: 'unchanged', parsed: true };
    ensureImport(sf, 'mcp-gen/runtime', 'notImplemented', false);
    if (spec.exportStub.includes('Returns<')) ensureImport(sf, 'mcp-gen/runtime', 'Returns', true);
    ensureImport(sf, '../../types.gen.js', spec.typeName, true);
    const text = sf.getFullText();
    sf.replaceWithText(`${text}${text.endsWith('\n') ? '' : '\n'}\n${spec.exportStub}`);
    changes.push(`added export ${spec.id}`);
    return edited(sf, changes);
  }
  const typeNode = decl.getTypeNode();
  if (typeNode && typeNode.getText() !== spec.typeName && /(Tool|Resource|Prompt)$/.test(typeNode.getText())) {
    const before = typeNode.getText();
    // The declared return types name the handler type too (`Promise<Returns<OldTool>>`).
    for (const id of decl.getDescendantsOfKind(tsKind('Identifier')).filter((x) => x.getText() === before).reverse()) id.replaceWithText(spec.typeName);
    retypeImport(sf, before, spec.typeName);
    changes.push(`retyped ${spec.id} from ${before} to ${spec.typeName}`);
  }
  // Text insertions forget every node navigated before them, so the object is looked up afresh each time.
  addMissingMembers(sf, spec, changes, Node);
  return changes.length ? edited(sf, changes) : { kind: 'unchanged', parsed: true };
}

/** The edited file; ts-morph parsed it again after each edit, so whether it parses is known. */
function edited(sf: import('ts-morph').SourceFile, changes: string[]): Reconciled {
  return { kind: 'edited', content: sf.getFullText(), changes, ...(parseErrors(sf).length === 0 ? { parsed: true as const } : {}) };
}

/** Renames the import of a type no longer used by the file, or adds the new one. */
function retypeImport(sf: import('ts-morph').SourceFile, from: string, to: string): void {
  const decl = sf.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === '../../types.gen.js');
  const spec = decl?.getNamedImports().find((n) => n.getName() === from && n.getAliasNode() === undefined);
  const stillUsed = sf.getDescendantsOfKind(tsKind('Identifier')).some((id) => id.getText() === from && !id.getFirstAncestorByKind(tsKind('ImportDeclaration')));
  if (spec && !stillUsed && !decl!.getNamedImports().some((n) => n.getName() === to)) spec.getNameNode().replaceWithText(to);
  else ensureImport(sf, '../../types.gen.js', to, true);
}

function tsKind(name: 'Identifier' | 'ImportDeclaration'): import('typescript').SyntaxKind {
  return tsMorph!.SyntaxKind[name] as unknown as import('typescript').SyntaxKind;
}

function ensureImport(sf: import('ts-morph').SourceFile, module: string, name: string, typeOnly: boolean): void {
  const existing = sf.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === module);
  if (existing) {
    if (existing.getNamedImports().some((n) => n.getName() === name)) return;
    if (existing.getNamespaceImport()) return;
    existing.addNamedImport(typeOnly && !existing.isTypeOnly() ? { name, isTypeOnly: true } : name);
    return;
  }
  const line = typeOnly ? `import type { ${name} } from '${module}';\n` : `import { ${name} } from '${module}';\n`;
  const imports = sf.getImportDeclarations();
  const at = imports.length ? imports[imports.length - 1]!.getEnd() + 1 : 0;
  sf.insertText(at, line);
}

function addMissingMembers(sf: import('ts-morph').SourceFile, spec: HandlerSpec, changes: string[], Node: TsMorph['Node']): void {
  const object = (): import('ts-morph').ObjectLiteralExpression | undefined => {
    const init = sf.getVariableDeclaration(spec.id)?.getInitializer();
    return init && Node.isObjectLiteralExpression(init) ? init : undefined;
  };
  const has = (obj: import('ts-morph').ObjectLiteralExpression, name: string) =>
    obj.getProperties().some((p) => (Node.isPropertyAssignment(p) || Node.isMethodDeclaration(p) || Node.isShorthandPropertyAssignment(p)) && p.getName() === name);
  for (const m of spec.members) {
    const obj = object();
    if (!obj) return;
    if (has(obj, m.name)) continue;
    insertMember(obj, m.text);
    changes.push(`added ${m.name} to ${spec.id}`);
    // The new member's stub body throws notImplemented(); the author may have removed that import.
    if (m.text.includes('notImplemented(')) ensureImport(sf, 'mcp-gen/runtime', 'notImplemented', false);
    if (m.text.includes('Returns<')) ensureImport(sf, 'mcp-gen/runtime', 'Returns', true);
  }
  if (spec.completeKeys.length === 0) return;
  const completers = (): import('ts-morph').ObjectLiteralExpression | undefined => {
    const complete = object()?.getProperty('complete');
    const inner = complete && Node.isPropertyAssignment(complete) ? complete.getInitializer() : undefined;
    return inner && Node.isObjectLiteralExpression(inner) ? inner : undefined;
  };
  for (const k of spec.completeKeys) {
    const inner = completers();
    if (!inner) return;
    if (inner.getProperty(k) || inner.getProperty(`'${k}'`)) continue;
    insertMember(inner, `${k}: async (value, context, ctx) => []`);
    changes.push(`added completer ${k} to ${spec.id}`);
  }
}

/** Inserts a member before the closing brace, matching the indentation of the existing members. */
function insertMember(obj: import('ts-morph').ObjectLiteralExpression, text: string): void {
  const props = obj.getProperties();
  const closing = obj.getEnd() - 1;
  const full = obj.getSourceFile().getFullText();
  const lineStart = full.lastIndexOf('\n', closing) + 1;
  const baseIndent = /^\s*/.exec(full.slice(lineStart, closing))![0];
  const last = props[props.length - 1];
  const indent = last ? /^\s*/.exec(full.slice(full.lastIndexOf('\n', last.getStart()) + 1))![0] : `${baseIndent}  `;
  const body = text.split('\n').map((l, i) => (i === 0 ? l : `${indent}${l}`)).join('\n');
  if (last) {
    const after = full.slice(last.getEnd(), closing);
    const commaAt = after.trimStart().startsWith(',') ? last.getEnd() + after.indexOf(',') + 1 : -1;
    if (commaAt >= 0) obj.getSourceFile().insertText(commaAt, `\n${indent}${body},`);
    else obj.getSourceFile().insertText(last.getEnd(), `,\n${indent}${body}`);
  } else {
    obj.getSourceFile().insertText(closing, `\n${indent}${body},\n${baseIndent}`);
  }
}
