/**
 * The audit sinks' exit flush: one process exit listener however many sinks exist (a server per test or
 * request each made one, and Node warned of a listener leak past ten), and events still pending when the
 * process exits are written.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { jsonLinesAudit, type AuditEvent } from '../../generator/runtime/index.js';
import { repoRoot } from '../helpers/paths.js';

const event: AuditEvent = { time: '2026-01-01T00:00:00.000Z', kind: 'tool', name: 'notes.get', principal: 'local', argsSha256: 'x', outcome: 'ok', durationMs: 0 };

describe('audit exit flush', () => {
  it('adds at most one exit listener for twenty sinks with pending events', async () => {
    const before = process.listenerCount('exit');
    const written: string[] = [];
    for (let i = 0; i < 20; i++) jsonLinesAudit({ write: (t: string) => written.push(t) })(event);
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
    await new Promise((r) => setImmediate(r));
    expect(written).toHaveLength(20);
  });

  it('writes events still pending when the process exits', () => {
    const script = `
      import { jsonLinesAudit } from './generator/runtime/index.ts';
      const a = jsonLinesAudit({ write: (t) => process.stdout.write('a ' + t) });
      const b = jsonLinesAudit({ write: (t) => process.stdout.write('b ' + t) });
      a(${JSON.stringify(event)}); b(${JSON.stringify(event)});
      process.exit(0);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).map((l) => l.slice(0, 2))).toEqual(['a ', 'b ']);
  });
});
