/**
 * How templates are compiled and what they may call. Shared by `render` (generator/emit/context.ts),
 * which compiles templates/ when running from source, and scripts/build-templates.mjs, which precompiles
 * them for the package, so both print the same text.
 */
import type HandlebarsModule from 'handlebars';
import { jsdoc, lit } from './text.js';

type Handlebars = typeof HandlebarsModule;
type Program = hbs.AST.Program;
type Node = hbs.AST.Node;

/** The options every template is compiled with: values are inserted as they are (emitters escape for the target language). */
export const COMPILE_OPTIONS = { noEscape: true, strict: true } as const;

/** Templates under this folder of templates/ are partials, named by their path below it (`contract/listed`). */
export const PARTIALS_DIR = 'partials/';

/** What a template's data frame carries for the printer: how far right the partials around it shift its lines. */
interface Frame {
  readonly shift?: number;
}

/**
 * The helpers templates call: `{{lit value}}` prints a value (JSON with `Code` fragments) through the one
 * printer, laid out from the indentation of its template line and narrowed by the partials around it.
 */
export function installHelpers(env: Handlebars): void {
  env.registerHelper('lit', (value: unknown, options: HandlebarsModule.HelperOptions) => {
    const indent = (options.hash as { indent?: number }).indent ?? 0;
    return lit(value, indent, undefined, false, (options.data as Frame | undefined)?.shift ?? 0);
  });
  // `{{jsdoc paragraphs}}` stands where the declaration starts: the block, then the indentation again for
  // the declaration that follows it on the template line (nothing at all without paragraphs).
  env.registerHelper('jsdoc', (paragraphs: readonly (string | undefined)[], options: HandlebarsModule.HelperOptions) => {
    const indent = (options.hash as { indent?: number }).indent ?? 0;
    const block = jsdoc(paragraphs, indent);
    return block === '' ? '' : `${block.slice(indent)}${' '.repeat(indent)}`;
  });
}

/** The helpers whose output is laid out from the indentation of their template line. */
const LAID_OUT = new Set(['lit', 'jsdoc']);

/**
 * Registers `template` as the partial `name`. Handlebars indents every line an indented partial prints;
 * the partial's data frame records by how much, so the printer inside keeps to the line width.
 */
export function installPartial(env: Handlebars, name: string, template: HandlebarsModule.TemplateDelegate): void {
  env.registerPartial(name, (context: unknown, options?: HandlebarsModule.RuntimeOptions & { indent?: string }) => {
    const data = env.createFrame(options?.data ?? {}) as { shift?: number };
    data.shift = ((options?.data as Frame | undefined)?.shift ?? 0) + (options?.indent?.length ?? 0);
    return template(context, { ...options, data });
  });
}

/**
 * The parsed template, each `{{lit …}}` and `{{jsdoc …}}` given the indentation of the template line it stands on
 * (`indent=N`, unless the template states one): the printer lays a value out from where the template
 * puts it, and no emitter needs to know the template's columns. In a partial, the indentation is the
 * partial's own; Handlebars indents every line an indented partial prints, nested values included.
 */
export function parseTemplate(env: Handlebars, source: string): Program {
  const lines = source.split('\n');
  const program = env.parse(source);
  visit(program, (node) => {
    if (node.type !== 'MustacheStatement') return;
    const m = node as hbs.AST.MustacheStatement;
    if (m.path.type !== 'PathExpression' || !LAID_OUT.has((m.path as hbs.AST.PathExpression).original)) return;
    const line = lines[m.loc.start.line - 1] ?? '';
    const indent = line.length - line.trimStart().length;
    const hash = (m.hash ??= { type: 'Hash', pairs: [], loc: m.loc });
    if (hash.pairs.some((p) => p.key === 'indent')) return;
    const value: hbs.AST.NumberLiteral = { type: 'NumberLiteral', value: indent, original: indent, loc: m.loc };
    hash.pairs.push({ type: 'HashPair', key: 'indent', value, loc: m.loc });
  });
  return program;
}

/** Calls `f` on every statement of the program, inside blocks and inline partials too. */
function visit(node: Node | undefined, f: (n: Node) => void): void {
  if (node === undefined || node === null) return;
  f(node);
  const n = node as Partial<hbs.AST.BlockStatement> & Partial<Program>;
  if (Array.isArray(n.body)) for (const s of n.body) visit(s, f);
  visit(n.program as Node | undefined, f);
  visit(n.inverse as Node | undefined, f);
}
