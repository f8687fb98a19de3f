import type { CheckContext } from './context.js';

const SERVER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
// semver.org's official pattern.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** server.name becomes a folder name; server.version must be semver. */
export function checkServer({ m, r }: CheckContext): void {
  const { name, version } = m.server;
  if (!SERVER_NAME.test(name) || name.length > 64) {
    const fixed = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'my-server';
    r.error(
      'MG201',
      ['server', 'name'],
      `server name \`${name}\` must be lowercase letters, digits and single dashes, at most 64 characters (it becomes a folder name)`,
      `use \`${fixed}\``,
    );
  }
  if (!SEMVER.test(version)) {
    r.error('MG202', ['server', 'version'], `server version \`${version}\` is not a semantic version`, 'write MAJOR.MINOR.PATCH, e.g. `1.0.0`');
  }
}
