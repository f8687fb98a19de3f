/**
 * A reduced fuzz run (scripts/fuzz.ts has the full 10,000-message version):
 * random and malformed JSON-RPC against the support-desk example over stdio
 * and loopback HTTP. The server must survive and every reply must be
 * well-formed JSON-RPC without leaked stacks or paths.
 */
import { describe, expect, it } from 'vitest';
import { fuzzHttp, fuzzStdio, type FuzzReport } from '../../scripts/fuzz.js';

const server = 'generated/support-desk/main.gen.ts';

function summary(report: FuzzReport): string {
  return `${report.transport}: sent ${report.sent}, replies ${report.replies}, malformed ${report.malformed.length}, crashed ${report.crashed} ${JSON.stringify(report.kinds)}`;
}

describe('fuzzing a generated server', () => {
  it('survives 400 hostile messages over stdio with well-formed replies', async () => {
    const report = await fuzzStdio({ server, count: 400, seed: 7, timeLimitMs: 20_000 });
    process.stderr.write(`${summary(report)}\n`);
    expect(report.crashed).toBe(false);
    expect(report.malformed).toEqual([]);
    expect(report.replies).toBeGreaterThan(50);
  }, 60_000);

  it('survives 400 hostile requests over loopback HTTP with well-formed replies', async () => {
    const report = await fuzzHttp({ server, count: 400, seed: 8, timeLimitMs: 20_000 });
    process.stderr.write(`${summary(report)}\n`);
    expect(report.crashed).toBe(false);
    expect(report.malformed).toEqual([]);
    expect(report.sent).toBe(400);
  }, 60_000);
});
