/**
 * Shared fixture data of the conformance server: the media the scenarios
 * expect, and a small HMAC seal for `requestState` (the spec requires state a
 * client echoes back to be integrity-protected).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 1×1 red PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** Eight samples of 8-bit mono silence at 8 kHz, as a WAV file. */
export const WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';

const key = randomBytes(32);

function mac(body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

/** Seals `payload` as `<base64url json>.<hmac>`. */
export function sealState(payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(body)}`;
}

/** Returns the payload of a state sealed by {@link sealState}, or `undefined` when it is missing or tampered with. */
export function openState<T>(state: unknown): T | undefined {
  if (typeof state !== 'string') return undefined;
  const dot = state.lastIndexOf('.');
  if (dot < 0) return undefined;
  const body = state.slice(0, dot);
  const given = Buffer.from(state.slice(dot + 1));
  const expected = Buffer.from(mac(body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
