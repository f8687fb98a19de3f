/**
 * The default classification of one operation, by who controls the next step:
 * a GET that locates one stable thing by path parameters is application
 * context (a resource template) and a live fact (a read tool); a GET with
 * filters, sorting or paging is a read tool (never a query in a URI); POST and
 * PATCH are writes with an idempotency key; PUT is a naturally idempotent
 * write; DELETE, and operations that say they cannot be undone, are
 * irreversible and need approval. Mega-operations (a generic query, a proxy
 * path) are flagged and left out. Every decision carries its reason.
 */
import type { ApiOperation } from './operations.js';
import type { OperationOverride } from './config.js';

/** What becomes of one operation. */
export interface Decision {
  readonly kind: 'tool' | 'resource' | 'both' | 'excluded' | 'flagged';
  readonly sideEffect: 'read' | 'write' | 'irreversible';
  readonly idempotency: 'required' | 'natural' | 'none';
  readonly approval: 'required' | 'none';
  /** One line per decision, written as a comment above the primitive. */
  readonly reasons: readonly string[];
}

const MEGA_SEGMENTS = /^(query|sql|graphql|proxy|exec|execute|rpc|command|commands|run|eval|passthrough|forward)$/i;
const MEGA_FIELDS = /^(sql|query|statement|command|script|expression|url)$/i;
const UNDOABLE = /\b(cannot|can ?not|can't) be (undone|reversed|recovered)\b|\birreversibl[ey]\b|\bpermanent(ly)?\b/i;

/** Why an operation looks like a generic mega-operation, or undefined. */
export function megaReason(op: ApiOperation): string | undefined {
  const segments = op.path.split('/').filter(Boolean);
  const catchAll = segments.find((s) => /^\{.*(\+|\*|path|proxy).*\}$/i.test(s) || s === '*' || s === '**');
  if (catchAll) return `the path ends in a catch-all \`${catchAll}\` (a proxy): it can reach any upstream operation`;
  const generic = segments.find((s) => MEGA_SEGMENTS.test(s));
  if (generic) return `the path segment \`${generic}\` names a generic entry point, not a business outcome`;
  const props = bodyProperties(op.body?.schema);
  const field = props.find((p) => MEGA_FIELDS.test(p));
  if (field && props.length <= 3) return `its body is essentially a free-form \`${field}\` string: a mega-tool the model could do anything with`;
  return undefined;
}

function bodyProperties(schema: unknown): string[] {
  const props = schema && typeof schema === 'object' ? (schema as { properties?: Record<string, unknown> }).properties : undefined;
  return props ? Object.keys(props) : [];
}

/** True for a GET that addresses one stable thing: path parameters, the last segment one of them, no query. */
function locatesOne(op: ApiOperation): boolean {
  const segments = op.path.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  return /^\{.+\}$/.test(last) && !op.parameters.some((p) => p.in === 'query' || p.in === 'header') && op.response.kind !== 'none';
}

function bySideEffect(op: ApiOperation, text: string): Pick<Decision, 'sideEffect' | 'idempotency' | 'approval'> & { reason: string } {
  if (op.method === 'GET' || op.method === 'HEAD' || op.method === 'OPTIONS') return { sideEffect: 'read', idempotency: 'none', approval: 'none', reason: `${op.method} reads: sideEffect read` };
  if (op.method === 'DELETE') return { sideEffect: 'irreversible', idempotency: 'natural', approval: 'required', reason: 'DELETE removes data: irreversible, approval required; deleting twice leaves the same state (idempotency natural)' };
  if (UNDOABLE.test(text)) return { sideEffect: 'irreversible', idempotency: 'required', approval: 'required', reason: `${op.method} that says it cannot be undone: irreversible, approval and an idempotency key required` };
  if (op.method === 'PUT') return { sideEffect: 'write', idempotency: 'natural', approval: 'none', reason: 'PUT sets a state: write, idempotent by nature (idempotency natural, no key)' };
  return { sideEffect: 'write', idempotency: 'required', approval: 'none', reason: `${op.method} changes state: write; a retry must not repeat it (idempotency key required)` };
}

/** Classifies one operation, applying overrides (`x-mcp`, import config) last. */
export function classify(op: ApiOperation, override: OperationOverride & { sources: readonly string[] }, includeDeprecated: boolean): Decision {
  const text = `${op.summary ?? ''} ${op.description ?? ''}`;
  const effect = bySideEffect(op, text);
  const reasons = [effect.reason];
  const from = override.sources.length ? ` (${override.sources.join(', ')})` : '';
  if (override.exclude === true) return { ...effect, kind: 'excluded', reasons: [`excluded${from}`] };
  if (op.deprecated && !includeDeprecated && override.kind === undefined) return { ...effect, kind: 'excluded', reasons: ['excluded: the operation is deprecated (set includeDeprecated: true in the import config to keep it)'] };
  const mega = megaReason(op);
  if (mega && override.kind === undefined) return { ...effect, kind: 'flagged', reasons: [`flagged, not imported: ${mega}; expose the business outcomes it serves as their own operations, or set x-mcp.kind to import it anyway`] };
  let kind: Decision['kind'] = 'tool';
  if (effect.sideEffect === 'read' && locatesOne(op)) {
    kind = 'both';
    reasons.push('locates one stable thing by path parameters: a resource template (application context) and a read tool (a live fact)');
  } else if (effect.sideEffect === 'read' && op.parameters.some((p) => p.in === 'query')) {
    reasons.push('filters, sorts or pages with query parameters: a read tool, never a query in a resource URI');
  }
  let sideEffect = effect.sideEffect;
  if (override.sideEffect !== undefined && override.sideEffect !== sideEffect) {
    sideEffect = override.sideEffect;
    reasons.push(`sideEffect ${sideEffect}${from}`);
  }
  if (override.kind !== undefined && override.kind !== kind) {
    kind = override.kind;
    reasons.push(`kind ${kind}${from}`);
  }
  if (kind !== 'tool' && sideEffect !== 'read') {
    kind = 'tool';
    reasons.push('a resource never has a side effect: kept as a tool only');
  }
  const idempotency = sideEffect === 'read' ? 'none' : sideEffect === effect.sideEffect ? effect.idempotency : 'required';
  const approval = sideEffect === 'irreversible' ? 'required' : 'none';
  return { kind, sideEffect, idempotency, approval, reasons };
}
