/**
 * Diff rules for what a contract records of stewardship and data handling: `outcome` and `owner` (every
 * kind), a resource's `classification`, `audience`, `maxBytes` and cache hints. Each decision is taken from
 * the client's side, like every other rule, and every change is reported:
 * - a lower size budget (or a first one) breaks: content the server used to send is now refused;
 * - a narrower audience (or a first one) breaks: readers outside it lose the content; a wider one is
 *   compatible for clients, and reported so a reviewer sees who the content now reaches;
 * - a higher classification (or a first confidential / restricted one) breaks: the server stops letting
 *   shared caches hold the content and the `authorize` hook sees a stricter level, so readers it served
 *   may be refused; a lower one is compatible;
 * - cache hints are freshness hints: compatible either way (a widening to `public` is said explicitly), for
 *   reads and for discovery and the listings alike.
 */
import { canonicalJson } from '../runtime/security/hash.js';
import type { Finding, Severity } from './types.js';

type Contract = Readonly<Record<string, unknown>>;

const LEVELS = ['public', 'internal', 'confidential', 'restricted'];
const show = (v: unknown): string => (typeof v === 'string' ? v : canonicalJson(v));
const finding = (path: string, change: string, severity: Severity, detail: string): Finding => ({ path, change, severity, detail });

/** `outcome` or `owner`: the card's wording, compatible, reported with both values. */
export function stewardship(key: 'outcome' | 'owner'): (a: Contract, b: Contract) => Finding[] {
  return (a, b) => [finding(key, `${key}-changed`, 'compatible', `${key} changed from ${show(a[key] ?? 'unset')} to ${show(b[key] ?? 'unset')}`)];
}

/** A resource's data classification. */
export function classification(a: Contract, b: Contract): Finding[] {
  const before = a['classification'] as string | undefined;
  const after = b['classification'] as string | undefined;
  if (after === undefined) return [finding('classification', 'classification-removed', 'compatible', `no longer classified (was ${show(before)})`)];
  if (before === undefined) {
    const strict = LEVELS.indexOf(after) >= LEVELS.indexOf('confidential');
    return [finding('classification', 'classification-added', strict ? 'breaking' : 'compatible', `now classified ${after}${strict ? ': reads are sent private and the authorize hook sees the level' : ''}`)];
  }
  const raised = LEVELS.indexOf(after) > LEVELS.indexOf(before);
  return [finding('classification', raised ? 'classification-raised' : 'classification-lowered', raised ? 'breaking' : 'compatible', `classification ${raised ? 'raised' : 'lowered'} from ${before} to ${after}`)];
}

/** Who may receive a resource: no `audience` means no stated restriction. */
export function audience(a: Contract, b: Contract): Finding[] {
  const before = a['audience'] as string[] | undefined;
  const after = b['audience'] as string[] | undefined;
  if (after === undefined) return [finding('audience', 'audience-widened', 'compatible', `audience no longer restricted (was ${before!.join(', ')}): review who the content now reaches`)];
  if (before === undefined) return [finding('audience', 'audience-narrowed', 'breaking', `audience now restricted to ${after.join(', ')}`)];
  const added = after.filter((x) => !before.includes(x));
  const removed = before.filter((x) => !after.includes(x));
  return [
    ...(added.length > 0 ? [finding('audience', 'audience-widened', 'compatible', `audience widened to ${added.join(', ')}: review who the content now reaches`)] : []),
    ...(removed.length > 0 ? [finding('audience', 'audience-narrowed', 'breaking', `audience no longer includes ${removed.join(', ')}`)] : []),
  ];
}

/** A resource's size budget. */
export function sizeBudget(a: Contract, b: Contract): Finding[] {
  const before = a['maxBytes'] as number | undefined;
  const after = b['maxBytes'] as number | undefined;
  if (after === undefined) return [finding('maxBytes', 'budget-removed', 'compatible', `no size budget any more (was ${before} bytes)`)];
  if (before === undefined) return [finding('maxBytes', 'budget-added', 'breaking', `reads over ${after} bytes are now refused`)];
  return after < before
    ? [finding('maxBytes', 'budget-lowered', 'breaking', `size budget lowered from ${before} to ${after} bytes: larger content is now refused`)]
    : [finding('maxBytes', 'budget-raised', 'compatible', `size budget raised from ${before} to ${after} bytes`)];
}

type Hint = { ttlMs: number; cacheScope: string };

/** A hint as recorded, over the protocol's default (0 ms, private) for whatever it leaves out. */
const hintOf = (v: unknown): Hint => ({ ttlMs: 0, cacheScope: 'private', ...(v as object | undefined) }) as Hint;

/** How one rule words its hint findings: the code prefix, the ttl label, the results the scope is about. */
interface HintWording {
  readonly path: string;
  readonly code: string;
  readonly label: string;
  readonly results: string;
}

/** The findings between two hints of one result. */
function hintFindings(x: Hint, y: Hint, w: HintWording): Finding[] {
  const out: Finding[] = [];
  if (x.ttlMs !== y.ttlMs) out.push(finding(`${w.path}.ttlMs`, `${w.code}-ttl-changed`, 'compatible', `${w.label} ttlMs changed from ${x.ttlMs} to ${y.ttlMs}`));
  if (x.cacheScope !== y.cacheScope) {
    const widened = y.cacheScope === 'public';
    const detail = widened ? `${w.results} may now be cached public: shared caches may serve them to any caller` : `${w.results} are now cached private only`;
    out.push(finding(`${w.path}.cacheScope`, `${w.code}-scope-${widened ? 'widened' : 'narrowed'}`, 'compatible', detail));
  }
  return out;
}

/** A resource's read cache hints; an absent `cache` is the protocol's default (0 ms, private). */
export function cacheHints(a: Contract, b: Contract): Finding[] {
  return hintFindings(hintOf(a['cache']), hintOf(b['cache']), { path: 'cache', code: 'cache', label: 'cache', results: 'reads' });
}

/**
 * The server's discovery and listing hints (`cacheHints` of the lock, method → hint). A method on one side
 * only is a kind the server started or stopped serving (its primitives report that); its hints are compared
 * with the protocol's default, which is what a client assumed of a method that said nothing.
 */
export function listingCacheHints(a: Contract, b: Contract): Finding[] {
  const before = (a['cacheHints'] ?? {}) as Record<string, unknown>;
  const after = (b['cacheHints'] ?? {}) as Record<string, unknown>;
  const methods = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return methods.flatMap((m) => hintFindings(hintOf(before[m]), hintOf(after[m]), { path: `cacheHints.${m}`, code: 'listing-cache', label: m, results: `${m} results` }));
}
