/**
 * What a resource read carries besides its bytes, and the bound on those bytes: the size budget
 * (`maxBytes`, checked on every read, embedded reads included), the content metadata (`revision`,
 * `lastModified` in each contents entry's `_meta`) and the 2026-07-28 cache hint of the read.
 */
import { ProtocolError, ProtocolErrorCode, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { Runtime, ServedRevision } from './context.js';
import type { ResourceCache, ResourceSpec } from './types.js';

type ResourceContents = ReadResourceResult['contents'][number];

/**
 * A read whose content is over the resource's size budget. The author learns the sizes (error report and
 * audit reason); the client gets this error and never the content.
 */
export class OverBudget extends ProtocolError {
  readonly outcome = 'too_large' as const;
  constructor(
    readonly resource: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(ProtocolErrorCode.InternalError, `Resource ${resource} produced more content than its size budget allows.`);
  }

  /** The sentence for the author (error report, audit reason): the sizes, no content. */
  get detail(): string {
    return `Resource ${this.resource} returned ${this.bytes} bytes, over its size budget of ${this.maxBytes} bytes (maxBytes); the read was refused.`;
  }
}

/** Bytes a base64 string decodes to, without decoding it (padding and whitespace aside). */
export function base64Bytes(blob: string): number {
  const clean = blob.replace(/[\s=]+/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/** The size of one contents entry as the budget counts it: UTF-8 bytes of text, decoded bytes of a blob. */
export function contentBytes(entry: ResourceContents): number {
  if ('text' in entry && typeof entry.text === 'string') return Buffer.byteLength(entry.text, 'utf8');
  if ('blob' in entry && typeof entry.blob === 'string') return base64Bytes(entry.blob);
  return 0;
}

/**
 * Checks `entry` against the budget and adds the content metadata: the declared one, or what the handler
 * said it served (`ctx.servedRevision`), which is what the client must see when the two differ. Over
 * budget: reported to the author (`onError`) and thrown as {@link OverBudget}.
 */
export function finishContents(rt: Runtime, spec: ResourceSpec, entry: ResourceContents, served?: ServedRevision): ResourceContents {
  if (spec.maxBytes !== undefined) {
    const bytes = contentBytes(entry);
    if (bytes > spec.maxBytes) {
      const error = new OverBudget(spec.name, bytes, spec.maxBytes);
      rt.reportError(new Error(error.detail), { kind: 'resource', name: spec.name });
      throw error;
    }
  }
  const meta = served === undefined ? spec.meta : { ...spec.meta, ...served };
  return meta === undefined ? entry : { ...entry, _meta: { ...meta } };
}

/**
 * The cache hint the SDK puts on this resource's 2026-07-28 read results: the manifest's policy, made
 * `private` when the server has an `authorize` hook (it decides per caller, so a shared cache must not
 * serve one caller's read to another).
 */
export function readCacheHint(rt: Runtime, spec: ResourceSpec): ResourceCache {
  const hint = spec.cache ?? { ttlMs: 0, cacheScope: 'private' };
  return rt.options.authorize !== undefined ? { ttlMs: hint.ttlMs, cacheScope: 'private' } : { ...hint };
}
