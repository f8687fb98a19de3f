/**
 * The import config file (`--config`, YAML or JSON) and the `x-mcp` extension:
 * overrides of the default classification by operation, path pattern, method
 * or tag. Later rules win; `x-mcp` on the operation wins over the file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
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

const RULE_KEYS = new Set(['path', 'method', 'tag', 'operationId', 'name', 'kind', 'sideEffect', 'exclude']);

/** Reads and checks a config file; unknown keys are errors. */
export function loadImportConfig(file: string): ImportConfig {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: cannot read the import config: ${e instanceof Error ? e.message : String(e)}`);
  }
  const c = (raw ?? {}) as ImportConfig & Record<string, unknown>;
  for (const k of Object.keys(c)) if (!['server', 'includeDeprecated', 'envPrefix', 'overrides'].includes(k)) throw new UserError(`${file}: unknown key \`${k}\` (known: server, includeDeprecated, envPrefix, overrides)`);
  (c.overrides ?? []).forEach((r, i) => {
    for (const k of Object.keys(r)) if (!RULE_KEYS.has(k)) throw new UserError(`${file}: overrides[${i}]: unknown key \`${k}\` (known: ${[...RULE_KEYS].join(', ')})`);
    if (r.kind !== undefined && !['tool', 'resource', 'both'].includes(r.kind)) throw new UserError(`${file}: overrides[${i}].kind must be tool, resource or both`);
    if (r.sideEffect !== undefined && !['read', 'write', 'irreversible'].includes(r.sideEffect)) throw new UserError(`${file}: overrides[${i}].sideEffect must be read, write or irreversible`);
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
