/**
 * Handlers of primitives removed from the manifest. The file is the author's, so it is kept; but it imports
 * types that no longer exist, so left alone it breaks the project's type check. It is marked out of the
 * check (`// @ts-nocheck` with the reason, on line 1), stays in the ownership record, and is reported by
 * every `generate` and `check` until the author deletes it. If the primitive comes back, the mark goes.
 */
import { parses } from './handlers.js';
import type { Action, PlanNote } from './plan.js';

const MARK = '// @ts-nocheck mcp-gen:';

/** Line 1 of a removed primitive's handler. */
function retiredLine(kind: string, name: string): string {
  return `${MARK} ${kind} ${name} is no longer in the manifest, so this file is not served and not type-checked. Delete it when you no longer need it.\n`;
}

/** The handler without the removal mark, or the content itself when it has none. */
export function unretire(content: string): string {
  return content.startsWith(MARK) ? content.slice(content.indexOf('\n') + 1) : content;
}

/**
 * Keeps, marks and reports the handlers in `recorded` (the last run's `kind:name` → path) whose primitive
 * is gone; adds them to `handlers` (this run's record) while their file exists.
 */
export async function planRemovedHandlers(
  recorded: Readonly<Record<string, string>>,
  handlers: Record<string, string>,
  renamed: ReadonlySet<string>,
  read: (rel: string) => Promise<string | undefined>,
  actions: Action[],
  notes: PlanNote[],
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
    if (!content.startsWith(MARK) && (await parses(content))) actions.push({ kind: 'write', path, content: retiredLine(kind, name) + content, reason: 'edited' });
    notes.push({ level: 'warning', path, message: `${kind} ${name} is no longer in the manifest; its handler is kept, not served and out of the type check (// @ts-nocheck on line 1). Delete the file when you no longer need it.` });
  }
}
