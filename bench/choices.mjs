/**
 * `node bench/choices.mjs` (after `npm run build`): the measurements behind the two libraries the
 * generator holds twice (docs/architecture.md, "Libraries held twice").
 *   - YAML: js-yaml reading the 1,000-primitive manifest's value, against `yaml` building its document
 *     with positions (what a finding's line and column need) and converting it to a value.
 *   - JSON Schema: checking one made-up sample per tool input of that manifest with the interpretive
 *     @cfworker/json-schema (dist/schema/fastValidate.js), against compiling each schema with Ajv and
 *     validating (what the generated servers do once per process).
 * Medians of BENCH_RUNS (default 5) runs in this process, after one warm-up.
 */
import { loadavg } from 'node:os';
import { load as loadYaml } from 'js-yaml';
import { parseDocument } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { manifestYaml } from './synth.mjs';
import { FastValidator } from '../dist/schema/fastValidate.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  fn();
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(xs);
}

const text = manifestYaml(1000);
const value = loadYaml(text);
const named = Object.entries(value.schemas ?? {}).map(([name, s]) => [`mcp-gen:///schemas/${name}`, s]);
const inputs = Object.values(value.tools ?? {}).map((t) => t.input ?? { type: 'object' });
const rewrite = (s) => JSON.parse(JSON.stringify(s).replaceAll('"#/schemas/', '"mcp-gen:///schemas/'));
const schemas = inputs.map(rewrite);

const jsYamlMs = time(() => loadYaml(text));
const yamlMs = time(() => parseDocument(text, { keepSourceTokens: false }).toJS());
const fastMs = time(() => {
  const v = new FastValidator(named);
  for (const s of schemas) v.valid(s, {});
});
const ajvMs = time(() => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  for (const [id, s] of named) ajv.addSchema({ ...s, $id: id });
  for (const s of schemas) ajv.compile(s)({});
});

console.log(`Node ${process.version}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}, ${RUNS} runs each, 1,000 primitives (${schemas.length} tool inputs, ${(text.length / 1024).toFixed(0)} KiB of YAML)`);
console.log(`| choice | median | ratio |`);
console.log(`| --- | --- | --- |`);
console.log(`| YAML: js-yaml, value | ${jsYamlMs.toFixed(1)} ms | 1.00x |`);
console.log(`| YAML: yaml, document with positions, then value | ${yamlMs.toFixed(1)} ms | ${(yamlMs / jsYamlMs).toFixed(2)}x |`);
console.log(`| JSON Schema: @cfworker/json-schema, one sample per tool input | ${fastMs.toFixed(1)} ms | 1.00x |`);
console.log(`| JSON Schema: Ajv, compile and validate each | ${ajvMs.toFixed(1)} ms | ${(ajvMs / fastMs).toFixed(2)}x |`);
