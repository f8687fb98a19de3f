/**
 * `npm run bench`: prints one table of medians (min–max) of every benchmark.
 * Inputs and outputs go to .bench/ (gitignored). RUNS=5 by default (BENCH_RUNS).
 * Run `npm run build` first. Nothing here is part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { catalogJson, manifestYaml, openApiJson } from './synth.mjs';
import { coldStart, inMemoryCalls, stdioCalls } from './servers.mjs';
import YAML from 'yaml';
import { editsOn } from './edits.mjs';
import { SERVER_NODE, httpEras, httpLookups } from './http.mjs';
import { DEBOUNCE_MS, watchSaves } from './watch.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const B = join(root, '.bench');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIZES = [10, 100, 1000];
const node = process.execPath;
const rows = [];

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const fmt = (x, unit) => (unit === 'MB' ? x.toFixed(0) : unit === 'ms' ? (x >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 3)) : unit === 'x' ? x.toFixed(2) : x.toFixed(0));
const stat = (xs, unit) => `${fmt(median(xs), unit)} ${unit} (${fmt(Math.min(...xs), unit)}–${fmt(Math.max(...xs), unit)})`;
function row(what, value, target = '', met = '') { rows.push([what, value, target, met]); process.stderr.write(`  ${what}: ${value}\n`); }

/** Runs a command under /usr/bin/time: wall ms (hrtime) and peak RSS MB. */
function timed(cmd, args, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { cwd: opts.cwd ?? root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`.slice(0, 4000));
  const kb = Number(r.stderr.trim().split('\n').pop());
  return { ms, mb: kb / 1024, out: r.stdout };
}

function mtimes(dir) {
  const out = new Map();
  const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else out.set(p, statSync(p).mtimeMs); } };
  walk(dir);
  return out;
}

function prepareInputs() {
  for (const n of [1, ...SIZES]) {
    mkdirSync(join(B, 'm', String(n)), { recursive: true });
    writeFileSync(join(B, 'm', String(n), 'mcp.manifest.yaml'), manifestYaml(n));
    if (n === 1000) {
      mkdirSync(join(B, 'm', 'distinct-1000'), { recursive: true });
      writeFileSync(join(B, 'm', 'distinct-1000', 'mcp.manifest.yaml'), manifestYaml(n, true));
    }
    writeFileSync(join(B, 'm', String(n), 'catalog.json'), catalogJson(n));
  }
  writeFileSync(join(B, 'openapi-1000.json'), openApiJson(1000));
}

const cli = (...args) => [join(root, 'bin', 'mcp-gen.js'), ...args];

/**
 * Every timed full generation writes into a folder no earlier run used, and the folders are removed only
 * when the benchmark ends. This disk is mounted with `discard`: for seconds after a large removal, creating
 * a file costs up to 0.3 ms, which would charge one run's cleanup to the next (≈ 250 ms for mcp-gen's 939
 * files of 1,000 primitives, a few ms for openapi-mcp-generator's handful).
 */
const OUTS = join(B, 'out');
let outCount = 0;
const freshOut = (tag) => relative(root, join(OUTS, `${tag}-${++outCount}`));

/** The generator-owned files of a folder (what a regeneration must reproduce exactly), by relative path. */
function generatedFiles(dir) {
  const out = new Map();
  const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (/\.gen(\.test)?\.ts$|mcp\.lock\.json$|CONTRACTS\.md$|\.mcp-gen\.json$/.test(e.name)) out.set(relative(dir, p), readFileSync(p, 'utf8')); } };
  walk(dir);
  return out;
}

/** One changed description: the first tool's, with a word that differs on every run. */
function editOne(text, i) {
  const at = text.indexOf('description: "', text.indexOf('\ntools:'));
  const start = at + 'description: "'.length;
  return `${text.slice(0, start)}Edit ${i}: ${text.slice(start)}`;
}

/**
 * A change to one primitive after a full generation (the incremental cache in place), asserted to write
 * exactly what a full generation of the changed manifest writes, with and without the cache.
 */
function incremental(m, out, i) {
  const path = join(root, m);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, editOne(original, i));
  try {
    const r = timed(node, cli('generate', m, '--out', out));
    if (!/\b[1-9]\d* updated/.test(r.out)) throw new Error(`the one-description change wrote nothing: ${r.out}`);
    const reference = freshOut('reference');
    timed(node, cli('generate', m, '--out', reference, '--no-cache'));
    const a = generatedFiles(join(root, out)), b = generatedFiles(join(root, reference));
    if (a.size !== b.size || [...a].some(([k, v]) => b.get(k) !== v)) throw new Error(`incremental regeneration of ${m} differs from a full generation`);
    return r;
  } finally {
    writeFileSync(path, original);
  }
}

function generation() {
  const full = {};
  for (const n of SIZES) {
    const m = relative(root, join(B, 'm', String(n), 'mcp.manifest.yaml'));
    const f = [], noop = [], check = [], inc = [];
    for (let i = 0; i < RUNS; i++) {
      const out = freshOut(String(n));
      f.push(timed(node, cli('generate', m, '--out', out)));
      const before = mtimes(join(root, out));
      const r = timed(node, cli('generate', m, '--out', out));
      const after = mtimes(join(root, out));
      if (before.size !== after.size || [...before].some(([p, t]) => after.get(p) !== t)) throw new Error(`no-op regeneration of ${n} wrote files`);
      if (!/up to date, nothing written/.test(r.out)) throw new Error(`no-op regeneration of ${n} did not take the fast path: ${r.out}`);
      noop.push(r);
      check.push(timed(node, cli('check', m, '--out', out)));
      inc.push(incremental(m, out, i));
    }
    full[n] = f;
    const label = `${n} primitives`;
    row(`generate, full (${label})`, `${stat(f.map((x) => x.ms), 'ms')}, peak ${stat(f.map((x) => x.mb), 'MB')}`, n === 1000 ? 'peak < 300 MB' : '', n === 1000 ? (median(f.map((x) => x.mb)) < 300 ? 'met' : 'NOT met') : '');
    row(`generate, no-op (${label}); writes nothing: asserted`, `${stat(noop.map((x) => x.ms), 'ms')}, peak ${stat(noop.map((x) => x.mb), 'MB')}`, n === 1000 ? '< 300 ms' : '', n === 1000 ? (median(noop.map((x) => x.ms)) < 300 ? 'met' : 'NOT met') : '');
    row(`check (${label})`, `${stat(check.map((x) => x.ms), 'ms')}, peak ${stat(check.map((x) => x.mb), 'MB')}`);
    const ir = median(inc.map((x) => x.ms)) / median(noop.map((x) => x.ms));
    row(`generate, one description changed (${label}); output = full generation: asserted`, `${stat(inc.map((x) => x.ms), 'ms')}, peak ${stat(inc.map((x) => x.mb), 'MB')}; ${ir.toFixed(2)}x the no-op, ${(median(inc.map((x) => x.ms)) / median(f.map((x) => x.ms))).toFixed(2)}x the full`,
      n === 1000 ? '<= 3x the no-op' : '', n === 1000 ? (ir <= 3 ? 'met' : 'NOT met') : '');
  }
  // The same 1,000 primitives, but no two tools share a schema: every type is compiled on its own.
  const distinct = relative(root, join(B, 'm', 'distinct-1000', 'mcp.manifest.yaml'));
  const d = Array.from({ length: RUNS }, () => timed(node, cli('generate', distinct, '--out', freshOut('distinct-1000'))));
  row('generate, full (1000 primitives, no two tools sharing a schema)', `${stat(d.map((x) => x.ms), 'ms')}, peak ${stat(d.map((x) => x.mb), 'MB')}`, 'peak < 300 MB', median(d.map((x) => x.mb)) < 300 ? 'met' : 'NOT met');
  const growth = median(full[1000].map((x) => x.ms)) / median(full[100].map((x) => x.ms));
  row('growth of full generation, 100 -> 1,000 primitives', `${growth.toFixed(2)}x`, '<= 10x (linear)', growth <= 10 ? 'met' : 'NOT met');
  return full;
}

function tscConfig(dir, include) {
  writeFileSync(join(dir, 'tsconfig.bench.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] },
    include,
  }));
  return join(dir, 'tsconfig.bench.json');
}

const tscBin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** openapi-mcp-generator's output compiles against its own dependencies, installed once into .bench/oa-deps. */
function openApiDeps(outDir) {
  const deps = join(B, 'oa-deps');
  const pkg = readFileSync(join(outDir, 'package.json'), 'utf8');
  if (!existsSync(join(deps, 'node_modules')) || readFileSync(join(deps, 'package.json'), 'utf8') !== pkg) {
    mkdirSync(deps, { recursive: true });
    writeFileSync(join(deps, 'package.json'), pkg);
    const r = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: deps, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm install of openapi-mcp-generator's output dependencies failed:\n${r.stderr}`);
  }
  cpSync(join(deps, 'node_modules'), join(outDir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
}

function versusOpenApi() {
  const oaBin = join(root, 'node_modules', 'openapi-mcp-generator', 'bin', 'openapi-mcp-generator.js');
  const m = relative(root, join(B, 'm', '1000', 'mcp.manifest.yaml'));
  const oa = [], mg = [], tscOa = [], tscMg = [];
  // The floor writes files of the sizes mcp-gen writes: listed from one untimed run.
  const sample = freshOut('listing');
  timed(node, cli('generate', m, '--out', sample));
  const listing = join(B, 'listing-1000.json');
  const sizes = [];
  const list = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) list(p); else sizes.push([relative(join(root, sample), p), statSync(p).size]); } };
  list(join(root, sample));
  writeFileSync(listing, JSON.stringify(sizes));
  const floor = [];
  let oaOut = '', mgOut = '';
  for (let i = 0; i < RUNS; i++) {
    oaOut = join(root, freshOut('openapi'));
    oa.push(timed(node, [oaBin, '-i', join(B, 'openapi-1000.json'), '-o', oaOut, '--force']));
    mgOut = freshOut('vs');
    mg.push(timed(node, cli('generate', m, '--out', mgOut)));
    floor.push(timed(node, [join(root, 'bench', 'floor.mjs'), m, listing, join(root, freshOut('floor'))]));
  }
  openApiDeps(oaOut);
  const oaConfig = join(oaOut, 'tsconfig.json');
  const mgConfig = tscConfig(join(root, mgOut), ['**/*.ts']);
  for (let i = 0; i < RUNS; i++) {
    tscOa.push(timed(node, [tscBin, '-p', oaConfig, '--noEmit']));
    tscMg.push(timed(node, [tscBin, '-p', mgConfig], { allowFail: true }));
  }
  const lines = (dir, ext) => { let n = 0; const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { if (e.name === 'node_modules') continue; const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith(ext)) n += readFileSync(p, 'utf8').split('\n').length; } }; walk(dir); return n; };
  const ratio = median(mg.map((x) => x.ms)) / median(oa.map((x) => x.ms));
  row('openapi-mcp-generator 4.0.1, 1,000 operations', `${stat(oa.map((x) => x.ms), 'ms')}, peak ${stat(oa.map((x) => x.mb), 'MB')}; ${lines(oaOut, '.ts')} lines of TS`);
  row('mcp-gen, 1,000 primitives (same run)', `${stat(mg.map((x) => x.ms), 'ms')}, peak ${stat(mg.map((x) => x.mb), 'MB')}; ${lines(join(root, mgOut), '.ts')} lines of TS`);
  row('generation time ratio mcp-gen / openapi-mcp-generator', `${ratio.toFixed(2)}x`, '<= 0.5x', ratio <= 0.5 ? 'met' : 'NOT met');
  const fr = median(floor.map((x) => x.ms)) / median(oa.map((x) => x.ms));
  row(`floor: start Node, parse the manifest, write ${sizes.length} files of mcp-gen's sizes (no generation)`, `${stat(floor.map((x) => x.ms), 'ms')}; ${fr.toFixed(2)}x openapi-mcp-generator`);
  row('generation time ratio mcp-gen / the floor', `${(median(mg.map((x) => x.ms)) / median(floor.map((x) => x.ms))).toFixed(2)}x`);
  const errors = (tscMg[0].out.match(/error TS/g) ?? []).length;
  row('tsc --noEmit, mcp-gen output (1,000 primitives)', `${stat(tscMg.map((x) => x.ms), 'ms')}, peak ${stat(tscMg.map((x) => x.mb), 'MB')}${errors ? `; ${errors} type errors (see README)` : '; no errors'}`);
  row('tsc --noEmit, openapi-mcp-generator output', `${stat(tscOa.map((x) => x.ms), 'ms')}, peak ${stat(tscOa.map((x) => x.mb), 'MB')}`);
  const tr = median(tscMg.map((x) => x.ms)) / median(tscOa.map((x) => x.ms));
  row('tsc time ratio mcp-gen / openapi-mcp-generator', `${tr.toFixed(2)}x`, '<= 1.0x', tr <= 1 ? 'met' : 'NOT met');
}

