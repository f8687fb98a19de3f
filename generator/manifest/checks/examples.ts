import type { ErrorObject } from 'ajv';
import { describeDataError } from '../json-schema.js';
import { pointerToPath } from '../pointer.js';
import type { Check, CheckContext, Entry } from './context.js';

function checkToolExamples(ctx: CheckContext, e: Entry): void {
  if (!ctx.registry || e.section !== 'tools') return;
  const { name, value: tool } = e;
  if (!tool.examples?.length) return;
  const registry = ctx.registry;
  const input = tool.input ?? { type: 'object', properties: {}, additionalProperties: false };
  tool.examples.forEach((ex, i) => {
    validate(ctx, registry.mismatch(input, ex.input), ex.input, ['tools', name, 'examples', i, 'input'], 'MG611', 'input');
    if (ex.output !== undefined && tool.output !== undefined) {
      validate(ctx, registry.mismatch(tool.output, ex.output), ex.output, ['tools', name, 'examples', i, 'output'], 'MG612', 'output');
    }
  });
}

function validate(
  ctx: CheckContext,
  errors: ErrorObject[] | undefined,
  data: unknown,
  path: (string | number)[],
  code: 'MG611' | 'MG612',
  role: string,
): void {
  if (!errors) return;
  const { pointer, message } = describeDataError(errors);
  ctx.r.error(code, [...path, ...pointerToPath(pointer, data)], `example ${role} does not match the tool's ${role} schema: ${message}`,
    `fix the example, or the ${role} schema if the example is right`);
}

/** Example calls must fit the tool's schemas: contract tests replay them against the real server. */
export const checkExamples: Check = { entry: checkToolExamples };
