import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isTextualMime } from '../mime.js';
import type { Check, CheckContext, Entry } from './context.js';

/**
 * Reads `source:` files of fixed resources: relative paths only (the output
 * must not depend on the machine), inside the manifest's folder (a manifest
 * must not be able to copy any file of the machine into generated code that
 * gets committed and served), text for textual MIME types, base64 otherwise.
 */
function checkSource(ctx: CheckContext, e: Entry): void {
  if (e.section !== 'resources') return;
  const { name, value: res } = e;
  if (res.source === undefined || res.uriTemplate !== undefined) return;
  const at = ['resources', name, 'source'];
  const src = res.source;
  if (isAbsolute(src) || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(src) || src.startsWith('\\')) {
    ctx.r.error('MG411', at, `\`source: ${src}\` must be a path relative to the manifest's folder, not an absolute path or URL`,
      'copy the file next to the manifest and write e.g. `./content/policy.md`');
    return;
  }
  const full = resolve(ctx.manifestDir, src);
  const inside = relative(ctx.manifestDir, full);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) {
    ctx.r.error('MG411', at, `\`source: ${src}\` leaves the manifest's folder; a served file must live inside it`,
      'copy the file into the manifest\'s folder (e.g. `./content/`) and point `source:` at the copy');
    return;
  }
  const bytes = ctx.readFile(full);
  if (!bytes) {
    ctx.r.error('MG412', at, `\`source\` file \`${src}\` cannot be read`, "check the path; it is resolved against the manifest's folder");
    return;
  }
  // The runtime refuses every read over budget: a file that is already over it could never be served.
  if (res.maxBytes !== undefined && bytes.length > res.maxBytes) {
    ctx.r.error('MG415', at, `\`source\` file \`${src}\` is ${bytes.length} bytes, over the resource's \`maxBytes: ${res.maxBytes}\`; every read would be refused`,
      'raise `maxBytes` to at least the file\'s size, or serve a shorter file');
    return;
  }
  if (!isTextualMime(res.mimeType)) {
    ctx.sources.set(name, { path: src, content: Buffer.from(bytes).toString('base64'), encoding: 'base64' });
    return;
  }
  try {
    const content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    ctx.sources.set(name, { path: src, content, encoding: 'text' });
  } catch {
    ctx.r.error('MG413', at, `\`source\` file \`${src}\` is not valid UTF-8, but \`${res.mimeType}\` is served as text`,
      'save the file as UTF-8, or declare a binary MIME type');
  }
}

/** The files `source:` serves, read through the run's inputs. */
export const checkSources: Check = { entry: checkSource };