/** The watch loop per save (one description changed per save) at 100 and 1,000 primitives. */
async function watchLoop() {
  for (const n of [100, 1000]) {
    const { times, stderr } = await watchSaves({ node, cli: cli()[0], manifest: join(B, 'm', String(n), 'mcp.manifest.yaml'), dir: join(root, freshOut(`watch-${n}`)), saves: Math.max(RUNS, 5), edit: editOne });
    const warnings = (stderr.match(/warning/gi) ?? []).length;
    row(`watch loop, per save, one description changed (${n} primitives); from the write to the loop's report`, `${stat(times, 'ms')}, of which ${DEBOUNCE_MS} ms debounce${warnings ? `; ${warnings} warnings on stderr` : ''}`);
  }
}

/**
 * The support-desk example with each tool 150 times, each resource 100 times (URIs and templates made
 * distinct) and each prompt 150 times: copies come after the originals, so the entry an edit picks (the
 * middle one) is a copy no scenario names.
 */
function grownDesk(text) {
  const doc = YAML.parseDocument(text);
  const grow = (section, times, change = () => {}) => {
    const items = doc.get(section).items;
    const originals = [...items];
    for (let i = 1; i <= times; i++) {
      for (const p of originals) {
        const copy = p.value.clone();
        change(copy, i);
        items.push(doc.createPair(`${p.key.value}${section === 'resources' ? '-' : '_'}r${i}`, copy));
      }
    }
  };
  grow('tools', 150);
  grow('resources', 100, (r, i) => {
    if (r.get('uri')) r.set('uri', `${r.get('uri')}/r${i}`);
    if (r.get('uriTemplate')) r.set('uriTemplate', r.get('uriTemplate').replace('://', `://r${i}/`));
  });
  grow('prompts', 150);
  const count = ['tools', 'resources', 'prompts'].reduce((n, k) => n + doc.get(k).items.length, 0);
  return { text: doc.toString({ lineWidth: 0 }), count };
}

