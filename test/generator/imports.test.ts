/**
 * Emitters print the imports of a generated file from the names it uses (importStatement); nothing
 * prunes them afterwards. `npm run typecheck` compiles generated/ and the goldens with noUnusedLocals,
 * so an import a file does not use fails there; these tests pin the statement's layout.
 */
import { describe, expect, it } from 'vitest';
import { importStatement } from '../../generator/emit/text.js';

describe('importStatement', () => {
  it('prints nothing for no names, and one line when it fits', () => {
    expect(importStatement([], 'mcp-gen/runtime')).toBe('');
    expect(importStatement(['a', 'b as c', 'type T'], './x.js')).toBe("import { a, b as c, type T } from './x.js';");
    expect(importStatement(['Client'], '@modelcontextprotocol/client', true)).toBe("import type { Client } from '@modelcontextprotocol/client';");
  });

  it('puts one name per line when the statement would pass the line width', () => {
    const names = Array.from({ length: 12 }, (_, i) => `helperNumber${i}`);
    expect(importStatement(names, './harness.gen.js')).toBe(`import {\n${names.map((n) => `  ${n},`).join('\n')}\n} from './harness.gen.js';`);
  });

  it('escapes the module specifier', () => {
    expect(importStatement(['a'], "./it's.js")).toBe("import { a } from './it\\'s.js';");
  });
});
