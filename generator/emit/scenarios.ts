/**
 * Emits `contract/scenarios.gen.test.ts`: one test per declared scenario and era, each running the flow
 * with `runScenario` (mcp-gen/testing) and writing its evidence pack when asked to.
 */
import type { IrScenario } from '../ir/types.js';
import { type EmitContext, type EmittedFile, render, tidy } from './context.js';
import { lit, tsHeader } from './text.js';

/** A scenario as the runner takes it: the IR's steps without positions. */
function specOf(s: IrScenario): Record<string, unknown> {
  return { name: s.name, ...(s.description === undefined ? {} : { description: s.description }), steps: s.steps };
}

/** The scenario suite, or nothing when the manifest declares no scenarios. */
export function emitScenarios(ctx: EmitContext): EmittedFile[] {
  const scenarios = ctx.ir.scenarios ?? [];
  if (scenarios.length === 0) return [];
  const view = scenarios.map((s, i) => ({ const: `scenario${i + 1}`, spec: lit(specOf(s)), title: lit(`scenario ${s.name}`) }));
  const content = render('contract-scenarios.test.ts', { header: tsHeader(ctx.ir.manifestName), scenarios: view });
  return [{ path: 'contract/scenarios.gen.test.ts', content: tidy(content), owner: 'generator' }];
}
