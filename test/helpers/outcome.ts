/** What a generation run came to, as text two runs can be compared by. */

/**
 * `ok` with the run's notes, or `error:` with its message and diagnostics. The notes count: a cached run
 * may skip reading a handler only where a run without the cache would note nothing. The message names
 * the output folder, the one thing two runs into `cached` and `plain` do not share.
 */
export async function outcome(run: () => Promise<{ readonly notes: readonly { readonly path: string; readonly message: string }[] }>): Promise<string> {
  try {
    const r = await run();
    return ['ok', ...r.notes.map((n) => `${n.path} ${n.message}`)].join('\n');
  } catch (e) {
    const diagnostics = (e as { diagnostics?: readonly { code: string; path: string; message: string }[] }).diagnostics ?? [];
    return `error: ${(e as Error).message.replace(/\b(cached|plain)\b/g, 'out')}\n${diagnostics.map((d) => `${d.code} ${d.path} ${d.message}`).join('\n')}`;
  }
}
