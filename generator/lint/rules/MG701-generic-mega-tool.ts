import type { IrTool } from '../../ir/types.js';
import { topProperties } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';
import { identifierWords } from '../words.js';

/** Names of tools that hand the model raw transport power instead of an outcome. */
const GENERIC_NAMES = new Set([
  'http', 'http_request', 'http_call', 'request', 'fetch', 'fetch_url', 'curl', 'call_api', 'api_call', 'api_request',
  'execute_api', 'invoke_api', 'api', 'rest', 'rest_call', 'graphql', 'graphql_query', 'database_query', 'db_query',
  'query_database', 'query_db', 'run_sql', 'execute_sql', 'exec_sql', 'sql', 'sql_query', 'run_query',
  'execute_query', 'filesystem', 'file_system', 'fs', 'file_operation', 'file_op', 'shell', 'run_command',
  'execute_command', 'exec', 'run_shell', 'bash', 'eval', 'proxy',
]);

const HINT = 'expose business outcomes instead: one narrow tool per operation (for example `orders.get` to read, `orders.refund` to write) with typed, bounded arguments and its own sideEffect';

function genericName(name: string): boolean {
  const words = identifierWords(name);
  return GENERIC_NAMES.has(words.join('_')) || (words.length > 1 && GENERIC_NAMES.has(words.slice(1).join('_')));
}

const URL_NAMES = ['url', 'uri', 'endpoint', 'href', 'base_url', 'target_url'];
/** Words of a tool name that mean "go and request this address" (a URL stored as data is fine). */
const CALL_WORDS = new Set(['fetch', 'request', 'call', 'http', 'proxy', 'download', 'crawl', 'scrape', 'browse', 'curl', 'invoke', 'webhook']);

/** True when the URL is a target the server will call: next to a method/headers/body, or in a fetch-like tool. */
function callsOut(tool: IrTool, siblings: Set<string>): boolean {
  return ['method', 'http_method', 'headers', 'body', 'payload'].some((x) => siblings.has(x)) || identifierWords(tool.name).some((w) => CALL_WORDS.has(w));
}

const closed = (s: Record<string, unknown>): boolean => 'enum' in s || 'const' in s;
const HTTP_VERBS = /^(get|post|put|patch|delete|head|options)$/i;

/** Why one input property is a free-form switch, or undefined. */
function freeForm(name: string, s: Record<string, unknown>, tool: IrTool, siblings: Set<string>): string | undefined {
  const n = identifierWords(name).join('_');
  if (URL_NAMES.includes(n) && !closed(s) && !('pattern' in s) && callsOut(tool, siblings)) return 'a free-form URL to call';
  if (['method', 'http_method'].includes(n)) {
    const values = Array.isArray(s.enum) ? s.enum : [];
    if (!closed(s) || values.filter((v) => typeof v === 'string' && HTTP_VERBS.test(v)).length >= 2) return 'a free-form HTTP method';
  }
  if (['sql', 'statement', 'sql_query', 'query_sql', 'raw_query'].includes(n) && !closed(s)) return 'raw SQL';
  if (n === 'query' && !closed(s)) {
    const about = `${String(s.description ?? '')} ${tool.description ?? ''} ${tool.name}`;
    if (/\bsql\b|\bselect\b.*\bfrom\b|\bdatabase\b|\bdb\b/i.test(about)) return 'a SQL query';
  }
  if (['command', 'cmd', 'script', 'shell'].includes(n) && !closed(s)) return 'a free-form command';
  if (['operation', 'action', 'op'].includes(n) && [...siblings].some((x) => ['path', 'file', 'file_path', 'filepath', 'filename'].includes(x))) {
    return 'a path plus an operation switch';
  }
  return undefined;
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const t of ctx.ir.tools) {
    if (genericName(t.name)) {
      out.push({ path: ['tools', t.name], at: 'key', message: `\`${t.name}\` is a generic mega-tool name: it hides which effect the model is asking for`, hint: HINT });
    }
    const props = topProperties(t.input, ['tools', t.name, 'input'], ctx.named);
    const names = new Set(props.map((p) => identifierWords(p.name).join('_')));
    for (const p of props) {
      const why = freeForm(p.name, p.schema, t, names);
      if (why) {
        out.push({ path: p.path, at: 'key', message: `input \`${p.name}\` of \`${t.name}\` takes ${why}, which turns the tool into a generic mega-tool`, hint: HINT });
      }
    }
  }
  return out;
}

/** MG701: generic mega-tools and free-form transport arguments. */
export const rule: LintRule = {
  code: 'MG701',
  name: 'generic-mega-tool',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A tool named or shaped like a generic transport (`http_request`, `execute_api`, `run_sql`, `filesystem`) or taking a free-form URL, method, SQL, command, or path plus operation.',
  check,
};
