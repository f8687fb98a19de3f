/**
 * The `import server` command: connect to a running server, read its whole catalog, write a manifest
 * that generates the same catalog, and say what could not be expressed.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../diagnostics.js';
import type { ServerTarget } from '../remote/connect.js';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** The flags of `import server`. */
export interface ImportServerFlags {
  out: string;
  force?: boolean;
  json?: boolean;
  protocol?: '2025-11-25' | '2026-07-28';
}

/** `section.name` of the entry a dotted diagnostic path belongs to (the longest known key that prefixes it). */
function entryOf(path: string, keys: readonly string[]): string | undefined {
  return keys.filter((k) => path === k || path.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0];
}

/** Lint codes with error severity per entry: the design findings that would block generation. */
function blockingFindings(diagnostics: readonly Diagnostic[], keys: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of diagnostics) {
    if (d.severity !== 'error' || !/^MG7\d\d$/.test(d.code) || d.code === 'MG700') continue;
    const key = entryOf(d.path, keys);
    if (key === undefined) continue;
    const codes = out.get(key) ?? [];
    if (!codes.includes(d.code)) out.set(key, [...codes, d.code].sort());
  }
  return out;
}

/** Runs `mcp-gen import server`; returns the exit code. */
export async function runImportServer(target: ServerTarget, flags: ImportServerFlags, io: Io): Promise<number> {
  const { connectTo } = await import('../remote/connect.js');
  const { readCatalog } = await import('../remote/catalog.js');
  const { buildServerDraft } = await import('../import/server/build.js');
  const { serverDraftYaml } = await import('../import/server/yaml.js');
  const { scratchFolder, writeDraftFiles } = await import('../write/draft.js');
  const { analyseManifest } = await import('../pipeline.js');
  const client = await connectTo(target, flags.protocol);
  const catalog = await readCatalog(client).finally(() => client.close());
  const out = resolve(flags.out);
  const schema = fileURLToPath(new URL('../../schema/manifest.schema.json', import.meta.url));
  const source = target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url;
  const render = (waive?: ReadonlyMap<string, readonly string[]>) => {
    const draft = buildServerDraft(catalog, waive ? { waive } : {});
    const files = new Map(draft.files);
    files.set('mcp.manifest.yaml', serverDraftYaml(draft, source, relative(dirname(out), schema).split('\\').join('/')));
    return { draft, files };
  };
  // A first draft is linted in a scratch folder: its blocking design findings are waived in the real one.
  const first = render();
  const scratch = await scratchFolder();
  let waive: Map<string, string[]>;
  try {
    await writeDraftFiles(scratch.dir, first.files, false);
    const analysis = await analyseManifest(join(scratch.dir, 'mcp.manifest.yaml'));
    const keys = ['tools', 'resources', 'prompts'].flatMap((s) => Object.keys((first.draft.manifest[s] ?? {}) as object).map((n) => `${s}.${n}`));
    waive = blockingFindings(analysis.diagnostics, keys);
  } finally {
    await scratch.remove();
  }
  const final = render(waive);
  const files = new Map([...final.files].map(([rel, text]) => [rel === 'mcp.manifest.yaml' ? relative(dirname(out), out) : rel, text]));
  const written = await writeDraftFiles(dirname(out), files, flags.force === true);
  const { inexpressible } = final.draft;
  if (flags.json) {
    io.out(JSON.stringify({ manifest: relative(process.cwd(), out), written, waived: Object.fromEntries(waive), inexpressible }, null, 2));
    return 0;
  }
  const counts = `${catalog.tools.length} tools, ${catalog.resources.length} resources, ${catalog.resourceTemplates.length} resource templates, ${catalog.prompts.length} prompts`;
  io.out(`${source} (${String(catalog.serverInfo['name'])} ${String(catalog.serverInfo['version'])}: ${counts}) → ${relative(process.cwd(), out)}${written.length ? '' : ' (unchanged)'}`);
  for (const [key, codes] of waive) io.out(`  waived ${codes.join(', ')} on ${key} (${'imported: existing contract'})`);
  if (inexpressible.length) {
    io.out(`Not expressible (${inexpressible.length}); the generated server will not publish these:`);
    for (const i of inexpressible) io.out(`  - ${i.at}: ${i.reason}`);
  }
  io.out(`Next: mcp-gen verify ${relative(process.cwd(), out)} -- ${source}, then mcp-gen generate ${relative(process.cwd(), out)}.`);
  return 0;
}
