/**
 * A local reference may point at any subschema of the schema that holds it (`#/properties/a`, as
 * zod-to-json-schema writes a reused type), not only into `$defs`: it is published as written, the
 * runtime validates through it, and a pointer to nothing is a located error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseManifest } from '../../generator/pipeline.js';
import { jsonSchema } from '../../generator/runtime/schema/jsonSchema.js';

const dir = mkdtempSync(join(resolve(import.meta.dirname, '../..'), '.tmp-local-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifestWith(second: string): string {
  const file = join(dir, `m${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `mcpgen: 1
server: { name: demo, version: 1.0.0 }
tools:
  think:
    sideEffect: read
    input:
      type: object
      properties:
        done: { type: boolean, description: Whether it is done }
        again: { $ref: "${second}", description: Reuses done }
      required: [done]
`);
  return file;
}

describe('local JSON pointer references', () => {
  it('are published as written and validated through', async () => {
    const analysis = await analyseManifest(manifestWith('#/properties/done'));
    expect(analysis.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const input = analysis.contract!.tools[0]!.listing.inputSchema as Record<string, any>;
    expect(input.properties.again).toEqual({ $ref: '#/properties/done', description: 'Reuses done' });
    const v = jsonSchema(input);
    expect(v.check({ done: true, again: false }).issues).toBeUndefined();
    expect(v.check({ done: true, again: 'yes' }).issues?.length).toBeGreaterThan(0);
  });

  it('to nothing is MG608 at the reference', async () => {
    const analysis = await analyseManifest(manifestWith('#/properties/missing'));
    const d = analysis.diagnostics.find((x) => x.code === 'MG608');
    expect(d).toMatchObject({ line: 10, path: 'tools.think.input.properties.again.$ref' });
  });

  it('still reads #/schemas/… as the manifest\'s named schemas', async () => {
    const analysis = await analyseManifest(manifestWith('#/schemas/Done'));
    expect(analysis.diagnostics.map((d) => d.code)).toContain('MG604');
  });
});
