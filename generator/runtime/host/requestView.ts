/**
 * The web `Request` a handler sees as `ctx.sdk.http.req` on the direct lane, built only if something reads
 * it. Building an undici `Request` (its `Headers`, its URL, the abort signal every request carries) costs
 * a good part of a fast call, and almost no handler looks at it; the view is a `Request` (it passes
 * `instanceof Request` and has every member) whose web object is made from the Node request on the first
 * read of any member, and answers every read from it after that. Like the SDK entry's request, it carries
 * no body: the body was read and parsed before dispatch.
 */
import type { IncomingMessage } from 'node:http';
import { toRequest } from './nodeAdapter.js';

const REAL = Symbol('mcp-gen.request');

interface Source {
  readonly req: IncomingMessage;
  readonly url: () => URL;
  made?: Request;
}

type View = { readonly [REAL]: Source };

function real(view: View): Request {
  const source = view[REAL];
  return (source.made ??= toRequest(source.req, source.url()));
}

/** A `Request` whose members all come from the real one, made on first use. */
class RequestView implements View {
  readonly [REAL]: Source;
  constructor(source: Source) {
    this[REAL] = source;
  }
}

// Every member of `Request.prototype` (getters and methods, brand-checked by undici) is answered by the real
// request, so nothing ever runs a `Request` member on the view itself.
for (const key of Reflect.ownKeys(Request.prototype)) {
  if (key === 'constructor') continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key)!;
  if (descriptor.get) {
    Object.defineProperty(RequestView.prototype, key, { configurable: true, get(this: View) { return (real(this) as unknown as Record<PropertyKey, unknown>)[key]; } });
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(RequestView.prototype, key, { configurable: true, writable: true, value(this: View, ...args: unknown[]) { const r = real(this) as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>; return r[key]!.apply(r, args); } });
  }
}
Object.setPrototypeOf(RequestView.prototype, Request.prototype);

/** The request view of `req` (a bodyless `Request` for `url()` with its method and headers). */
export function lazyRequest(req: IncomingMessage, url: () => URL): Request {
  return new RequestView({ req, url }) as unknown as Request;
}
