/**
 * Drops import specifiers a generated file does not use, so the output also
 * compiles under `noUnusedLocals` and lint rules against unused imports.
 * Templates import everything a file may need; this keeps only what it does.
 */

const IMPORT = /^import (type )?\{([^}]*)\} from ('[^']+');\n/gm;
const NAMESPACE = /^import (type )?\* as ([A-Za-z_$][\w$]*) from ('[^']+');\n/gm;
const WIDTH = 110;

/**
 * Which of `names` the code uses as identifiers: not right after a `.` (a property access) unless that is
 * a spread `...`. Each name is looked for with `indexOf` (far faster than one regex over the whole file)
 * until one occurrence stands alone; strings and comments count too, which can only keep an import, never
 * drop a used one.
 */
function usedNames(body: string, names: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const ident = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
  for (const name of names) {
    for (let i = body.indexOf(name); i !== -1; i = body.indexOf(name, i + 1)) {
      if (i > 0 && ident(body.charCodeAt(i - 1))) continue;
      if (ident(body.charCodeAt(i + name.length))) continue;
      if (i > 0 && body[i - 1] === '.' && !(i > 2 && body[i - 2] === '.' && body[i - 3] === '.')) continue;
      found.add(name);
      break;
    }
  }
  return found;
}

/** The local names an import list binds (`a`, `b as c` → `c`, `type T` → `T`). */
function localNames(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => (s.split(/\s+as\s+/).pop() ?? s).replace(/^type\s+/, ''));
}

/** The file with unused named and namespace imports removed. */
export function pruneImports(code: string): string {
  // Import statements sit at the top: the regexes only run over the part up to the last one.
  const last = code.lastIndexOf('\nimport ') + 1;
  if (last === 0 && !code.startsWith('import ')) return code;
  const end = code.indexOf(';\n', last);
  const split = end === -1 ? code.length : end + 2;
  const head = code.slice(0, split);
  const body = code.slice(split);
  const names = new Set<string>();
  for (const m of head.matchAll(IMPORT)) for (const n of localNames(m[2]!)) names.add(n);
  for (const m of head.matchAll(NAMESPACE)) names.add(m[2]!);
  const used = usedNames(body, names);
  for (const n of usedNames(head.replace(IMPORT, '').replace(NAMESPACE, ''), names)) used.add(n);
  let out = head.replace(IMPORT, (_whole, typeOnly: string | undefined, list: string, from: string) => {
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
  return out + body;
}
