/**
 * Word lists and identifier splitting shared by the rules. Kept in one place
 * so every rule agrees on what counts as a read verb, a write verb or a
 * secret-looking name.
 */

/** Verbs that only observe. */
export const READ_VERBS: ReadonlySet<string> = new Set([
  'get', 'read', 'list', 'search', 'find', 'fetch', 'view', 'show', 'describe', 'count', 'query', 'lookup',
  'look', 'check', 'inspect', 'preview', 'peek', 'browse', 'stat', 'status', 'info', 'download', 'export', 'retrieve',
]);

/** Verbs that change state somewhere. */
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  'create', 'add', 'insert', 'upsert', 'update', 'edit', 'modify', 'patch', 'put', 'post', 'set', 'write', 'save',
  'delete', 'remove', 'erase', 'purge', 'destroy', 'drop', 'truncate', 'clear', 'reset', 'send', 'email', 'submit',
  'pay', 'charge', 'refund', 'transfer', 'merge', 'deploy', 'publish', 'book', 'cancel', 'approve', 'reject',
  'revoke', 'grant', 'close', 'archive', 'move', 'rename', 'upload', 'execute', 'run', 'trigger', 'notify', 'assign',
  'import', 'restore', 'enable', 'disable', 'start', 'stop', 'kill', 'install', 'uninstall',
]);

/** Splits an identifier into lowercase words: `sortOrder`, `api_key`, `x-api-key` → words. */
export function identifierWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** The verb an enum value or tool name starts with, when it has one. */
export function leadingVerb(value: string, verbs: ReadonlySet<string>): string | undefined {
  const first = identifierWords(value)[0];
  return first !== undefined && verbs.has(first) ? first : undefined;
}

const SECRET_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'pwd', 'passphrase', 'apikey', 'credential', 'credentials', 'privatekey', 'accesskey', 'secretkey', 'signature', 'sig', 'otp', 'pin']);
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'auth', 'session', 'signing', 'encryption']);

/** True when a name reads like a credential: `token`, `apiKey`, `client_secret`, `password`, bare `key`. */
export function isSecretName(name: string): boolean {
  const words = identifierWords(name);
  if (words.length === 1 && words[0] === 'key') return true;
  return words.some((w, i) => SECRET_WORDS.has(w) || (w === 'key' && i > 0 && KEY_QUALIFIERS.has(words[i - 1]!)));
}

/** Literal values shaped like well-known credentials (API keys, bot tokens, cloud access keys). */
const SECRET_VALUE = /^(?:sk[-_](?:live|test)?[-_]?[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+)/;

/** True when a literal URI segment looks like a credential value rather than a name. */
export function isSecretValue(segment: string): boolean {
  return SECRET_VALUE.test(segment);
}
