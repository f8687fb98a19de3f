/**
 * The MCP Bundle `manifest.json` (manifest version 0.3, packed by `mcpb pack`): a Node server whose entry is
 * the generated `main.gen.ts`, run with the bundled tsx loader; `user_config` for the launch identity,
 * passed to the server as its `MCP_*` variables; every tool and prompt listed. Pure.
 */
import type { Ir, IrPrompt } from '../ir/types.js';
import { browsableRepository, LAUNCH_VARIABLES, type PublishContext } from './publish-context.js';

/** The bundle manifest version written (the `mcpb` package's current schema). */
export const MCPB_MANIFEST_VERSION = '0.3';

/** `MCP_PRINCIPAL` → `principal`: the `user_config` key of a launch variable. */
function configKey(variable: string): string {
  return variable.replace(/^MCP_/, '').toLowerCase();
}

/** The text a client shows for a prompt: its messages, or the description when a handler builds them. */
function promptText(p: IrPrompt): string {
  if (p.messages === undefined) return p.description ?? p.title ?? p.name;
  return p.messages.map((m) => ('text' in m ? m.text : `(resource ${m.resource})`)).join('\n\n');
}

function userConfig(ir: Ir): Record<string, unknown> {
  const scopes = ir.server.scopes.map((s) => s.name).join(' ');
  return Object.fromEntries(LAUNCH_VARIABLES.map((v) => [configKey(v.name), {
    type: 'string',
    title: v.title,
    description: v.description,
    required: false,
    ...(v.name === 'MCP_PRINCIPAL' ? { default: 'local' } : v.name === 'MCP_SCOPES' ? { default: scopes } : { default: '' }),
    ...(v.isSecret ? { sensitive: true } : {}),
  }]));
}

/** The text of `manifest.json` (two-space JSON, final newline). */
export function emitMcpbManifest(ir: Ir, ctx: PublishContext): string {
  const entry = `${ctx.outDir}/main.gen.ts`;
  const doc = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: ir.server.name,
    ...(ir.server.title !== undefined ? { display_name: ir.server.title } : {}),
    version: ir.server.version,
    description: ir.server.description ?? ir.server.title ?? ir.server.name,
    author: { name: ctx.pkg.author ?? ctx.pkg.name },
    ...(ctx.pkg.repositoryUrl !== undefined ? { repository: { type: 'git', url: browsableRepository(ctx.pkg.repositoryUrl) } } : {}),
    ...(ctx.pkg.homepage !== undefined ? { homepage: ctx.pkg.homepage } : {}),
    server: {
      type: 'node',
      entry_point: entry,
      mcp_config: {
        command: 'node',
        args: ['--import', `\${__dirname}/${ctx.loader}`, `\${__dirname}/${entry}`],
        env: Object.fromEntries(LAUNCH_VARIABLES.map((v) => [v.name, `\${user_config.${configKey(v.name)}}`])),
      },
    },
    tools: ir.tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}) })),
    tools_generated: false,
    prompts: ir.prompts.map((p) => ({
      name: p.name,
      ...(p.description !== undefined ? { description: p.description } : {}),
      arguments: p.arguments.map((a) => a.name),
      text: promptText(p),
    })),
    prompts_generated: false,
    ...(ctx.pkg.license !== undefined ? { license: ctx.pkg.license } : {}),
    user_config: userConfig(ir),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
