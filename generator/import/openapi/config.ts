/**
 * The import config file (`--config`, YAML or JSON) and the `x-mcp` extension:
 * overrides of the default classification by operation, path pattern, method
 * or tag. Later rules win; `x-mcp` on the operation wins over the file.
 */
import { readFileSync } from 'node:fs';
import { type Document, isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { UserError } from '../../diagnostics.js';

/** What an override may set for an operation. */
export interface OperationOverride {
  /** Tool (or resource) name. */
  name?: string;
  /** `tool`, `resource` (template only), `both` (resource template and read tool). */
  kind?: 'tool' | 'resource' | 'both';
  sideEffect?: 'read' | 'write' | 'irreversible';
  exclude?: boolean;
}

/** One rule of the config file: which operations, and what to set. */
export interface OverrideRule extends OperationOverride {
  /** Glob over the path (`*` one segment, `**` any); `/admin/**`. */
  path?: string;
  method?: string;
  tag?: string;
  operationId?: string;
}

/** The import config file. */
export interface ImportConfig {
  /** The server name (default: from `info.title`). */
  server?: string;
  /** Import deprecated operations too (default: they are excluded). */
  includeDeprecated?: boolean;
  /** Environment variable prefix (default: the server name in upper case). */
  envPrefix?: string;
  overrides?: OverrideRule[];
}

const TOP_KEYS = ['server', 'includeDeprecated', 'envPrefix', 'overrides'];
const RULE_KEYS = ['path', 'method', 'tag', 'operationId', 'name', 'kind', 'sideEffect', 'exclude'];
const ENUMS: Record<string, readonly string[]> = { kind: ['tool', 'resource', 'both'], sideEffect: ['read', 'write', 'irreversible'] };

/** `file:line:column` of the node at `path` (its key for `at: 'key'`), for located config errors. */
function locator(file: string, doc: Document, lines: LineCounter): (path: (string | number)[], at?: 'key') => string {
  return (path, at) => {
    const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1]) : undefined;
    const node = at === 'key' ? pair?.key : doc.getIn(path, true);
    const start = (node as { range?: [number] } | undefined)?.range?.[0] ?? 0;
    const { line, col } = lines.linePos(start);
    return `${file}:${line}:${col}`;
  };
}

/** Reads and checks a config file; unknown keys and values are located errors. */
export function loadImportConfig(file: string): ImportConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`${file}: cannot read the import config (no such file?)`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const where = locator(file, doc, lines);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new UserError(`${file}:${e.linePos?.[0]?.line ?? 1}:${e.linePos?.[0]?.col ?? 1}: not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  const c = (doc.toJS() ?? {}) as ImportConfig & Record<string, unknown>;
  for (const k of Object.keys(c)) if (!TOP_KEYS.includes(k)) throw new UserError(`${where([k], 'key')}: unknown key \`${k}\` (known: ${TOP_KEYS.join(', ')})`);
  if (c.overrides !== undefined && !Array.isArray(c.overrides)) throw new UserError(`${where(['overrides'])}: \`overrides\` is a list of rules`);
  (c.overrides ?? []).forEach((r, i) => {
    for (const k of Object.keys(r)) if (!RULE_KEYS.includes(k)) throw new UserError(`${where(['overrides', i, k], 'key')}: unknown key \`${k}\` (known: ${RULE_KEYS.join(', ')})`);
    for (const [k, allowed] of Object.entries(ENUMS)) {
      const v = (r as Record<string, unknown>)[k];
      if (v !== undefined && !allowed.includes(String(v))) throw new UserError(`${where(['overrides', i, k])}: \`${k}: ${String(v)}\` is not allowed; use ${allowed.join(', ')}`);
    }
  });
  return c;
}

function globToRegex(glob: string): RegExp {
  const body = glob.split('**').map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*');
  return new RegExp(`^${body}$`);
}

/** What applies to one operation: config rules in order, then its `x-mcp`. */
export function overridesFor(config: ImportConfig, op: { path: string; method: string; tags: readonly string[]; operationId?: string; xMcp: unknown }): OperationOverride & { sources: string[] } {
  const out: OperationOverride & { sources: string[] } = { sources: [] };
  (config.overrides ?? []).forEach((r, i) => {
    if (r.path !== undefined && !globToRegex(r.path).test(op.path)) return;
    if (r.method !== undefined && r.method.toUpperCase() !== op.method.toUpperCase()) return;
    if (r.tag !== undefined && !op.tags.includes(r.tag)) return;
    if (r.operationId !== undefined && r.operationId !== op.operationId) return;
    const { path: _p, method: _m, tag: _t, operationId: _o, ...set } = r;
    Object.assign(out, set);
    out.sources.push(`import config overrides[${i}]`);
  });
  if (op.xMcp === false) {
    out.exclude = true;
    out.sources.push('x-mcp: false');
  } else if (op.xMcp && typeof op.xMcp === 'object') {
    const x = op.xMcp as OperationOverride;
    for (const k of ['name', 'kind', 'sideEffect', 'exclude'] as const) if (x[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = x[k];
    out.sources.push('x-mcp');
  }
  return out;
}