/**
 * A catalog of `n` tools as a script writes one with `yaml.stringify` from objects: the input schema and
 * scopes every tool shares are one object each, written once with an anchor and named by alias after; the
 * input's string has no bound, so every tool has a lint warning, which every changed run prints.
 */
function aliasedCatalog(n) {
  const input = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };
  const scopes = ['items:read'];
  const tools = Object.fromEntries(Array.from({ length: n }, (_, i) => [`get_thing_${i}`, { title: `Get thing ${i}`, description: `Look up thing ${i} by id. Read only.`, sideEffect: 'read', scopes, input }]));
  return YAML.stringify({ mcpgen: 1, server: { name: 'shared', version: '1.0.0', scopes: { 'items:read': 'Read items' } }, tools });
}

/**
 * One-primitive edits of every kind on manifests of several shapes, each against the no-op in the same
 * rounds (see edits.mjs): the synthetic catalog with lint's default context budget (its catalog warning
 * then shows on every run), the one where no two tools share a schema, and 1,000 operations imported from
 * OpenAPI (comments, waivers and block-style schemas, as the import writes them), at 1,000 primitives;
 * the default-budget catalog with every key quoted and a `---` first line, as an editor on Windows may
 * save it (byte-order mark, CRLF, comments after section heads, a tab in a description), written as JSON
 * (indented with spaces, and with tabs), and with every third tool's input in a schema file of its own; the support-desk example grown; 1,200 tools
 * written with aliases (`aliasedCatalog`); the synthetic catalog at 100.
 */
