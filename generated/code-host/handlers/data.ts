/**
 * In-memory data of the code-host example: two repositories with files,
 * issues (with discussion threads) and pull requests (with diffs). Issues and
 * pull requests share one number sequence per repository, as on real hosts.
 * State is module-level, so every server instance of one process shares it.
 */
import { createHash } from 'node:crypto';
import type { CommentThread, Issue, PullRequest, RepoRef } from '../types.gen.js';

/** An issue with what the `Issue` schema leaves out. */
interface IssueRecord extends Issue {
  closedAt?: string;
  thread: CommentThread[];
}

/** A pull request with what the `PullRequest` schema leaves out. */
interface PullRecord extends PullRequest {
  mergedAt?: string;
  mergeSha?: string;
  diff: string;
  comments: { author: string; body: string }[];
}

interface Repo {
  readonly owner: string;
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly issues: IssueRecord[];
  readonly pulls: PullRecord[];
}

/** Seed timestamps are relative to process start so "last week" always has content. */
const started = Date.now();
const daysAgo = (days: number): string => new Date(started - days * 86_400_000).toISOString();

const reply = (author: string, body: string, replies: CommentThread[] = []): CommentThread => ({ author, body, replies });

const repos: Repo[] = [
  {
    owner: 'acme',
    name: 'rocket',
    files: {
      'README.md': '# rocket\n\nFlight software for the Acme test rocket.\n\nRun `npm test` before opening a pull request.\n',
      'CONTRIBUTING.md':
        '# Contributing to rocket\n\n1. Every change comes with tests.\n2. Public functions carry documentation comments.\n' +
        '3. Pull requests stay under 400 changed lines; split larger work.\n4. A reviewer approves the exact head commit that is merged.\n',
      'package.json': '{\n  "name": "rocket",\n  "version": "0.8.0",\n  "type": "module",\n  "scripts": { "test": "vitest run" }\n}\n',
      'src/countdown.ts': '/** Seconds left before ignition, counting down to 0. */\nexport function* countdown(from: number): Generator<number> {\n  for (let t = from; t >= 0; t--) yield t;\n}\n',
      'src/altitude.ts': '/** Formats an altitude in feet. */\nexport function formatAltitude(feet: number): string {\n  return `${feet.toFixed(0)} ft`;\n}\n',
      'test/countdown.test.ts': "import { expect, it } from 'vitest';\nimport { countdown } from '../src/countdown.js';\n\nit('counts down to zero', () => {\n  expect([...countdown(3)]).toEqual([3, 2, 1, 0]);\n});\n",
    },
    issues: [
      {
        number: 1,
        title: 'Countdown skips T-3',
        state: 'closed',
        labels: ['bug'],
        closedAt: daysAgo(2),
        thread: [reply('lena', 'The log jumps from T-4 to T-2.', [reply('omar', 'Off-by-one in the loop bound; fixed in #6.')])],
      },
      { number: 2, title: 'Document the telemetry frame format', state: 'open', labels: ['docs'], thread: [] },
      {
        number: 3,
        title: 'Show altitude in metres',
        state: 'open',
        labels: ['feature'],
        thread: [reply('kim', 'Ground crew in Europe read metres.', [reply('omar', 'PR #7 adds a unit option.')])],
      },
      { number: 4, title: 'Flaky ignition sequence test', state: 'closed', labels: ['bug'], closedAt: daysAgo(12), thread: [reply('lena', 'Fixed by seeding the clock.')] },
      { number: 5, title: 'How do I run a dry launch?', state: 'open', labels: ['question'], thread: [reply('sam', 'Is there a flag that skips ignition?')] },
    ],
    pulls: [
      {
        number: 6,
        title: 'Fix countdown off-by-one',
        state: 'merged',
        mergeable: false,
        headSha: '3f9c2a1d7e4b5c6a8d9e0f1a2b3c4d5e6f7a8b9c',
        mergedAt: daysAgo(2),
        mergeSha: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
        diff: 'diff --git a/src/countdown.ts b/src/countdown.ts\n--- a/src/countdown.ts\n+++ b/src/countdown.ts\n@@ -1,4 +1,4 @@\n-  for (let t = from; t > 1; t -= 2) yield t;\n+  for (let t = from; t >= 0; t--) yield t;\n',
        comments: [{ author: 'lena', body: 'Confirmed on the test stand.' }],
      },
      {
        number: 7,
        title: 'Add a metric unit option to the altitude readout',
        state: 'open',
        mergeable: true,
        headSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
        diff:
          'diff --git a/src/altitude.ts b/src/altitude.ts\n--- a/src/altitude.ts\n+++ b/src/altitude.ts\n@@ -1,4 +1,6 @@\n-/** Formats an altitude in feet. */\n-export function formatAltitude(feet: number): string {\n-  return `${feet.toFixed(0)} ft`;\n+/** Formats an altitude in feet or metres. */\n+export function formatAltitude(feet: number, unit: \'ft\' | \'m\' = \'ft\'): string {\n+  if (unit === \'m\') return `${(feet * 0.3048).toFixed(0)} m`;\n+  return `${feet.toFixed(0)} ft`;\n }\n',
        comments: [],
      },
      {
        number: 8,
        title: 'Split the engine module',
        state: 'open',
        mergeable: false,
        headSha: 'c0ffee12345678901234567890abcdef12345678',
        diff: 'diff --git a/src/engine.ts b/src/engine/index.ts\nsimilarity index 92%\nrename from src/engine.ts\nrename to src/engine/index.ts\n',
        comments: [{ author: 'kim', body: 'Conflicts with main after #6; please rebase.' }],
      },
    ],
  },
  {
    owner: 'acme',
    name: 'launchpad',
    files: {
      'README.md': '# launchpad\n\nControls for the launch pad: lights, clamps and the abort switch.\n',
      'src/lights.ts': '/** Turns every pad light off. */\nexport function lightsOff(): void {\n  // talks to the pad controller\n}\n',
    },
    issues: [
      { number: 1, title: 'Pad lights stay on after an abort', state: 'closed', labels: ['bug'], closedAt: daysAgo(1), thread: [reply('sam', 'Seen twice this month.')] },
    ],
    pulls: [
      {
        number: 2,
        title: 'Turn pad lights off on abort',
        state: 'merged',
        mergeable: false,
        headSha: '5d41402abc4b2a76b9719d911017c592a1b2c3d4',
        mergedAt: daysAgo(1),
        mergeSha: '7b502c3a1f48c8609ae212cdfb639dee39673f5e',
        diff: 'diff --git a/src/abort.ts b/src/abort.ts\n--- a/src/abort.ts\n+++ b/src/abort.ts\n@@ -3,3 +3,4 @@ export function abort(): void {\n   releaseClamps();\n+  lightsOff();\n }\n',
        comments: [],
      },
    ],
  },
];

