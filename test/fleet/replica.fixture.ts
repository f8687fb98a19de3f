/**
 * One replica of the support-desk example for the fleet tests: the generated
 * server and entry point options, with the two write tools instrumented so
 * the test can count handler runs across processes (one line per run in
 * FLEET_RUN_LOG, appended atomically). Everything else is the generated code
 * and `runMain`, so `--redis` / `MCP_REDIS_URL` are exercised as shipped.
 *
 * - `refunds.create_draft` logs `start`, holds while the FLEET_HOLD file exists
 *   (so a test can kill the replica mid-call), then runs the generated handler,
 *   logs `effect` and announces `support://tickets/T-<1000 + amountMinor>` changed.
 * - `refunds.submit` logs `submit` and answers a payment reference; receipts
 *   starting with `approved-` are valid (each usable once, fleet-wide).
 * - Tools without a manifest timeout get 1.5 s (FLEET_TIMEOUT_MS), so a lost
 *   run's lease (twice the budget) ends within seconds.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { launchOptions, runMain } from 'mcp-gen/runtime';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer, serverInfo } from '../../generated/support-desk/server.gen.js';
import type { Handlers } from '../../generated/support-desk/types.gen.js';

const replica = process.env['MCP_REPLICA_ID'] ?? 'unknown';
const runLog = process.env['FLEET_RUN_LOG'];
const hold = process.env['FLEET_HOLD'];
const record = (line: string): void => {
  if (runLog) appendFileSync(runLog, `${line}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const instrumented: Handlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    refundsCreateDraft: async (input, ctx) => {
      record(`start ${replica} ${ctx.idempotencyKey}`);
      while (hold && existsSync(hold)) await sleep(20);
      const draft = await handlers.tools.refundsCreateDraft(input, ctx);
      record(`effect ${replica} ${ctx.idempotencyKey}`);
      await ctx.notifyResourceUpdated(`support://tickets/T-${1000 + input.amountMinor}`);
      return draft;
    },
    refundsSubmit: async (input, ctx) => {
      record(`submit ${replica} ${ctx.idempotencyKey}`);
      return { draftId: input.draftId, status: 'submitted' as const, paymentReference: `PAY-${replica}-${ctx.idempotencyKey}` };
    },
  },
};

await runMain(
  (context, services) =>
    createServer(instrumented, {
      ...launchOptions(),
      ...services,
      era: context.era,
      audit: false,
      limits: { timeoutMs: Number(process.env['FLEET_TIMEOUT_MS'] ?? 1500) },
      approval: { verifyReceipt: ({ receipt }) => receipt.startsWith('approved-') },
    }),
  serverInfo,
);
