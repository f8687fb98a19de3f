/**
 * Where a new field of every primitive goes (docs/architecture.md, "Where a new field goes"), proved with
 * a field the generator does not have. A copy of the generator gets `docsUrl` on every tool, resource and
 * prompt through exactly the edits that section lists, and nothing else: the manifest schema, the raw
 * types, the primitive base (`IrPrimitiveBase`, `buildBase`), `LISTED_BASE_FIELDS` and docs/manifest.md.
 * The copy must still type-check, and, given a manifest that declares the field everywhere, its server
 * must register the field for every primitive, its lock record it, its contract suites expect it in every
 * listing and its diff report the change as breaking. Were a sixth place needed (an emitter with its own
 * list of fields, a lock writer picking keys, a table typed by the listed fields), one of these fails.
 *
 * The field is made up, so the SDK (which lists only the fields it knows) would not send it: a real field
 * is one the SDK's register config takes, like `icons`.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { Contract } from '../../generator/contract/types.js';
import type { Lock } from '../../generator/diff/types.js';
import type { EmittedFile } from '../../generator/emit/index.js';
import { compileManifest } from '../../generator/pipeline.js';
import { repoRoot } from '../helpers/paths.js';
import { documents, schemaPaths, type ManifestSchema, type SchemaNode } from '../helpers/schema-paths.js';
import { tempDir } from '../helpers/tree.js';

const FIELD = 'docsUrl';
const SECTIONS = ['tools', 'resources', 'prompts'] as const;
const urlOf = (section: string, name: string) => `https://docs.example.com/${section}/${name}`;

/** One edit of the copy: `insert` goes right after `anchor` (or before it), which must occur exactly once in `file`. */
interface Edit {
  readonly file: string;
  readonly anchor: string;
  readonly insert: string;
  readonly before?: true;
}

const CODE_EDITS: readonly Edit[] = [
  { file: 'generator/manifest/types.ts', anchor: 'export interface RawCommon {\n', insert: `  ${FIELD}?: string;\n` },
  { file: 'generator/ir/types.ts', anchor: 'export interface IrPrimitiveBase extends IrNames {\n', insert: `  readonly ${FIELD}?: string;\n` },
  { file: 'generator/ir/build.ts', anchor: "    ...opt('title', p.title),\n", insert: `    ...opt('${FIELD}', p.${FIELD}),\n` },
  { file: 'generator/contract/base.ts', anchor: "export const LISTED_BASE_FIELDS = ['title', 'description', 'icons'", insert: `, '${FIELD}'` },
];

/** A row of docs/manifest.md for the field of each kind, placed before that kind's `title` row. */
const DOC_EDITS: readonly Edit[] = SECTIONS.map((s) => ({
  file: 'docs/manifest.md',
  anchor: `| \`${s}.<name>.title\` |`,
  insert: `| \`${s}.<name>.${FIELD}\` | Where the entry is documented. | none | \`https://docs.example.com/x\` |\n`,
  before: true,
}));

/** The schema gains the property under `$defs.tool`, `resource` and `prompt`. */
function editSchema(schema: ManifestSchema): ManifestSchema {
  const defs = { ...schema.$defs };
  for (const kind of ['tool', 'resource', 'prompt']) {
    const def = defs[kind]!;
    expect(def.properties, kind).toBeDefined();
    expect(def.properties![FIELD], `${kind} has no ${FIELD} yet`).toBeUndefined();
    const property = { title: 'Documentation', description: 'Where the entry is documented.', type: 'string', format: 'uri' } as SchemaNode;
    defs[kind] = { ...def, properties: { ...def.properties, [FIELD]: property } };
  }
  return { ...schema, $defs: defs };
}

function applyEdit(text: string, edit: Edit): string {
  const at = text.indexOf(edit.anchor);
  expect(at, `${edit.file}: the anchor ${JSON.stringify(edit.anchor)} (update this test with the code)`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(edit.anchor, at + 1), `${edit.file}: the anchor occurs once`).toBe(-1);
  const end = edit.before ? at : at + edit.anchor.length;
  return text.slice(0, end) + edit.insert + text.slice(end);
}

