/**
 * The Node ↔ fetch adapter of the HTTP host, kept to what every call pays for
 * at high request rates:
 *
 * - a request becomes one bodyless web `Request` (its body is read once into a
 *   buffer and parsed, and both SDK entries take the parsed body as given);
 * - an abort signal is only attached where something listens to it for the
 *   exchange's life (long-lived streams); an undici `Request` that follows a
 *   signal costs a listener, a `WeakRef` and a finalizer per request, which
 *   the garbage collector pays for on every call;
 * - a JSON answer goes out whole, with its length (no chunked framing); an
 *   event stream is written as its chunks come, its headers as soon as it
 *   starts, and its body is cancelled when the client goes away, so the SDK
 *   releases the stream (and a 2025 client can resume it with `Last-Event-ID`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The URL of the Node request (parsed once: routing reads its path, the web `Request` is built on it). */
export function urlOf(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://localhost');
}

/** The Node request's headers as web `Headers` (as Node parsed them: repeated headers kept where HTTP allows). */
function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

/** A bodyless web `Request` for `req`, without an abort signal (see {@link withSignal}). */
export function toRequest(req: IncomingMessage, url: URL): Request {
  return new Request(url, { method: req.method ?? 'GET', headers: toHeaders(req) });
}

/** The same request with `signal` attached, for a request that turned out to open a stream: aborting it ends the stream. */
export function withSignal(request: Request, signal: AbortSignal): Request {
  return new Request(request, { signal });
}

/** What reading a POST body gave: its bytes, or the size it was over. */
export type BodyRead = { readonly bytes: Buffer } | { readonly tooLarge: true };

/** Reads the Node request's body into one buffer, stopping at `max` bytes. */
export function readNodeBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > max) {
        // The rest is never read: the answer closes the connection (an unbounded body is not drained).
        req.off('data', onData);
        req.pause();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }));
    req.once('error', reject);
  });
}

const isEventStream = (contentType: string | undefined): boolean => contentType !== undefined && /^\s*text\/event-stream/i.test(contentType);

/** Writes a web `Response` to Node's `res`: JSON and other bodies at once, event streams as they come. */
export async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  if (response.body === null) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (!isEventStream(headers['content-type'])) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.byteLength);
    res.writeHead(response.status, headers);
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  await streamBody(response.body, res);
}

/**
 * Copies an event stream to `res` as its chunks come. Node already coalesces the writes of one tick
 * (headers, a priming event, a fast result, the end) into one syscall; the headers alone go out at the
 * end of the first turn when no event has come yet, since a client waits for them before it reads the
 * stream (`writeHead` only stores them). When the client goes away the body is cancelled, which tells
 * the SDK the stream is gone.
 */
async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  let written = false;
  setImmediate(() => {
    if (!written && !res.destroyed && !res.writableEnded) res.flushHeaders();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) continue;
      written = true;
      res.write(value);
    }
  } catch {
    // The stream was cancelled (client gone) or failed: there is nothing left to send.
  } finally {
    res.off('close', cancel);
    res.end();
  }
}
