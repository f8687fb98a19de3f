import { FOLDER_NAME, toFolderName } from '../../ir/names.js';
import type { Check, CheckContext } from './context.js';

// semver.org's official pattern.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/**
 * `server.name` is any string (it is only published); the output folder, `server.folder` or derived
 * from the name, must be a safe folder name. `server.version` is any string for `serverInfo` (the
 * specification puts no rule on it), with a warning when it is not semver, which packaging expects.
 */
function checkServerSection({ m, r }: CheckContext): void {
  const { name, version, folder } = m.server;
  if (folder !== undefined && (!FOLDER_NAME.test(folder) || folder.length > 64)) {
    r.error('MG201', ['server', 'folder'], `output folder \`${folder}\` must be lowercase letters, digits and single dashes, at most 64 characters`,
      `use \`${toFolderName(folder) || 'my-server'}\``);
  } else if (folder === undefined && toFolderName(name) === '') {
    r.error('MG201', ['server', 'name'], `no output folder can be derived from server name \`${name}\` (it has no letter or digit a-z 0-9)`,
      'add `folder:` under `server:`, e.g. `folder: my-server`');
  }
  if (!SEMVER.test(version)) {
    r.warn('MG202', ['server', 'version'], `server version \`${version}\` is not a semantic version; it is published as written`,
      'write MAJOR.MINOR.PATCH (e.g. `1.0.0`) if the server is packaged (mcpb, server.json) or its clients compare versions');
  }
}

/** The server's name, output folder and version. */
export const checkServer: Check = { whole: checkServerSection };
