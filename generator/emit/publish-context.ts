/**
 * What publishing needs beyond the IR: the npm package that carries the server, its registry name, an
 * optional public HTTP URL, and the launch environment the runtime reads. Shared by the `server.json`
 * (official MCP registry) and MCP Bundle emitters; pure data, computed by the CLI.
 */

/** The npm package a published server ships in (from the project's package.json). */
export interface PublishPackage {
  readonly name: string;
  readonly version: string;
  readonly repositoryUrl?: string;
  readonly homepage?: string;
  readonly author?: string;
  readonly license?: string;
}

/** Inputs of the publishing emitters. */
export interface PublishContext {
  /** Registry name in reverse-DNS form, `io.github.owner/server`. */
  readonly registryName: string;
  readonly pkg: PublishPackage;
  /** The public Streamable HTTP endpoint, when the server is also hosted. */
  readonly url?: string;
  /** The output folder, relative to the bundle root (the project folder), with `/` separators. */
  readonly outDir: string;
  /** The tsx loader, relative to the bundle root, that runs `main.gen.ts`. */
  readonly loader: string;
  /** A packed MCP Bundle published for download, listed as a second package of `server.json`. */
  readonly bundle?: PublishedBundle;
}

/** A packed `.mcpb` file and where it is downloaded from. */
export interface PublishedBundle {
  /** The HTTPS download URL (a release asset). */
  readonly url: string;
  /** SHA-256 of the file, lowercase hex: clients check the download against it. */
  readonly sha256: string;
}

/** An environment variable the generated server reads at launch. */
export interface LaunchVariable {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly isSecret: boolean;
}

/**
 * The launch identity of a stdio server (generator/runtime/options.ts reads these). None is a secret: the
 * identity of whoever launches a local server. A variable holding a credential is listed with `isSecret`.
 */
export const LAUNCH_VARIABLES: readonly LaunchVariable[] = [
  { name: 'MCP_PRINCIPAL', title: 'Principal', description: 'Who the server acts for (audit events and authorization hooks); default: local.', isSecret: false },
  { name: 'MCP_TENANT', title: 'Tenant', description: 'The tenant the principal belongs to, if any.', isSecret: false },
  { name: 'MCP_SCOPES', title: 'Scopes', description: 'Space-separated scopes granted to the principal; set but empty grants none.', isSecret: false },
];

/** The registry's limit on `description`. */
export const REGISTRY_DESCRIPTION_MAX = 100;

/** The registry's name rule: a reverse-DNS namespace, one slash, a server name. */
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** `io.github.owner/name` for a GitHub repository URL, else undefined. */
export function registryNameFromRepository(url: string | undefined, server: string): string | undefined {
  const m = url === undefined ? null : /github\.com[/:]([A-Za-z0-9-]+)\//.exec(url);
  return m ? `io.github.${m[1]}/${server}` : undefined;
}

/** A repository URL as a browsable https URL (`git+https://…/x.git` → `https://…/x`). */
export function browsableRepository(url: string): string {
  return url.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/\.git$/, '');
}
