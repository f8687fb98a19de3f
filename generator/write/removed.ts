/**
 * Handlers of primitives removed from the manifest. The file is the author's, so it is kept; but it imports
 * types that no longer exist, so left alone it breaks the project's type check. It is marked out of the
 * check (`// @ts-nocheck` with the reason, on line 1), stays in the ownership record, and is reported by
 * every `generate` and `check` until the author deletes it. If the primitive comes back, the mark goes.
 * A file that does not parse is left unmarked; whether it parses is known without TypeScript when a run
 * recorded its content as parsing (`ParseEvidence`), which is the common case: loading TypeScript to find
 * out costs more than the rest of a one-primitive regeneration.
 */
import { parses } from './handlers.js';
import type { Action, PlanNote } from './plan.js';
import { contentHash } from './record.js';

const MARK = '// @ts-nocheck mcp-gen:';

/** Line 1 of a removed primitive's handler. */
function retiredLine(kind: string, name: string): string {
  return `${MARK} ${kind} ${name} is no longer in the manifest, so this file is not served and not type-checked. Delete it when you no longer need it.\n`;
}

/** The handler without the removal mark, or the content itself when it has none. */
export function unretire(content: string): string {
  return content.startsWith(MARK) ? content.slice(content.indexOf('\n') + 1) : content;
}

/** How to tell whether a removed primitive's handler parses. */
export interface ParseEvidence {
  /**
   * The `contentHash` of a content of `path` a run knew to parse (it wrote it, or TypeScript parsed it; see
   * `DiskRecord.handlers`): a file with that hash parses, since parsing depends on the text alone.
   */
  readonly parsed?: (path: string) => string | undefined;
  /** Asks TypeScript, for a file without such a proof (default: `parses`, which loads it). */
  readonly parse?: (content: string) => Promise<boolean>;
}

/** True when `content` of `path` parses: by the recorded proof when there is one, else by asking TypeScript. */
async function parsesNow(path: string, content: string, evidence: ParseEvidence): Promise<boolean> {
  const known = evidence.parsed?.(path);
  if (known !== undefined && known === contentHash(content)) return true;
  return (evidence.parse ?? parses)(content);
}

/**
 * Keeps, marks and reports the handlers in `recorded` (the last run's `kind:name` → path) whose primitive
 * is gone; adds them to `handlers` (this run's record) while their file exists. A file is marked only when
 * it parses (`evidence` says so, else TypeScript). `proven` gets, per kept file, the `contentHash` of its
 * content without the mark when that content is known to parse: the proof stays with the file while it is
 * out of the manifest, so a primitive that comes back, and goes again, is marked without TypeScript.
 */
export async function planRemovedHandlers(
  recorded: Readonly<Record<string, string>>,
  handlers: Record<string, string>,
  renamed: ReadonlySet<string>,
  read: (rel: string) => Promise<string | undefined>,
  actions: Action[],
  notes: PlanNote[],
  evidence: ParseEvidence = {},
  proven?: Map<string, string>,
): Promise<void> {
  const current = new Set(Object.values(handlers));
  const gone = Object.entries(recorded).filter(([key, path]) => handlers[key] === undefined && !current.has(path) && !renamed.has(key));
  for (const [key, path] of gone) {
    const content = await read(path);
    if (content === undefined) continue; // deleted by the author: forgotten
    const [kind = '', ...rest] = key.split(':');
    const name = rest.join(':');
    handlers[key] = path;
    // A file that does not parse is left alone (the mark would not make it compile anyway).
    if (!content.startsWith(MARK) && (await parsesNow(path, content, evidence))) {
      actions.push({ kind: 'write', path, content: retiredLine(kind, name) + content, reason: 'edited' });
      proven?.set(path, contentHash(content));
    } else if (content.startsWith(MARK)) {
      const known = evidence.parsed?.(path);
      if (known !== undefined) proven?.set(path, known);
    }
    notes.push({ level: 'warning', path, message: `${kind} ${name} is no longer in the manifest; its handler is kept, not served and out of the type check (// @ts-nocheck on line 1). Delete the file when you no longer need it.` });
  }
}
