/**
 * `server.json` for the official MCP registry (schema 2025-09-29): the server's reverse-DNS name,
 * description, version, the npm package that runs it over stdio with its launch variables, and the
 * public Streamable HTTP endpoint when one is given, and the packed MCP Bundle (`registryType: mcpb`, its
 * download URL and SHA-256) when one is published. Pure; the CLI checks the inputs first.
 */
import type { Ir } from '../ir/types.js';
import { browsableRepository, LAUNCH_VARIABLES, type PublishContext } from './publish-context.js';

/** The schema the registry publishes for this format. */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/** The text of `server.json` (two-space JSON, final newline). */
export function emitServerJson(ir: Ir, ctx: PublishContext): string {
  const description = ir.server.description ?? ir.server.title ?? ir.server.name;
  const repository = ctx.pkg.repositoryUrl === undefined ? undefined : browsableRepository(ctx.pkg.repositoryUrl);
  const scopes = ir.server.scopes.map((s) => s.name).join(' ');
  const environmentVariables = LAUNCH_VARIABLES.map((v) => ({
    name: v.name,
    description: v.description,
    isRequired: false,
    isSecret: v.isSecret,
    format: 'string',
    ...(v.name === 'MCP_SCOPES' && scopes !== '' ? { default: scopes } : {}),
  }));
  const doc = {
    $schema: SERVER_JSON_SCHEMA,
    name: ctx.registryName,
    description,
    version: ir.server.version,
    ...(repository !== undefined && /^https:\/\/github\.com\//.test(repository) ? { repository: { url: repository, source: 'github' } } : {}),
    ...(ctx.pkg.homepage !== undefined ? { websiteUrl: ctx.pkg.homepage } : {}),
    packages: [{
      registryType: 'npm',
      registryBaseUrl: 'https://registry.npmjs.org',
      identifier: ctx.pkg.name,
      version: ctx.pkg.version,
      transport: { type: 'stdio' },
      environmentVariables,
    }, ...(ctx.bundle !== undefined ? [{
      // The bundle's manifest.json maps these same variables to its user_config, so they are listed here too.
      registryType: 'mcpb',
      identifier: ctx.bundle.url,
      version: ir.server.version,
      fileSha256: ctx.bundle.sha256,
      transport: { type: 'stdio' },
      environmentVariables,
    }] : [])],
    ...(ctx.url !== undefined ? { remotes: [{ type: 'streamable-http', url: ctx.url }] } : {}),
    _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { generatedBy: `mcp-gen from ${ir.manifestName}: run \`mcp-gen package\` after changing it` } },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
