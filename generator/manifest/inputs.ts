/**
 * The input files of one run: the manifest, `$ref`'d schema files and `source:` files. The phases that
 * need a file ask this object, which records every path asked for (for `--watch` and the fast path) and
 * parses each YAML file once. It is created by the pipeline and passed in; nothing is held between runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { parseYaml, type ParsedFile } from './load.js';

/** A path for messages: relative to the working directory whenever one exists. */
export function display(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !isAbsolute(rel) ? rel : abs;
}

/** Reads and remembers the input files of one run. */
export class InputFiles {
  private readonly read = new Set<string>();
  private readonly parsed = new Map<string, ParsedFile | undefined>();
  private readonly contents = new Map<string, Uint8Array | undefined>();

  /**
   * Every absolute path read so far: the first read (the manifest) first, then the others in code-unit
   * order, so a run that reads a file sooner (the incremental cache checks a kept entry's files while
   * parsing) lists the same inputs as one that does not.
   */
  get files(): string[] {
    const [first, ...rest] = this.read;
    return first === undefined ? [] : [first, ...rest.sort()];
  }

  /** The manifest's text, or the reason it cannot be read. */
  async text(abs: string): Promise<{ text: string } | { error: string }> {
    this.read.add(abs);
    try {
      return { text: await readFile(abs, 'utf8') };
    } catch (err) {
      return { error: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})` };
    }
  }

  /**
   * A file's bytes, or undefined when it cannot be read; read once a run, so every step that reads it
   * (the incremental cache checking a kept entry's served file, then the check that serves it) sees the
   * same bytes.
   */
  bytes(abs: string): Uint8Array | undefined {
    this.read.add(abs);
    if (this.contents.has(abs)) return this.contents.get(abs);
    let bytes: Uint8Array | undefined;
    try {
      bytes = readFileSync(abs);
    } catch {
      bytes = undefined;
    }
    this.contents.set(abs, bytes);
    return bytes;
  }

  /**
   * Whether a path exists: a probe, not an input (a file's bytes are what `files` lists and the fast path
   * hashes), used to find the project folder that `$ref`'d files must stay inside.
   */
  exists(abs: string): boolean {
    return existsSync(abs);
  }

  /** A YAML or JSON file parsed with positions, once per run. */
  yaml(abs: string): ParsedFile | undefined {
    if (!this.parsed.has(abs)) {
      const bytes = this.bytes(abs);
      this.parsed.set(abs, bytes ? parseYaml(Buffer.from(bytes).toString('utf8'), display(abs)) : undefined);
    }
    return this.parsed.get(abs);
  }
}
