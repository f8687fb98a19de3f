// Entry point shaped like a generated main.gen.ts for the switchable server, spawned by switch-main.test.ts.
import { runMain } from '../../generator/runtime/index.js';
import { createSwitchServer } from './switch.fixture.js';

await runMain((ctx) => createSwitchServer({ era: ctx.era }), { name: 'switchable', version: '1.0.0' });
