/**
 * Errors handlers throw on purpose, and the one place unexpected errors are
 * reported. Anything not listed here is treated as a bug: the client gets a
 * generic message, the operator gets the details through `onError`.
 */
import { ProtocolError } from '@modelcontextprotocol/server';

/** Which primitive an error came from, as passed to `ServerOptions.onError`. */
export interface ErrorSource {
  readonly kind: 'tool' | 'resource' | 'prompt' | 'completion' | 'subscription' | 'host';
  readonly name: string;
}

/**
 * A domain failure of a tool ("ticket is closed"): the message is meant for the
 * model and is returned as an `isError` result.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/**
 * Thrown by `ctx.readResource` when the caller may not read the resource (or it does not exist): the
 * refusal of the read's own gates, passed to the client with its message by every kind of handler.
 */
export class ReadRefused extends ProtocolError {
  override readonly name = 'ReadRefused';
}

/**
 * A domain failure of a prompt (an argument combination that makes no sense):
 * answered as -32602 Invalid Params with this message.
 */
export class PromptError extends Error {
  override readonly name = 'PromptError';
}

/** Thrown by a resource handler when the requested instance does not exist. */
export class ResourceNotFound extends Error {
  override readonly name = 'ResourceNotFound';
  /** The URI that was not found; the requested URI when omitted. */
  readonly uri: string | undefined;
  constructor(uri?: string) {
    super(uri === undefined ? 'Resource not found' : `Resource not found: ${uri}`);
    this.uri = uri;
  }
}

/** Returns a {@link ResourceNotFound} to throw: `throw resourceNotFound()`. */
export function resourceNotFound(uri?: string): ResourceNotFound {
  return new ResourceNotFound(uri);
}

/** Thrown by generated handler stubs until the author fills them in. */
export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
  readonly kind: string;
  readonly primitive: string;
  constructor(kind: string, primitive: string) {
    super(`Not implemented: ${kind} ${primitive} has no handler yet (edit its handler file).`);
    this.kind = kind;
    this.primitive = primitive;
  }
}

/** Returns the error a handler stub throws: `throw notImplemented('tool', 'tickets.get')`. */
export function notImplemented(kind: string, name: string): NotImplementedError {
  return new NotImplementedError(kind, name);
}

/** Where diagnostics go: anything with `write(string)`, stderr by default. Never stdout. */
export interface TextSink {
  write(text: string): unknown;
}

/** The default `onError`: one line on stderr, without the stack (that is the hook's job). */
export function defaultErrorReporter(sink: TextSink): (error: unknown, source: ErrorSource) => void {
  return (error, source) => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    sink.write(`[mcp-gen] error in ${source.kind} ${source.name}: ${text.replace(/\s+/g, ' ')}\n`);
  };
}
