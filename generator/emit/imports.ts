/**
 * Drops import specifiers a generated file does not use, so the output also
 * compiles under `noUnusedLocals` and lint rules against unused imports.
 * Templates import everything a file may need; this keeps only what it does.
 */

const IMPORT = /^import (type )?\{([^}]*)\} from ('[^']+');\n/gm;
const NAMESPACE = /^import (type )?\* as ([A-Za-z_$][\w$]*) from ('[^']+');\n/gm;
const WIDTH = 110;

/**
 * Every identifier the code uses, in one pass: words not preceded by a `.` (a property access) unless it
 * is a spread `...`. Strings and comments count too, which can only keep an import, never drop a used one.
 */
function identifiers(body: string): Set<string> {
  const out = new Set<string>();
  const word = /[A-Za-z_$][\w$]*/g;
  for (let m = word.exec(body); m !== null; m = word.exec(body)) {
    const i = m.index;
    if (i > 0 && body[i - 1] === '.' && !(i > 2 && body[i - 2] === '.' && body[i - 3] === '.')) continue;
    out.add(m[0]);
  }
  return out;
}

/** The file with unused named and namespace imports removed. */
export function pruneImports(code: string): string {
  const used = identifiers(code.replace(IMPORT, '').replace(NAMESPACE, ''));
  let out = code.replace(IMPORT, (_whole, typeOnly: string | undefined, list: string, from: string) => {
    const kept = list
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
      .filter((s) => used.has((s.split(/\s+as\s+/).pop() ?? s).replace(/^type\s+/, '')));
    if (kept.length === 0) return '';
    const one = `import ${typeOnly ?? ''}{ ${kept.join(', ')} } from ${from};\n`;
    return one.length <= WIDTH + 1 ? one : `import ${typeOnly ?? ''}{\n${kept.map((k) => `  ${k},`).join('\n')}\n} from ${from};\n`;
  });
  out = out.replace(NAMESPACE, (whole, _t: string | undefined, name: string) => (used.has(name) ? whole : ''));
  return out;
}
