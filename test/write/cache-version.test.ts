import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
// The build id exists only in dist/ (written by `npm run build`, which `npm test` runs first).
import { cacheVersion } from '../../dist/write/cache-store.js';

const require = createRequire(import.meta.url);

describe('cacheVersion', () => {
  // A kept result is only as good as the libraries that computed it: each must be named with its real version,
  // including re2js, whose exports do not list its package.json.
  it.each(['json-schema-to-typescript', 'randexp', '@cfworker/json-schema', 'ajv', 'ajv-formats', 'safe-regex2', 're2js', 'js-yaml'])('names the installed version of %s', (name) => {
    const version = cacheVersion();
    expect(version).toBeDefined();
    const named = version!.split(' ').find((part) => part.startsWith(`${name}@`));
    expect(named).toMatch(/@\d+\.\d+\.\d+/);
    if (name !== 're2js') expect(named).toBe(`${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
  });
});
