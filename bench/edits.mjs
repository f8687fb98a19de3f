/**
 * One-primitive edits on manifests of several shapes (group `edits`): for each shape and each kind of
 * edit, the regeneration after the edit and after its revert, timed against the no-op in the same rounds
 * (no-op, edit, revert, in turn), each a cold command. The first edit of each kind is checked to write
 * exactly what a `--no-cache` generation of the edited manifest writes.
 *
 * Edits are made on the YAML document (`yaml`'s `parseDocument`), so they work on any manifest: the
 * manifest is first written back once through the same library, so that an edit changes only the entry
 * it touches. The entry edited is the middle one of its section.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import YAML from 'yaml';

const middle = (doc, section) => {
  const items = doc.get(section)?.items ?? [];
  if (items.length === 0) return undefined;
  const pair = items[Math.floor(items.length / 2)];
  return String(pair.key.value ?? pair.key);
};

/** Edit kinds: each changes one primitive of the document, or answers false when the manifest has none to change. */
export const EDITS = {
  'tool description': (doc, i) => {
    const k = middle(doc, 'tools');
    return k !== undefined && (doc.setIn(['tools', k, 'description'], `${doc.getIn(['tools', k, 'description']) ?? ''} Edit ${i}.`), true);
  },
  'tool input schema': (doc, i) => {
    const k = middle(doc, 'tools');
    const props = k === undefined ? undefined : doc.getIn(['tools', k, 'input', 'properties']);
    const first = props?.items?.[0];
    if (!first) return false;
    doc.setIn(['tools', k, 'input', 'properties', String(first.key.value ?? first.key), 'description'], `Edited ${i}.`);
    return true;
  },
  'tool added': (doc, i) => {
    const k = middle(doc, 'tools');
    if (k === undefined) return false;
    const tools = doc.get('tools');
    const at = tools.items.findIndex((p) => String(p.key.value ?? p.key) === k);
    tools.items.splice(at + 1, 0, doc.createPair(`${k}_copy${i}`, doc.getIn(['tools', k]).clone()));
    return true;
  },
  // The removed tool's handler file stays (as an author's would): it is kept and marked out of the type check.
  'tool removed': (doc) => {
    const k = middle(doc, 'tools');
    return k !== undefined && (doc.deleteIn(['tools', k]), true);
  },
  'resource description': (doc, i) => {
    const k = middle(doc, 'resources');
    return k !== undefined && (doc.setIn(['resources', k, 'description'], `${doc.getIn(['resources', k, 'description']) ?? ''} Edit ${i}.`), true);
  },
  'prompt description': (doc, i) => {
    const k = middle(doc, 'prompts');
    return k !== undefined && (doc.setIn(['prompts', k, 'description'], `${doc.getIn(['prompts', k, 'description']) ?? ''} Edit ${i}.`), true);
  },
};

/** The generator-owned files of a folder, by relative path. */
function generatedFiles(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.gen(\.test)?\.ts$|mcp\.lock\.json$|CONTRACTS\.md$|\.mcp-gen\.json$/.test(e.name)) out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/**
 * Times every edit of `EDITS` on the manifest `source` (copied into `work`), `runs` rounds each; returns
 * per edit the medians of the no-op, the edit and its revert in ms. `layout` lays the written text out as
 * another writer would (`jsonIndent`: JSON.stringify's indentation, 2 by default; `text`: a function of
 * the written text, applied alike to every version, so an edit still changes only the entry it touches).
 */
export function editsOn({ source, work, runs, node, cli, layout = {} }) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // The files the manifest names (a resource's `source:`) come along; a generated folder beside it does not.
  for (const e of readdirSync(dirname(source), { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== 'out') cpSync(join(dirname(source), e.name), join(work, e.name), { recursive: true });
  }
  // A JSON manifest stays JSON, laid out as JSON.stringify lays it out.
  const json = source.endsWith('.json');
  const plain = (doc) => (json ? `${JSON.stringify(doc.toJS(), null, layout.jsonIndent ?? 2)}\n` : doc.toString({ lineWidth: 0 }));
  const written = (doc) => (layout.text ? layout.text(plain(doc)) : plain(doc));
  // Edits are made on the plain text's document (the layout applies to what is written).
  const plainBase = plain(YAML.parseDocument(readFileSync(source, 'utf8')));
  const base = layout.text ? layout.text(plainBase) : plainBase;
  const m = join(work, json ? 'mcp.manifest.json' : 'mcp.manifest.yaml');
  const out = join(work, 'out');
  writeFileSync(m, base);
  const run = (args) => {
    const t0 = process.hrtime.bigint();
    execFileSync(node, [cli, ...args], { stdio: 'pipe', maxBuffer: 1 << 28 });
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  run(['generate', m, '--out', out]);
  const results = [];
  for (const [name, edit] of Object.entries(EDITS)) {
    const edited = (i) => {
      const doc = YAML.parseDocument(plainBase);
      return edit(doc, i) ? written(doc) : undefined;
    };
    if (edited(0) === undefined) continue;
    const noop = [], change = [], revert = [];
    for (let i = 1; i <= runs; i++) {
      noop.push(run(['generate', m, '--out', out]));
      writeFileSync(m, edited(i));
      change.push(run(['generate', m, '--out', out]));
      if (i === 1) {
        const reference = join(work, 'reference');
        rmSync(reference, { recursive: true, force: true });
        run(['generate', m, '--out', reference, '--no-cache']);
        // The handlers of tools removed by earlier edits stay in the folder's ownership record (they are kept),
        // which a fresh folder lacks: its record of generated files is compared.
        const compared = (dir) => {
          const f = generatedFiles(dir);
          f.set('.mcp-gen.json', JSON.stringify(JSON.parse(f.get('.mcp-gen.json')).files));
          return f;
        };
        const a = compared(out), b = compared(reference);
        if (a.size !== b.size || [...a].some(([k, v]) => b.get(k) !== v)) throw new Error(`${name} on ${source}: the regeneration differs from a full generation`);
      }
      writeFileSync(m, base);
      revert.push(run(['generate', m, '--out', out]));
    }
    results.push({ edit: name, noop: median(noop), change: median(change), revert: median(revert) });
  }
  rmSync(work, { recursive: true, force: true });
  return results;
}
