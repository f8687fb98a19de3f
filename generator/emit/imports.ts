/**
 * Drops import specifiers a generated file does not use, so the output also
 * compiles under `noUnusedLocals` and lint rules against unused imports.
 * Templates import everything a file may need; this keeps only what it does.
 */

const IMPORT = /^import (type )?\{([^}]*)\} from ('[^']+');\n/gm;
const NAMESPACE = /^import (type )?\* as ([A-Za-z_$][\w$]*) from ('[^']+');\n/gm;
const WIDTH = 110;

/** True when `name` appears as an identifier (not as a property after `.`, nor inside a quoted key). */
function uses(body: string, name: string): boolean {
  return new RegExp(`(?:^|(?<=[^\\w$.'"])|(?<=\\.\\.\\.))${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'm').test(body);
}

/** The file with unused named and namespace imports removed. */
export function pruneImports(code: string): string {
  const body = code.replace(IMPORT, '').replace(NAMESPACE, '');
  let out = code.replace(IMPORT, (_whole, typeOnly: string | undefined, list: string, from: string) => {
    const kept = list
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
      .filter((s) => uses(body, (s.split(/\s+as\s+/).pop() ?? s).replace(/^type\s+/, '')));
    if (kept.length === 0) return '';
    const one = `import ${typeOnly ?? ''}{ ${kept.join(', ')} } from ${from};\n`;
    return one.length <= WIDTH + 1 ? one : `import ${typeOnly ?? ''}{\n${kept.map((k) => `  ${k},`).join('\n')}\n} from ${from};\n`;
  });
  out = out.replace(NAMESPACE, (whole, _t: string | undefined, name: string) => (uses(body, `${name}`) ? whole : ''));
  return out;
}