function edits() {
  const withDefaultBudget = join(B, 'm', 'budget-1000', 'mcp.manifest.yaml');
  mkdirSync(dirname(withDefaultBudget), { recursive: true });
  writeFileSync(withDefaultBudget, readFileSync(join(B, 'm', '1000', 'mcp.manifest.yaml'), 'utf8').replace(/^lint:\n  budget: .*\n/m, ''));
  const imported = join(B, 'm', 'openapi-1000', 'mcp.manifest.yaml');
  mkdirSync(dirname(imported), { recursive: true });
  timed(node, cli('import', 'openapi', join(B, 'openapi-1000.json'), '--out', imported, '--force'));
  // The support-desk example grown: served files, named schemas in files, templates, prompts, scenarios.
  const desk = join(B, 'm', 'support-desk-x', 'mcp.manifest.yaml');
  mkdirSync(dirname(desk), { recursive: true });
  for (const d of ['content', 'schemas']) cpSync(join(root, 'manifests', 'support-desk', d), join(dirname(desk), d), { recursive: true });
  const grown = grownDesk(readFileSync(join(root, 'manifests', 'support-desk', 'mcp.manifest.yaml'), 'utf8'));
  writeFileSync(desk, grown.text);
  const aliased = join(B, 'm', 'aliased-1200', 'mcp.manifest.yaml');
  mkdirSync(dirname(aliased), { recursive: true });
  writeFileSync(aliased, aliasedCatalog(1200));
  // The default-budget catalog as other writers leave it: every key quoted and a `---` first line; written
  // as JSON (JSON.stringify's layout); with every third tool's input in a schema file of its own, as an
  // import from a running server writes large inputs.
  const base = readFileSync(withDefaultBudget, 'utf8');
  const quoted = join(B, 'm', 'quoted-1000', 'mcp.manifest.yaml');
  mkdirSync(dirname(quoted), { recursive: true });
  writeFileSync(quoted, `---\n${base.replace(/^( *)([A-Za-z_][A-Za-z0-9_./-]*):(?= |$)/gm, '$1"$2":')}`);
  const json = join(B, 'm', 'json-1000', 'mcp.manifest.json');
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(YAML.parse(base), null, 2)}\n`);
  // Resources named as people name them (a resource's name may hold spaces and punctuation).
  const spaced = join(B, 'm', 'spaced-1000', 'mcp.manifest.yaml');
  mkdirSync(dirname(spaced), { recursive: true });
  writeFileSync(spaced, base.replace(/^  guide-(\d+):$/gm, '  Guide $1 (current):').replace(/^  item-view-(\d+):$/gm, '  Item view $1:'));
  const filed = join(B, 'm', 'files-1000', 'mcp.manifest.yaml');
  rmSync(dirname(filed), { recursive: true, force: true });
  mkdirSync(join(dirname(filed), 'schemas'), { recursive: true });
  let n = 0;
  writeFileSync(filed, base.replace(/^(    input: )(\{.*\})$/gm, (line, key, schema) => {
    if (n++ % 3 !== 0) return line;
    // Named schemas are the manifest's: a file inlines what it needs.
    writeFileSync(join(dirname(filed), 'schemas', `input-${n}.schema.json`), JSON.stringify(JSON.parse(schema), null, 2).replace(/\{\s*"\$ref": "#\/schemas\/ItemId"\s*\}/g, '{ "type": "string", "pattern": "^I-[0-9]{1,12}$" }'));
    return `${key}{ $ref: ./schemas/input-${n}.schema.json }`;
  }));
  // As an editor on Windows may save it: a byte-order mark, CRLF line ends, a comment after each section's
  // head and a tab in a description; and JSON indented with tabs.
  const windows = {
    text: (t) => `\uFEFF${t.replace(/^(schemas|tools|resources|prompts):$/gm, '$1:   # the $1 of the catalog').replace(/(description: "[^"\n]*)"/, '$1\tin columns"').replace(/\n/g, '\r\n')}`,
  };
  const shapes = [
    ['1,000 primitives, default context budget', withDefaultBudget],
    ['the same, every key quoted, `---` on its first line', quoted],
    ['the same, a byte-order mark, CRLF, comments after section heads, a tab in a description', withDefaultBudget, windows],
    ['the same, written as JSON', json],
    ['the same, written as JSON indented with tabs', json, { jsonIndent: '\t' }],
    ['the same, written as minified JSON (one line)', json, { jsonIndent: 0 }],
    ['the same, every third tool\'s input in a schema file', filed],
    ['the same, resources named with spaces and parentheses', spaced],
    ['1,000 primitives, no two tools sharing a schema', join(B, 'm', 'distinct-1000', 'mcp.manifest.yaml')],
    ['1,000 operations imported from OpenAPI', imported],
    [`the support-desk example grown to ${grown.count.toLocaleString('en')} primitives`, desk],
    ['1,200 tools written by yaml.stringify, sharing objects through aliases', aliased],
    ['100 primitives', join(B, 'm', '100', 'mcp.manifest.yaml')],
  ];
  for (const [label, source, layout] of shapes) {
    for (const r of editsOn({ source, work: join(root, freshOut('edits')), runs: Math.max(RUNS, 3), node, cli: cli()[0], layout })) {
      const ratio = r.change / r.noop;
      row(`one-primitive edit, ${r.edit} (${label}); output = full generation: asserted`,
        `no-op ${fmt(r.noop, 'ms')} ms, edit ${fmt(r.change, 'ms')} ms (${ratio.toFixed(2)}x), revert ${fmt(r.revert, 'ms')} ms (${(r.revert / r.noop).toFixed(2)}x)`,
        label.startsWith('100 ') ? '' : '<= 3x the no-op', label.startsWith('100 ') ? '' : (ratio <= 3 && r.revert / r.noop <= 3 ? 'met' : 'NOT met'));
    }
  }
}

