/**
 * The IR of `scenarios:`: each step normalised for the runner (prompt arguments default to none, a call
 * knows whether its tool takes an idempotency key, a read knows the resource that serves it).
 */
import { addressesOf, matchResource } from '../manifest/checks/scenarios.js';
import type { RawManifest, RawScenarioStep } from '../manifest/types.js';
import type { BuildInput } from './build.js';
import type { IrScenario, IrScenarioStep } from './types.js';

/** The scenarios of a manifest that passed every check, in source order. */
export function buildScenarios(input: BuildInput, m: RawManifest): IrScenario[] {
  const rec = m.scenarios ?? {};
  return input
    .keyOrder(['scenarios'])
    .filter((k) => Object.hasOwn(rec, k))
    .map((name) => {
      const s = rec[name]!;
      return {
        name,
        ...(s.description === undefined ? {} : { description: s.description }),
        steps: s.steps.map((step) => buildStep(m, step, input.resourceOf)),
        location: input.locate(['scenarios', name]),
      };
    });
}

function buildStep(m: RawManifest, step: RawScenarioStep, resourceOf: BuildInput['resourceOf']): IrScenarioStep {
  const id = step.id === undefined ? {} : { id: step.id };
  if (step.prompt !== undefined) return { ...id, prompt: step.prompt, arguments: step.arguments ?? {} };
  if (step.read !== undefined) {
    const served = resourceOf ? resourceOf(step.read) : matchResource(addressesOf(m), step.read);
    return { ...id, read: step.read, resource: served!.name, ...(step.revision === undefined ? {} : { revision: step.revision }) };
  }
  if (step.call !== undefined) {
    const tool = m.tools![step.call]!;
    return {
      ...id,
      call: step.call,
      input: step.input ?? {},
      key: tool.idempotency === 'required',
      ...(step.confirm === undefined ? {} : { confirm: step.confirm }),
      expect: step.expect ?? 'ok',
    };
  }
  return { ...id, assert: step.assert! };
}
