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
 * - cache hints are freshness hints: compatible either way (a widening to `public` is said explicitly).
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

/** A resource's read cache hints; an absent `cache` is the protocol's default (0 ms, private). */
export function cacheHints(a: Contract, b: Contract): Finding[] {
  const hint = (c: Contract) => ({ ttlMs: 0, cacheScope: 'private', ...(c['cache'] as object | undefined) }) as { ttlMs: number; cacheScope: string };
  const x = hint(a);
  const y = hint(b);
  const out: Finding[] = [];
  if (x.ttlMs !== y.ttlMs) out.push(finding('cache.ttlMs', 'cache-ttl-changed', 'compatible', `cache ttlMs changed from ${x.ttlMs} to ${y.ttlMs}`));
  if (x.cacheScope !== y.cacheScope) {
    const widened = y.cacheScope === 'public';
    out.push(finding('cache.cacheScope', widened ? 'cache-scope-widened' : 'cache-scope-narrowed', 'compatible', widened ? 'reads may now be cached public: shared caches may serve them to any caller' : 'reads are now cached private only'));
  }
  return out;
}
