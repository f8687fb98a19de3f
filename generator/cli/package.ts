/**
 * `mcp-gen package`: the files that publish a generated server — `server.json` for the official MCP
 * registry and the MCP Bundle `manifest.json` — written into the project folder (the one with package.json),
 * which is the bundle's root for `mcpb pack`.
 */
import type { Command } from 'commander';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UserError } from '../diagnostics.js';
import type { Ir } from '../ir/types.js';
import { emitMcpbManifest } from '../emit/mcpb.js';
import { REGISTRY_DESCRIPTION_MAX, REGISTRY_NAME, registryNameFromRepository, type PublishedBundle, type PublishPackage } from '../emit/publish-context.js';
import { emitServerJson } from '../emit/server-json.js';
import { writePublishFiles } from '../write/publish.js';
import { findOutput, loadIr } from './call.js';

interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface PackageOptions {
  name?: string;
  url?: string;
  out?: string;
  bundle?: string;
  bundleUrl?: string;
}

type PackageJson = { name?: string; version?: string; mcpName?: string; repository?: string | { url?: string }; homepage?: string; author?: string | { name?: string }; license?: string };

/** The nearest folder holding a package.json, from the manifest's folder up. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new UserError('no package.json beside the manifest or above it: the registry publishes an npm package, so run `npm init` in the project first.');
  }
}

function readPackage(root: string): { pkg: PublishPackage; mcpName?: string } {
  const raw = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  if (!raw.name || !raw.version) throw new UserError(`${join(root, 'package.json')} needs a name and a version: they are the npm package the registry entry points at.`);
  const repositoryUrl = typeof raw.repository === 'string' ? raw.repository : raw.repository?.url;
  const author = typeof raw.author === 'string' ? raw.author.replace(/\s*[<(].*$/, '') : raw.author?.name;
  return {
    pkg: { name: raw.name, version: raw.version, ...(repositoryUrl ? { repositoryUrl } : {}), ...(raw.homepage ? { homepage: raw.homepage } : {}), ...(author ? { author } : {}), ...(raw.license ? { license: raw.license } : {}) },
    ...(raw.mcpName ? { mcpName: raw.mcpName } : {}),
  };
}

function registryName(ir: Ir, opts: PackageOptions, pkg: PublishPackage, mcpName: string | undefined): string {
  const name = opts.name ?? mcpName ?? registryNameFromRepository(pkg.repositoryUrl, ir.server.name);
  if (name === undefined) throw new UserError(`the registry needs a reverse-DNS name such as io.github.<you>/${ir.server.name}: pass --name, or set "mcpName" (or a GitHub "repository") in package.json.`);
  if (!REGISTRY_NAME.test(name)) throw new UserError(`registry name ${name} is not reverse-DNS namespace/name (letters, digits, dots and dashes, one slash), for example io.github.<you>/${ir.server.name}.`);
  return name;
}

function checkPublishable(ir: Ir, manifest: string, url: string | undefined): void {
  const description = ir.server.description ?? ir.server.title ?? ir.server.name;
  if (description.length > REGISTRY_DESCRIPTION_MAX) {
    throw new UserError(`${manifest}: server.description is ${description.length} characters, and the MCP registry takes at most ${REGISTRY_DESCRIPTION_MAX}: shorten it (longer guidance belongs in server.instructions).`);
  }
  if (url !== undefined && !/^https?:\/\/[^/\s]+/.test(url)) throw new UserError(`--url ${url} is not an http(s) URL of the server's Streamable HTTP endpoint (for example https://mcp.example.com/mcp).`);
}

/** The packed bundle named by --bundle and --bundle-url (both or neither), hashed for `fileSha256`. */
function publishedBundle(opts: PackageOptions): PublishedBundle | undefined {
  if (opts.bundle === undefined && opts.bundleUrl === undefined) return undefined;
  if (opts.bundle === undefined || opts.bundleUrl === undefined) {
    throw new UserError('--bundle <file.mcpb> and --bundle-url <https URL> go together: server.json lists a bundle by its download URL and the SHA-256 of the file.');
  }
  if (!/^https:\/\/[^/\s]+\/\S+$/.test(opts.bundleUrl)) throw new UserError(`--bundle-url ${opts.bundleUrl} is not an https URL of the .mcpb file (for example a release asset, https://github.com/<you>/<repo>/releases/download/v1.0.0/server.mcpb).`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(opts.bundle));
  } catch {
    throw new UserError(`--bundle ${opts.bundle}: no such file; pack the bundle first (npx @anthropic-ai/mcpb pack . ${opts.bundle}).`);
  }
  return { url: opts.bundleUrl, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A path inside the project as the bundle names it (relative, `/` separators). */
function inside(root: string, path: string, what: string): string {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new UserError(`${what} (${path}) is outside the project folder ${root}, so a bundle of the project cannot hold it.`);
  return rel.split('\\').join('/');
}

/** Writes server.json and manifest.json for `manifest`; returns the exit code. */
export async function runPackage(manifestPath: string, opts: PackageOptions, io: Io): Promise<number> {
  const manifest = resolve(manifestPath);
  const ir = await loadIr(manifest);
  checkPublishable(ir, manifestPath, opts.url);
  const root = projectRoot(dirname(manifest));
  const { pkg, mcpName } = readPackage(root);
  const name = registryName(ir, opts, pkg, mcpName);
  const bundle = publishedBundle(opts);
  const outDir = opts.out !== undefined ? resolve(opts.out) : findOutput(dirname(manifest), ir.server.name);
  let loaderPath: string;
  try {
    loaderPath = createRequire(join(root, 'package.json')).resolve('tsx');
  } catch {
    throw new UserError('the bundle runs main.gen.ts with tsx, which this project does not have: npm install --save-dev tsx');
  }
  const ctx = { registryName: name, pkg, ...(opts.url !== undefined ? { url: opts.url } : {}), outDir: inside(root, outDir, 'the output folder'), loader: inside(root, loaderPath, 'the tsx loader'), ...(bundle !== undefined ? { bundle } : {}) };
  await writePublishFiles(root, [
    { path: 'server.json', content: emitServerJson(ir, ctx) },
    { path: 'manifest.json', content: emitMcpbManifest(ir, ctx) },
  ]);
  const where = relative(process.cwd(), root) || '.';
  io.out(`wrote ${join(where, 'server.json')} (MCP registry, ${name}) and ${join(where, 'manifest.json')} (MCP Bundle)`);
  if (mcpName !== name) io.err(`note: the registry checks that the npm package claims this name: add "mcpName": "${name}" to ${join(where, 'package.json')} before npm publish.`);
  io.out(`Next: npm publish, then \`mcp-publisher publish\` (server.json); \`npx @anthropic-ai/mcpb pack ${where}\` builds the bundle.`);
  return 0;
}

/** Registers `mcp-gen package [manifest]`. */
export function registerPackage(program: Command, io: Io): void {
  program
    .command('package')
    .description('write server.json (official MCP registry) and manifest.json (MCP Bundle) into the project folder')
    .argument('[manifest]', 'manifest file', 'mcp.manifest.yaml')
    .option('--name <name>', 'the registry name, reverse-DNS (default: package.json mcpName, or io.github.<owner>/<server.name> from its repository)')
    .option('--url <url>', 'the public Streamable HTTP endpoint, listed as a remote')
    .option('--bundle <file>', 'a packed MCP Bundle (.mcpb) to list in server.json, with --bundle-url')
    .option('--bundle-url <url>', 'the https URL the bundle is downloaded from (a release asset)')
    .option('--out <dir>', 'the generated server\'s folder (default: generated/<server.name> beside the manifest or above it)')
    .action(async (manifest: string, opts: PackageOptions) => {
      process.exitCode = await runPackage(manifest, opts, io);
    });
}