/** Transpiles a generated output folder to JavaScript next to the benchmark entry point (type-only imports vanish). */
function runnable(n) {
  const src = join(root, freshOut(`server-${n}`));
  timed(node, cli('generate', relative(root, join(B, 'm', String(n), 'mcp.manifest.yaml')), '--out', relative(root, src)));
  const dst = join(B, 'run', String(n));
  rmSync(dst, { recursive: true, force: true });
  mkdirSync(dst, { recursive: true });
  for (const f of readdirSync(src)) {
    if (!f.endsWith('.gen.ts')) continue;
    const js = ts.transpileModule(readFileSync(join(src, f), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
    writeFileSync(join(dst, f.replace(/\.ts$/, '.js')), js);
  }
  cpSync(join(root, 'bench', 'generated-main.mjs'), join(dst, 'main.mjs'));
  return join(dst, 'main.mjs');
}

async function servers() {
  const gen1 = runnable(1), gen1000 = runnable(1000);
  const hand = join(root, 'bench', 'handwritten', 'server.mjs');
  const cat = (n) => join(B, 'm', String(n), 'catalog.json');
  const cs = await coldStart(RUNS, { hand1: [hand, cat(1)], hand1000: [hand, cat(1000)], gen1: [gen1], gen1000: [gen1000] });
  row('cold start to tools/list, hand-written 1 tool (the floor)', stat(cs.hand1, 'ms'));
  row('cold start, generated 1 tool', `${stat(cs.gen1, 'ms')}; ${(median(cs.gen1) / median(cs.hand1)).toFixed(2)}x the floor`);
  row('cold start, hand-written 1,000 primitives (eager fromJsonSchema)', `${stat(cs.hand1000, 'ms')}; ${(median(cs.hand1000) / median(cs.hand1)).toFixed(2)}x the floor`);
  const r = median(cs.gen1000) / median(cs.hand1);
  row('cold start, generated 1,000 primitives', `${stat(cs.gen1000, 'ms')}; ${r.toFixed(2)}x the floor, ${(median(cs.gen1000) / median(cs.hand1000)).toFixed(2)}x hand-written 1,000`, '<= 1.5x the floor', r <= 1.5 ? 'met' : 'NOT met');
  const st = await stdioCalls(RUNS, [hand, cat(1000)], [gen1000]);
  const sr = median(st.gen) / median(st.hand);
  row('tools/call over stdio, per call (hand / generated, 1,000 primitives)', `${stat(st.hand, 'ms')} / ${stat(st.gen, 'ms')}; ratio ${sr.toFixed(2)}x`, '<= 1.05x', sr <= 1.05 ? 'met' : 'NOT met');
  const mem = await inMemoryCalls(RUNS, hand, cat(1000), gen1000);
  const mr = median(mem.gen) / median(mem.hand);
  row('tools/call in memory, per call (hand / generated)', `${stat(mem.hand, 'ms')} / ${stat(mem.gen, 'ms')}; ratio ${mr.toFixed(2)}x`, '<= 1.05x', mr <= 1.05 ? 'met' : 'NOT met');
}

/** Streamable HTTP in both eras, wrk as the load client (the session heap follows, see `sessionHeap`). */
async function http() {
  const gen1000 = runnable(1000);
  const hand = join(root, 'bench', 'handwritten', 'server.mjs');
  const cat = join(B, 'm', '1000', 'catalog.json');
  const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
  const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
  const warm = Number(process.env.BENCH_HTTP_WARM ?? 1);
  // The floor: the same hand-written server with one tool, so the SDK's HTTP entry has nothing to register.
  const floor = [hand, join(B, 'm', '1', 'catalog.json')];
  const transport = [join(root, 'bench', 'transport.mjs')];
  // The same generated server at 10 and 100 primitives (2026-07-28 only): the per-request cost should not grow with the catalog.
  const genSizes = { gen10: [runnable(10)], gen100: [runnable(100)] };
  const { rows: eras, warnings } = await httpEras({ hand: [hand, cat], gen: [gen1000], genPretenuring: [gen1000], floor, transport, genSizes, rounds, seconds, warm });
  const ms = (x) => fmt(x, 'ms');
  const byEra = (era, c) => eras.find((r) => r.era === era && r.c === c);
  for (const r of eras) {
    row(`HTTP ${r.era}, concurrency ${r.c}: calls/s hand / generated (ratio); p50, p99 ms; server CPU ms per call; heap KB allocated per call; GC pause ms per call (longest)`,
      `${fmt(r.hand.rps)} / ${fmt(r.gen.rps)} /s (${(r.gen.rps / r.hand.rps).toFixed(2)}x); p50 ${ms(r.hand.p50)} / ${ms(r.gen.p50)}; p99 ${ms(r.hand.p99)} / ${ms(r.gen.p99)}; CPU ${ms(r.hand.cpu)} / ${ms(r.gen.cpu)}; alloc ${r.hand.allocKb.toFixed(0)} / ${r.gen.allocKb.toFixed(0)} KB; GC ${r.hand.gcMs.toFixed(3)} / ${r.gen.gcMs.toFixed(3)} ms (${ms(r.hand.maxPauseMs)} / ${ms(r.gen.maxPauseMs)})`);
  }
  for (const r of eras.filter((x) => x.genPretenuring)) {
    const g = r.genPretenuring;
    row(`HTTP ${r.era}, concurrency ${r.c}, generated with V8's allocation-site pretenuring kept (MCP_V8_PRETENURING=on) (calls/s; p50, p99 ms; CPU ms, heap KB per call; GC pause ms per call (longest)); generated / it`,
      `${fmt(g.rps)} /s; p50 ${ms(g.p50)}; p99 ${ms(g.p99)}; CPU ${ms(g.cpu)}; alloc ${g.allocKb.toFixed(0)} KB; GC ${g.gcMs.toFixed(3)} ms (${ms(g.maxPauseMs)}); generated ${(r.gen.rps / g.rps).toFixed(2)}x the calls/s, ${(r.gen.p99 / g.p99).toFixed(2)}x the p99`);
  }
  for (const r of eras.filter((x) => x.floor)) {
    const f = r.floor;
    row(`HTTP ${r.era}, concurrency ${r.c}, the SDK's floor: hand-written server, 1 tool (calls/s; p50, p99 ms; CPU ms, heap KB per call); generated 1,000 / floor`,
      `${fmt(f.rps)} /s; p50 ${ms(f.p50)}; p99 ${ms(f.p99)}; CPU ${ms(f.cpu)}; alloc ${f.allocKb.toFixed(0)} KB; generated ${(r.gen.rps / f.rps).toFixed(2)}x the calls/s, ${(r.gen.cpu / f.cpu).toFixed(2)}x the CPU per call`);
  }
  for (const r of eras.filter((x) => x.transport)) {
    const t = r.transport;
    row(`HTTP 2026-07-28, concurrency ${r.c}, node:http alone (no MCP work: parse the body, answer the same JSON) (calls/s; p50, p99 ms; CPU ms, heap KB per call); generated 1,000 / it`,
      `${fmt(t.rps)} /s; p50 ${ms(t.p50)}; p99 ${ms(t.p99)}; CPU ${ms(t.cpu)}; alloc ${t.allocKb.toFixed(0)} KB; generated ${(r.gen.rps / t.rps).toFixed(2)}x the calls/s, ${(r.gen.cpu / t.cpu).toFixed(2)}x the CPU per call`);
  }
  for (const r of eras.filter((x) => x.gen10 && x.gen100)) {
    const [a, b, c] = [r.gen10, r.gen100, r.gen];
    row(`HTTP 2026-07-28, concurrency ${r.c}, generated at 10 / 100 / 1,000 primitives: calls/s; p99 ms; server CPU ms per call; heap KB allocated per call`,
      `${fmt(a.rps)} / ${fmt(b.rps)} / ${fmt(c.rps)} /s; p99 ${ms(a.p99)} / ${ms(b.p99)} / ${ms(c.p99)}; CPU ${ms(a.cpu)} / ${ms(b.cpu)} / ${ms(c.cpu)}; alloc ${a.allocKb.toFixed(0)} / ${b.allocKb.toFixed(0)} / ${c.allocKb.toFixed(0)} KB; CPU per call at 1,000 / at 10: ${(c.cpu / a.cpu).toFixed(2)}x`);
  }
  const m8 = byEra('2026-07-28', 8), m32 = byEra('2026-07-28', 32), l8 = byEra('2025-11-25', 8);
  if (m8) row('2026-07-28 throughput at concurrency 8, generated / hand-written', `${(m8.gen.rps / m8.hand.rps).toFixed(2)}x`, '>= 5x', m8.gen.rps / m8.hand.rps >= 5 ? 'met' : 'NOT met');
  if (m8 && l8) row('server CPU per call at concurrency 8, generated 2026-07-28 / generated 2025-11-25 session', `${(m8.gen.cpu / l8.gen.cpu).toFixed(2)}x`, '<= 1.5x', m8.gen.cpu / l8.gen.cpu <= 1.5 ? 'met' : 'NOT met');
  if (m32) row('p99 of the generated server, 2026-07-28, concurrency 32', `${ms(m32.gen.p99)} ms`, '< 10 ms', m32.gen.p99 < 10 ? 'met' : 'NOT met');
  row('warnings on the servers\' stderr during the HTTP rows (hand / generated / generated with pretenuring / floor / node:http alone / generated at 10 and 100 primitives)', `${warnings.hand} / ${warnings.gen} / ${warnings.genPretenuring} / ${warnings.floor} / ${warnings.transport} / ${warnings.gen10} and ${warnings.gen100}`);
}

/**
 * What finding a request's target costs in the 2026-07-28 era behind a bearer gate (the scope challenge
 * looks the target up before dispatch, the SDK's read handler after): the first and the last tool and
 * resource template of the catalog at 10 and 1,000 primitives.
 */
async function lookups() {
  const sizes = { gen10: 10, gen1000: 1000 };
  const targets = {};
  for (const [k, n] of Object.entries(sizes)) {
    const catalog = JSON.parse(readFileSync(join(B, 'm', String(n), 'catalog.json'), 'utf8'));
    const gets = catalog.tools.filter((t) => /get_item/.test(t.name));
    const views = catalog.resources.filter((r) => r.uriTemplate !== undefined);
    const uri = (r) => r.uriTemplate.replace('{itemId}', 'I-1');
    targets[k] = { firstTool: { tool: gets[0].name }, lastTool: { tool: gets.at(-1).name }, firstTemplate: { uri: uri(views[0]) }, lastTemplate: { uri: uri(views.at(-1)) } };
  }
  const servers = Object.fromEntries(Object.entries(sizes).map(([k, n]) => [k, [runnable(n)]]));
  const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
  const { figures: f, warnings } = await httpLookups({ servers, targets, scopes: ['items:read', 'items:write'], rounds });
  const ms = (x) => fmt(x, 'ms');
  for (const [k, n] of Object.entries(sizes)) {
    const g = f[k];
    row(`HTTP 2026-07-28 behind a bearer gate, ${n.toLocaleString("en-US")} primitives, concurrency 8: server CPU ms per call, tools/call first / last get tool; resources/read first / last template`,
      `${ms(g.firstTool.cpu)} / ${ms(g.lastTool.cpu)}; ${ms(g.firstTemplate.cpu)} / ${ms(g.lastTemplate.cpu)} (${fmt(g.firstTool.rps)} / ${fmt(g.lastTool.rps)}; ${fmt(g.firstTemplate.rps)} / ${fmt(g.lastTemplate.rps)} calls/s)`);
  }
  const big = f.gen1000, small = f.gen10;
  row('resources/read of the last template / of the first, 1,000 primitives (server CPU per call)', `${(big.lastTemplate.cpu / big.firstTemplate.cpu).toFixed(2)}x`);
  row('resources/read of the last template at 1,000 primitives / of the first at 10 (server CPU per call)', `${(big.lastTemplate.cpu / small.firstTemplate.cpu).toFixed(2)}x`);
  row('tools/call of the last tool at 1,000 primitives / of the first at 10 (server CPU per call)', `${(big.lastTool.cpu / small.firstTool.cpu).toFixed(2)}x`);
  row('warnings on the servers\' stderr during the lookup rows (10 / 1,000 primitives)', `${warnings.gen10} / ${warnings.gen1000}`);
}

/** Heap per idle 2025-era session (`BENCH_SESSIONS`, default 100 and 500), generated and hand-written. */
function sessionHeap() {
  const gen1000 = runnable(1000);
  const hand = join(root, 'bench', 'handwritten', 'server.mjs');
  const cat = join(B, 'm', '1000', 'catalog.json');
  const perSession = (args, sessions) => {
    const r = spawnSync(node, ['--expose-gc', join(root, 'bench', 'sessions.mjs'), ...args, String(sessions)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`sessions.mjs ${args[0]} failed:\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop());
  };
  for (const sessions of (process.env.BENCH_SESSIONS ?? '100,500').split(',').map(Number)) {
    const g = perSession(['gen', gen1000], sessions);
    const h = perSession(['hand', hand, cat], sessions);
    row(`heap per idle 2025-11-25 HTTP session, ${sessions} sessions (hand / generated)`, `${h.perSessionKb.toFixed(0)} / ${g.perSessionKb.toFixed(0)} KB; RSS ${h.rssMb.toFixed(0)} / ${g.rssMb.toFixed(0)} MB`, '<= 100 KB', g.perSessionKb <= 100 ? 'met' : 'NOT met');
  }
}

const only = process.argv.slice(2);
const want = (k) => only.length === 0 || only.includes(k);
prepareInputs();
rmSync(OUTS, { recursive: true, force: true }); // left by an interrupted benchmark
const cpu = cpus();
const load = () => loadavg()[0].toFixed(1);
const loadAtStart = load();
const machine = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}${SERVER_NODE === process.execPath ? '' : ` (HTTP servers on Node ${spawnSync(SERVER_NODE, ['-v'], { encoding: 'utf8' }).stdout.trim()})`}, ${RUNS} runs each`;
process.stderr.write(`${machine}\n`);
if (want('gen')) generation();
if (want('watch')) await watchLoop();
if (want('edits')) edits();
if (want('oa')) versusOpenApi();
if (want('servers')) await servers();
if (want('http')) await http();
if (want('http') || want('sessions')) sessionHeap();
if (want('lookups')) await lookups();
rmSync(OUTS, { recursive: true, force: true });
const widths = [0, 1, 2, 3].map((i) => Math.max(...[['benchmark', 'median (min–max)', 'target', ''], ...rows].map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`\n${machine}; load average ${loadAtStart} at the start, ${load()} at the end\n`);
console.log(line(['benchmark', 'median (min–max)', 'target', '']));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
