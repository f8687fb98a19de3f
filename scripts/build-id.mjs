// Writes dist/build-id.json: a hash of the compiled generator and its templates. The no-op fast path of
// `mcp-gen generate` trusts a cached run only when it was made by exactly this build.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const hash = createHash('sha256');
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) walk(full);
    else if (/\.(js|hbs|json)$/.test(e.name) && e.name !== 'build-id.json') hash.update(relative(root, full)).update('\0').update(readFileSync(full));
  }
};
walk(join(root, 'dist'));
walk(join(root, 'templates'));
writeFileSync(join(root, 'dist', 'build-id.json'), `${JSON.stringify({ buildId: hash.digest('hex') })}\n`);
