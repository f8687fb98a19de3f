import type { ValidateFunction } from 'ajv';
import { describeDataError } from '../json-schema.js';
import { pointerToPath } from '../pointer.js';
import { each, type CheckContext } from './context.js';

/** Example calls must fit the tool's schemas: contract tests replay them against the real server. */
export function checkExamples(ctx: CheckContext): void {
  if (!ctx.registry) return;
  for (const [name, tool] of each(ctx.m.tools)) {
    if (!tool.examples?.length) continue;
    const input = ctx.registry.validator(tool.input ?? { type: 'object', properties: {}, additionalProperties: false });
    const output = tool.output === undefined ? undefined : ctx.registry.validator(tool.output);
    tool.examples.forEach((ex, i) => {
      validate(ctx, input, ex.input, ['tools', name, 'examples', i, 'input'], 'MG611', 'input');
      if (ex.output !== undefined) validate(ctx, output, ex.output, ['tools', name, 'examples', i, 'output'], 'MG612', 'output');
    });
  }
}

function validate(
  ctx: CheckContext,
  fn: ValidateFunction | undefined,
  data: unknown,
  path: (string | number)[],
  code: 'MG611' | 'MG612',
  role: string,
): void {
  if (!fn || fn(data)) return;
  const { pointer, message } = describeDataError(fn.errors);
  ctx.r.error(code, [...path, ...pointerToPath(pointer, data)], `example ${role} does not match the tool's ${role} schema: ${message}`,
    `fix the example, or the ${role} schema if the example is right`);
}
