// Entry point shaped like a generated main.gen.ts, spawned by main.test.ts.
import { runMain } from '../../generator/runtime/index.js';
import { createServer } from './fixture.js';

await runMain((ctx) => createServer({ era: ctx.era }), { name: 'support-desk', version: '1.4.0' });