export function findRepo(ref: RepoRef): Repo | undefined {
  return repos.find((r) => r.owner === ref.owner && r.name === ref.name);
}

export const fullName = (ref: RepoRef): string => `${ref.owner}/${ref.name}`;

/** Public view of an issue (the output schemas are closed). */
export function toIssue(i: IssueRecord): Issue {
  return { number: i.number, title: i.title, state: i.state, labels: [...i.labels] };
}

/** Known owners, and names of an owner's repositories, starting with `prefix`. */
export function ownersStartingWith(prefix: string): string[] {
  return [...new Set(repos.map((r) => r.owner))].filter((o) => o.startsWith(prefix));
}

export function repoNamesStartingWith(prefix: string, owner?: string): string[] {
  return repos.filter((r) => (owner === undefined || r.owner === owner) && r.name.startsWith(prefix)).map((r) => r.name);
}

export function allRepos(): readonly Repo[] {
  return repos;
}

export function findIssue(repo: Repo, number: number): IssueRecord | undefined {
  return repo.issues.find((i) => i.number === number);
}

export function findPull(repo: Repo, number: number): PullRecord | undefined {
  return repo.pulls.find((p) => p.number === number);
}

/** Opens an issue with the repository's next number. */
export function openIssue(repo: Repo, title: string, labels: readonly string[], body: string | undefined, author: string): IssueRecord {
  const number = Math.max(0, ...repo.issues.map((i) => i.number), ...repo.pulls.map((p) => p.number)) + 1;
  const issue: IssueRecord = { number, title, state: 'open', labels: [...labels], thread: body ? [reply(author, body)] : [] };
  repo.issues.push(issue);
  return issue;
}

/** Merges an open pull request and returns the merge commit's sha. */
export function mergePull(repo: Repo, pull: PullRecord, method: string): string {
  // Deterministic stand-in for a real merge commit.
  const sha = createHash('sha1').update(`${fullName(repo)}#${pull.number}:${pull.headSha}:${method}`).digest('hex');
  pull.state = 'merged';
  pull.mergeable = false;
  pull.mergedAt = new Date().toISOString();
  pull.mergeSha = sha;
  return sha;
}

/** Merged pull requests and closed issues since `since` (ISO time). */
export function activitySince(repo: Repo, since: string): { merged: PullRecord[]; closed: IssueRecord[] } {
  return {
    merged: repo.pulls.filter((p) => p.state === 'merged' && p.mergedAt !== undefined && p.mergedAt >= since),
    closed: repo.issues.filter((i) => i.state === 'closed' && i.closedAt !== undefined && i.closedAt >= since),
  };
}
