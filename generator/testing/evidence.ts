/**
 * The evidence pack of one scenario run: what a reviewer needs to tell which boundary broke (context,
 * instruction or execution) without trusting a fluent final answer. JSON, deterministic apart from the
 * fields it lists under `nondeterministic`.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { sha256Of, type AuditEvent, type Effect } from '../runtime/index.js';

/** The seed's gate families, as the suites and packs name them. */
export type GateFamily = 'hard' | 'quality' | 'compatibility' | 'recovery';

/** One gate's outcome in a scenario (a failure names the step). */
export interface GateVerdict {
  readonly gate: GateFamily;
  /** `cross-tenant canary`, `hidden side effect`, `unauthorized write`, `stale revision`, `capability vs behaviour`, `retry after an ambiguous timeout`. */
  readonly check: string;
  readonly step?: number;
  readonly passed: boolean;
  readonly detail: string;
}

/** The reviewer's verdict on one assertion (or one call's expected outcome). */
export interface AssertionVerdict {
  readonly step: number;
  readonly passed: boolean;
  readonly because?: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** Everything one scenario run leaves behind. */
export interface EvidencePack {
  readonly evidence: 'mcp-gen/scenario@1';
  readonly scenario: string;
  readonly description?: string;
  /** Fields whose values change from run to run; everything else is the same for the same server. */
  readonly nondeterministic: readonly string[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly protocolVersion: string | undefined;
  /** What the server said about itself at initialize (2025) or server/discover (2026). */
  readonly capabilityManifest: { readonly serverInfo: unknown; readonly capabilities: unknown; readonly instructions?: string };
  readonly catalog: CatalogHashes;
  readonly steps: readonly Record<string, unknown>[];
  readonly approvals: readonly Record<string, unknown>[];
  readonly finalState: { readonly state: Record<string, unknown>; readonly reads: readonly Record<string, unknown>[] };
  /** Changes the handlers made through their context, per step. */
  readonly effects: readonly (Effect & { readonly step: number })[];
  /** The audit events of the flow, as the server's audit stream wrote them. */
  readonly audit: readonly AuditEvent[];
  readonly gates: readonly GateVerdict[];
  readonly verdict: { readonly passed: boolean; readonly assertions: readonly AssertionVerdict[]; readonly failedGates: readonly string[] };
  /** Steps that reached a handler still the generated stub: the flow cannot be judged yet (a todo). */
  readonly stubbedSteps?: readonly number[];
}

/** The catalog as served (sha256 of each listing entry, the runtime's canonical hashing) and as locked. */
export interface CatalogHashes {
  readonly served: {
    readonly catalogHash: string;
    readonly tools: Record<string, string>;
    readonly resources: Record<string, string>;
    readonly resourceTemplates: Record<string, string>;
    readonly prompts: Record<string, string>;
  };
  /** `mcp.lock.json`'s hashes of the published contracts (absent when no lock file was given). */
  readonly lock?: { readonly catalogHash: unknown; readonly tools: Record<string, unknown>; readonly resources: Record<string, unknown>; readonly prompts: Record<string, unknown> };
}

const hash = (value: unknown): string => `sha256:${sha256Of(value)}`;

/** Hashes every listing the server answers (a capability it lacks contributes nothing). */
export async function catalogHashes(client: Client, lockFile?: string): Promise<CatalogHashes> {
  const caps = client.getServerCapabilities() ?? {};
  const byKey = <T extends Record<string, unknown>>(items: readonly T[], key: string): Record<string, string> =>
    Object.fromEntries(items.map((item) => [String(item[key]), hash(item)]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
  const tools = caps.tools ? byKey((await client.listTools()).tools, 'name') : {};
  const resources = caps.resources ? byKey((await client.listResources()).resources, 'uri') : {};
  const resourceTemplates = caps.resources ? byKey((await client.listResourceTemplates()).resourceTemplates, 'name') : {};
  const prompts = caps.prompts ? byKey((await client.listPrompts()).prompts, 'name') : {};
  const served = { catalogHash: hash({ tools, resources, resourceTemplates, prompts }), tools, resources, resourceTemplates, prompts };
  return { served, ...(lockFile === undefined ? {} : { lock: lockHashes(lockFile) }) };
}

function lockHashes(file: string): NonNullable<CatalogHashes['lock']> {
  const lock = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const hashes = (section: unknown): Record<string, unknown> =>
    Object.fromEntries(Object.entries((section ?? {}) as Record<string, { hash?: unknown }>).map(([name, entry]) => [name, entry.hash]));
  return { catalogHash: lock['catalogHash'], tools: hashes(lock['tools']), resources: hashes(lock['resources']), prompts: hashes(lock['prompts']) };
}

/** The folder `mcp-gen evidence` asks the suites to write packs to (none: packs stay in memory). */
export const EVIDENCE_DIR_VARIABLE = 'MCP_GEN_EVIDENCE_DIR';

/** A file name made of the scenario and the era, safe on every file system. */
export function evidenceFileName(scenario: string, era: string): string {
  return `${scenario.replace(/[^A-Za-z0-9._-]+/g, '_')}.${era}.json`;
}

/**
 * Writes the pack to `dir` (default: the folder `MCP_GEN_EVIDENCE_DIR` names; nothing without one),
 * through a temporary file, so a reader never sees half a pack. Returns the path written.
 */
export function writeEvidence(pack: EvidencePack, era: string, dir = process.env[EVIDENCE_DIR_VARIABLE]): string | undefined {
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, evidenceFileName(pack.scenario, era));
  writeFileSync(`${path}.tmp`, `${JSON.stringify(pack, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** One line per failure: which gate or assertion broke, at which step. Empty when the pack passed. */
export function failureSummary(pack: EvidencePack): string[] {
  const gates = pack.gates.filter((g) => !g.passed).map((g) => `${g.gate} gate · ${g.check}${g.step === undefined ? '' : ` (step ${g.step})`}: ${g.detail}`);
  const asserts = pack.verdict.assertions
    .filter((a) => !a.passed)
    .map((a) => `reviewer verdict (step ${a.step})${a.because ? ` ${a.because}` : ''}: expected ${JSON.stringify(a.expected)}, got ${JSON.stringify(a.actual)}`);
  return [...gates, ...asserts];
}
