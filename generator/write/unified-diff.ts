/**
 * The diffs `mcp-gen check` shows for a stale file: a unified diff of the lines that changed (common lines
 * are context, never shown as removed and re-added), and for `mcp.lock.json` a summary by primitive, which
 * says more than a page of hashes.
 */

/** One line of a line diff. */
type Op = { readonly kind: ' ' | '-' | '+'; readonly text: string; readonly a: number; readonly b: number };

// Past this many cells (changed lines before × after) the middle is shown as one replaced block.
const LCS_LIMIT = 4_000_000;

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: ' ', text: a[i]!, a: i, b: i });
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB), start, start));
  for (let i = endA, j = endB; i < a.length; i++, j++) ops.push({ kind: ' ', text: a[i]!, a: i, b: j });
  return ops;
}

/** A longest-common-subsequence diff of the changed middle (offsets are the lines before it). */
function middle(a: readonly string[], b: readonly string[], offA: number, offB: number): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > LCS_LIMIT || n === 0 || m === 0) {
    return [...a.map((text, i): Op => ({ kind: '-', text, a: offA + i, b: offB })), ...b.map((text, j): Op => ({ kind: '+', text, a: offA + n, b: offB + j }))];
  }
  const len = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', text: a[i]!, a: offA + i++, b: offB + j++ });
    // On a tie the removal goes first, as diff -u shows a replaced line.
    else if (j < m && (i === n || len[i]![j + 1]! > len[i + 1]![j]!)) ops.push({ kind: '+', text: b[j]!, a: offA + i, b: offB + j++ });
    else ops.push({ kind: '-', text: a[i]!, a: offA + i++, b: offB + j });
  }
  return ops;
}

/** The lines of a text; a final line break ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/**
 * A unified diff (`@@ -a,n +b,m @@` hunks with `context` lines around each change) of `before` → `after`,
 * cut after `maxLines` changed lines with a count of the rest.
 */
export function unifiedDiff(before: string, after: string, context = 3, maxLines = 40): string {
  const ops = lineOps(splitLines(before), splitLines(after));
  const changed = ops.flatMap((o, i) => (o.kind === ' ' ? [] : [i]));
  if (changed.length === 0) return '';
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const last = hunks[hunks.length - 1];
    if (last && i - last[1] <= 2 * context + 1) last[1] = i;
    else hunks.push([i, i]);
  }
  const out: string[] = [];
  let shown = 0;
  for (const [first, lastChange] of hunks) {
    if (shown >= maxLines) break;
    const lo = Math.max(0, first - context);
    const hi = Math.min(ops.length - 1, lastChange + context);
    const slice = ops.slice(lo, hi + 1);
    const countA = slice.filter((o) => o.kind !== '+').length;
    const countB = slice.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${slice[0]!.a + (countA > 0 ? 1 : 0)},${countA} +${slice[0]!.b + (countB > 0 ? 1 : 0)},${countB} @@`);
    for (const o of slice) {
      if (o.kind !== ' ' && shown >= maxLines) break;
      if (o.kind !== ' ') shown++;
      out.push(`${o.kind}${o.text}`);
    }
  }
  if (changed.length > shown) out.push(`… ${changed.length - shown} more changed line${changed.length - shown === 1 ? '' : 's'}`);
  return out.join('\n');
}

const KINDS = [['tools', 'tool'], ['resources', 'resource'], ['prompts', 'prompt']] as const;

/** What changed between two lock files, one line per primitive (and for the server and protocol). */
export function lockSummary(before: string, after: string): string {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(before) as Record<string, unknown>;
    b = JSON.parse(after) as Record<string, unknown>;
  } catch {
    return unifiedDiff(before, after);
  }
  const lines: string[] = [];
  const server = (x: Record<string, unknown>) => JSON.stringify(x['server']);
  if (server(a) !== server(b)) lines.push(`~ server: ${server(a)} → ${server(b)}`);
  if (JSON.stringify(a['protocolVersions']) !== JSON.stringify(b['protocolVersions'])) lines.push(`~ protocol versions: ${JSON.stringify(a['protocolVersions'])} → ${JSON.stringify(b['protocolVersions'])}`);
  for (const [key, label] of KINDS) {
    const was = (a[key] ?? {}) as Record<string, { hash?: string }>;
    const now = (b[key] ?? {}) as Record<string, { hash?: string }>;
    for (const name of [...new Set([...Object.keys(was), ...Object.keys(now)])].sort()) {
      if (!(name in now)) lines.push(`- ${label} ${name}: removed`);
      else if (!(name in was)) lines.push(`+ ${label} ${name}: added`);
      else if (was[name]!.hash !== now[name]!.hash) lines.push(`~ ${label} ${name}: contract changed (run \`mcp-gen diff\` for what it means to clients)`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : unifiedDiff(before, after);
}
