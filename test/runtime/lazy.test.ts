import { describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { compilationCount, createRuntime, jsonSchema, toolCallback, type ToolSpec } from '../../generator/runtime/index.js';
import { ERAS, connect } from './fixture.js';

// Module scope, as generated schemas.gen.ts does: 1000 distinct schemas.
const inputs = Array.from({ length: 1000 }, (_, i) =>
  jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'integer', minimum: i } }, required: ['n'], additionalProperties: false }),
);
const outputs = Array.from({ length: 1000 }, () => jsonSchema<{ doubled: number }>({ type: 'object', properties: { doubled: { type: 'integer' } }, required: ['doubled'] }));

function bigServer(): McpServer {
  const rt = createRuntime({ stderr: { write: () => true } });
  const server = new McpServer({ name: 'big', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  for (let i = 0; i < 1000; i++) {
    const spec: ToolSpec = { name: `tool_${i}`, output: true, scopes: [], idempotency: 'none', approval: 'none' };
    server.registerTool(spec.name, { description: `Tool ${i}`, inputSchema: inputs[i]!, outputSchema: outputs[i]! }, toolCallback(rt, spec, (input: { n: number }) => ({ doubled: input.n * 2 })));
  }
  return server;
}

describe.each(ERAS)('a 1000-tool server ($era era)', ({ mode }) => {
  it('registers and lists tools without compiling any schema, then compiles on first use only', async () => {
    const before = compilationCount();
    const conn = await connect(mode, bigServer);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools).toHaveLength(1000);
      expect(tools[7]?.inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'integer', minimum: 7 } } });
      expect(compilationCount()).toBe(before);

      const first = await conn.client.callTool({ name: 'tool_500', arguments: { n: 600 } });
      expect(first.structuredContent).toEqual({ doubled: 1200 });
      const afterFirst = compilationCount();
      expect(afterFirst - before).toBeLessThanOrEqual(2); // input + output of tool_500 (output once per process)
      await conn.client.callTool({ name: 'tool_500', arguments: { n: 700 } });
      expect(compilationCount()).toBe(afterFirst);
    } finally {
      await conn.close();
    }
  });
});