/** The files the architecture's "Where a new field goes" list names (backticked paths in its numbered steps). */
async function documentedPlaces(): Promise<string[]> {
  const doc = await readFile(join(repoRoot, 'docs/architecture.md'), 'utf8');
  const section = doc.split('\n## Where a new field goes\n')[1]!.split('\n## ')[0]!;
  const steps = section.split('\n').filter((l) => /^\d+\. /.test(l));
  const paths = steps.flatMap((l) => [...l.matchAll(/`([\w./-]+\.(?:ts|json|md))`/g)].map((m) => m[1]!));
  return [...new Set(paths.map((p) => (p.startsWith('schema/') || p.startsWith('docs/') ? p : `generator/${p}`)))].sort();
}

type Pipeline = typeof import('../../generator/pipeline.js');
type Diff = typeof import('../../generator/diff/index.js');

describe('a new optional field on every primitive', () => {
  let copy: string;
  let manifest: string;
  let pipeline: Pipeline;
  let before: readonly EmittedFile[];
  let after: readonly EmittedFile[];
  let contract: Contract;
  const file = (files: readonly EmittedFile[], path: string) => files.find((f) => f.path === path)!.content;
  const edits = [...CODE_EDITS, ...DOC_EDITS];

  beforeAll(async () => {
    copy = await tempDir('mcp-gen-new-field-');
    for (const dir of ['generator', 'schema', 'templates', 'docs']) await cp(join(repoRoot, dir), join(copy, dir), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json']) await cp(join(repoRoot, f), join(copy, f));
    await symlink(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
    for (const edit of edits) await writeFile(join(copy, edit.file), applyEdit(await readFile(join(copy, edit.file), 'utf8'), edit));
    const schemaFile = join(copy, 'schema/manifest.schema.json');
    await writeFile(schemaFile, `${JSON.stringify(editSchema(JSON.parse(await readFile(schemaFile, 'utf8')) as ManifestSchema), null, 2)}\n`);

    // The example manifest as it is, and a copy of its folder that declares the field on every primitive.
    const [plain, declared] = [join(copy, 'manifests/plain'), join(copy, 'manifests/declared')];
    for (const folder of [plain, declared]) await cp(join(repoRoot, 'manifests/support-desk'), folder, { recursive: true });
    manifest = join(plain, 'mcp.manifest.yaml');
    const yaml = parseDocument(await readFile(manifest, 'utf8'));
    for (const s of SECTIONS) for (const name of Object.keys((yaml.toJS() as Record<string, Record<string, unknown>>)[s] ?? {})) yaml.setIn([s, name, FIELD], urlOf(s, name));
    await writeFile(join(declared, 'mcp.manifest.yaml'), String(yaml));

    pipeline = (await import(pathToFileURL(join(copy, 'generator/pipeline.ts')).href)) as Pipeline;
    before = (await compileManifest(join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml'), { outDir: join(copy, 'out') })).files;
    const compiled = await pipeline.compileManifest(join(declared, 'mcp.manifest.yaml'), { outDir: join(copy, 'out') });
    after = compiled.files;
    contract = compiled.contract;
  }, 120_000);

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('needs edits in exactly the places docs/architecture.md lists', async () => {
    const touched = [...new Set([...edits.map((e) => e.file), 'schema/manifest.schema.json'])].sort();
    expect(touched).toEqual(await documentedPlaces());
  });

  it('leaves a manifest without the field generating exactly what it did', async () => {
    const same = await pipeline.compileManifest(manifest, { outDir: join(copy, 'out') });
    expect(same.files.map((f) => [f.path, f.content])).toEqual(before.map((f) => [f.path, f.content]));
  });

  it('type-checks in the copy', async () => {
    const config = { extends: './tsconfig.json', include: ['generator'], exclude: ['node_modules'] };
    await writeFile(join(copy, 'tsconfig.field.json'), JSON.stringify(config));
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const run = promisify(execFile)(process.execPath, [tsc, '-p', join(copy, 'tsconfig.field.json')], { cwd: copy });
    await expect(run.then(() => 'clean', (e: { stdout?: string }) => e.stdout ?? String(e))).resolves.toBe('clean');
  }, 300_000); // tsc over the whole copied generator

  it('is documented, as the docs test requires of every schema field', async () => {
    const schema = JSON.parse(await readFile(join(copy, 'schema/manifest.schema.json'), 'utf8')) as ManifestSchema;
    const fieldPaths = schemaPaths(schema).filter((p) => p.endsWith(`.${FIELD}`));
    expect(fieldPaths.sort()).toEqual(SECTIONS.map((s) => `${s}.<name>.${FIELD}`).sort());
    const [real, copied] = await Promise.all([readFile(join(repoRoot, 'docs/manifest.md'), 'utf8'), readFile(join(copy, 'docs/manifest.md'), 'utf8')]);
    for (const p of fieldPaths) {
      expect(documents(real, p), `${p} is new`).toBe(false);
      expect(documents(copied, p), p).toBe(true);
    }
  });

  it('is in the contract listing of every primitive, as declared', () => {
    const listings = [
      ...contract.tools.map((t) => ['tools', t.listing] as const),
      ...contract.resources.map((r) => ['resources', r.listing] as const),
      ...contract.prompts.map((p) => ['prompts', p.listing] as const),
    ];
    expect(listings.length).toBeGreaterThan(5);
    for (const [s, l] of listings) expect((l as unknown as Record<string, unknown>)[FIELD], `${s}.${l.name}`).toBe(urlOf(s, l.name));
  });

  it('is registered with the SDK for every tool, resource and prompt', () => {
    const server = file(after, 'server.gen.ts');
    const all = contract.tools.length + contract.resources.length + contract.prompts.length;
    expect(server.match(new RegExp(` {6}${FIELD}: 'https://docs\\.example\\.com/`, 'g'))).toHaveLength(all);
    expect(file(before, 'server.gen.ts')).not.toContain(FIELD);
  });

  it('is recorded in the lock for every primitive, and diff reports its change as breaking', async () => {
    const lockOf = (files: readonly EmittedFile[]) => JSON.parse(file(files, 'mcp.lock.json')) as Lock;
    const lock = lockOf(after);
    for (const s of SECTIONS) {
      for (const [name, entry] of Object.entries(lock[s])) expect(entry.contract[FIELD], `${s}.${name}`).toBe(urlOf(s, name));
    }
    const diff = (await import(pathToFileURL(join(copy, 'generator/diff/index.ts')).href)) as Diff;
    const none = new Map<string, string>();
    const changes = diff.compareLocks(lockOf(before), lock, { tool: none, resource: none, prompt: none });
    const found = changes.breaking.filter((c) => c.path.endsWith(`.${FIELD}`)).map((c) => c.path);
    expect(new Set(changes.breaking.filter((c) => c.path.endsWith(`.${FIELD}`)).map((c) => c.change))).toEqual(new Set(['unclassified-change']));
    expect(found.sort()).toEqual(SECTIONS.flatMap((s) => Object.keys(lock[s]).map((n) => `${s}.${n}.${FIELD}`)).sort());
    expect(changes.compatible.filter((c) => c.path.endsWith(`.${FIELD}`))).toEqual([]);
  });

  it('is expected, as declared, in every listing test of the contract suites', () => {
    const suites = after.filter((f) => f.path.startsWith('contract/') && f.path.endsWith('.test.ts')).map((f) => f.content).join('\n');
    for (const s of SECTIONS) for (const name of Object.keys(JSON.parse(file(after, 'mcp.lock.json'))[s] as object)) expect(suites, `${s}.${name}`).toContain(`'${urlOf(s, name)}'`);
  });

  it('changes nothing else in any file', () => {
    const strip = (s: string) =>
      s
        .replace(new RegExp(`\\n\\s*${FIELD}: '[^']*',?`, 'g'), '')
        .replace(new RegExp(`,\\s*"${FIELD}": "[^"]*"`, 'g'), '')
        .replace(/"sha256:[0-9a-f]+"/g, 'HASH');
    expect(after.map((f) => f.path)).toEqual(before.map((f) => f.path));
    const changed = after.filter((f, i) => f.content !== before[i]!.content).map((f) => f.path);
    expect(changed.sort()).toEqual(['contract/prompts.gen.test.ts', 'contract/resources.gen.test.ts', 'contract/tools.gen.test.ts', 'mcp.lock.json', 'server.gen.ts']);
    for (const path of changed) expect(strip(file(after, path)), path).toBe(strip(file(before, path)));
  });
});
