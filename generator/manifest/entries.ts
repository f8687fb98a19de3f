/**
 * What the front of the pipeline computes for one entry of `tools:`, `resources:` or `prompts:` (its
 * shape checked, its `$ref`s resolved, its own checks, what the checks across entries read of it, its IR),
 * kept in the incremental cache so that a run after a one-primitive change computes it for that entry only.
 *
 * An entry's results are a function of its text (the piece of the manifest it was read from, see
 * yaml-chunks.ts) and of the other top-level sections its steps read: the server (scopes, capabilities),
 * the named schemas, `upstream:`. They are kept under a hash of the entry's section and text and of every
 * top-level section but `lint:` and `scenarios:` (which no step of one entry reads), and only for an entry
 * that had no finding at all. The files its steps read (the `source:` file it serves, the schema files its
 * own `$ref`s name, and those they name in turn) can change apart from the manifest: the record holds each
 * one's hash, and, for schema files, the project folder they were found inside (which decides whether a
 * `$ref` may reach them); it is used only while every file still has its hash and the folder is the same.
 * The files the named schemas `$ref` join that hash with their texts; a manifest whose named schemas' files
 * `$ref` further files keeps nothing. An entry with a kept record is
 * not read, checked or built again: the phases skip it, take its summary and IR from the record, and the
 * entry's value is read from its text only if something gets it.
 */
import { createRequire } from 'node:module';
import { jsonExact, keyHash, type GenerationCache } from '../cache.js';
import type { IrMemo } from '../ir/build.js';
import { keptForm } from '../ir/kept.js';
import type { IrPrimitive } from '../ir/types.js';
import type { EntrySummary, Section } from './checks/context.js';
import type { LazyEntries } from './yaml-chunks.js';

/** What a run keeps of one entry. */
interface EntryRecord {
  /** The entry's IR in its kept form (see ir/kept.ts). */
  ir?: unknown;
  readonly summary: EntrySummary;
  /**
   * The files its steps read, as `[absolute path, hash of the bytes]` (`source:` files, `$ref`'d schema
   * files), and `[PROJECT, folder]` when it read a schema file: the record holds while each still hashes
   * so and the project folder is the same.
   */
  readonly files?: readonly (readonly [string, string])[];
}

/** One entry of the manifest read in pieces. */
interface Known {
  /**
   * The entry's section and the hash of everything its results are a function of (see the module
   * comment): its record's key and its `keyOf` are made from it, so the entry's text is hashed once a run.
   */
  readonly key: string;
  readonly record?: EntryRecord;
  /** Computed this run: no finding and no file read so far. */
  clean: boolean;
  /** No file but `source:` files read so far: its IR and value are still a function of `key` and `files`. */
  pure: boolean;
  /** The `source:` files read this run (see `EntryRecord.files`). */
  readonly files: [string, string][];
  summary?: EntrySummary;
  ir?: IrPrimitive;
}

/** Top-level sections no step of one entry reads. */
const UNREAD = new Set(['tools', 'resources', 'prompts', 'lint', 'scenarios']);
const SECTIONS = new Set(['tools', 'resources', 'prompts']);
/** The `$ref`s to a file (not `#…`) in the JSON of the sections; the target is a JSON string's contents. */
const FILE_REFS = /"\$ref":"((?!#)(?:[^"\\]|\\.)*)"/g;
/** Any `$ref` in a schema file, in JSON or YAML, that may name another file (not `#…`). */
const NESTED_FILE_REF = /\$ref['"]?\s*:(?!\s*['"]?#)/;

/**
 * Reads a schema file a `$ref` of the manifest names (its part before any `#`, as written): its text, or
 * undefined when it is not read here (outside the manifest's folder, unreadable).
 */
export type RefFile = (path: string) => string | undefined;

/** The first member of the `files` pair that records the project folder schema files were found inside (never an absolute path). */
const PROJECT = 'project';

/** A hash of a file's bytes. */
const bytesHash = (bytes: Uint8Array): string => keyHash(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));

let parserVersion: string | undefined;
/** The version of js-yaml, which read the entries whose results are kept. */
function parser(): string {
  return (parserVersion ??= (createRequire(import.meta.url)('js-yaml/package.json') as { version: string }).version);
}

/** The entries of one run: their kept records, and what this run computes of the others. */
export class EntryMemo implements LazyEntries, IrMemo {
  private readonly entries = new Map<string, Known>();
  private readonly keys = new WeakMap<IrPrimitive, string>();
  /** IR entries restored from a kept record (the others were built this run). */
  private readonly restored = new WeakSet<IrPrimitive>();
  private current: Known | undefined;
  /** The hash of each file's bytes this run (`hashOf`). */
  private readonly hashes = new Map<string, string>();

  /**
   * `refFile` reads the schema files the named schemas `$ref`: their texts join the key of every entry.
   * `sourceFile` reads a `source:` file again (as the run's input): a kept record holds while its files are
   * as they were.
   */
  constructor(
    private readonly cache: GenerationCache,
    private readonly refFile?: RefFile,
    private readonly sourceFile?: (abs: string) => Uint8Array | undefined,
    /** The project folder a `$ref`'d file must lie inside (refs.ts `projectRoot`), as this run finds it. */
    private readonly projectRoot?: () => string,
  ) {}

  /**
   * `LazyEntries.choose`: the hash of the sections every entry's steps read (with the texts of the schema
   * files they `$ref`), and then, per entry, whether a record is kept for it (such an entry is left
   * unread). Nothing is kept when those sections are not exact JSON, or a file they `$ref` is not read
   * here or itself may `$ref` another file.
   */
  choose(rest: Readonly<Record<string, unknown>>): ((section: string, name: string, text: string) => boolean) | undefined {
    const read = Object.fromEntries(Object.entries(rest).filter(([k]) => !UNREAD.has(k)));
    if (!jsonExact(read)) return undefined;
    const json = JSON.stringify(read);
    const files = this.refFiles(json);
    if (files === undefined) return undefined;
    const global = keyHash(`js-yaml@${parser()}\0${json}${files}`);
    return (section, name, text) => {
      if (!SECTIONS.has(section)) return false;
      // The section, then the hash of the sections every entry reads and the entry's text (a section name
      // and a hash hold no NUL, and the text comes last: the key stands for one input only). The text is
      // hashed here, once: the record's key and every later key of the entry (`keyOf`) are made from this.
      const key = `${section}\0${keyHash(`${global}\0${text}`)}`;
      const found = this.cache.fragment<EntryRecord | undefined>(`front-entry\0${key}`, () => undefined);
      const record = found && this.filesHold(found) ? found : undefined;
      this.entries.set(`${section}\0${name}`, { key, clean: true, pure: true, files: [], ...(record ? { record } : {}) });
      return record !== undefined;
    };
  }

  /**
   * The texts of the files the sections' `$ref`s name, as a suffix of the entries' key (empty when there
   * are none), or undefined when one of them cannot be taken into the key.
   */
  private refFiles(json: string): string | undefined {
    const refs = new Set<string>();
    for (const m of json.matchAll(FILE_REFS)) {
      const ref = JSON.parse(`"${m[1]!}"`) as string;
      refs.add(ref.includes('#') ? ref.slice(0, ref.indexOf('#')) : ref);
    }
    if (refs.size === 0) return '';
    if (this.refFile === undefined) return undefined;
    const texts: [string, string][] = [];
    for (const path of [...refs].sort()) {
      const text = this.refFile(path);
      if (text === undefined || NESTED_FILE_REF.test(text)) return undefined;
      texts.push([path, keyHash(text)]);
    }
    return `\0${JSON.stringify(texts)}`;
  }

  /** True when the results of this entry are kept (the phases skip it). */
  known(section: string, name: string): boolean {
    return this.entries.get(`${section}\0${name}`)?.record !== undefined;
  }

  /** The kept summary of an entry, for the checks across entries. */
  summary(section: Section, name: string): EntrySummary | undefined {
    return this.entries.get(`${section}\0${name}`)?.record?.summary;
  }

  /** Notes the summary computed now for an entry. */
  noteSummary(section: Section, name: string, summary: EntrySummary): void {
    const k = this.entries.get(`${section}\0${name}`);
    if (k) k.summary = summary;
  }

  /**
   * Runs a step of one entry (resolving its `$ref`s, one check), noting whether it reported anything (the
   * count of `findings` grew) or read a file (`readFile` was called meanwhile).
   */
  during<T>(section: Section, name: string, findings: () => number, work: () => T): T {
    const k = this.entries.get(`${section}\0${name}`);
    const before = findings();
    const outer = this.current;
    this.current = k;
    try {
      return work();
    } finally {
      this.current = outer;
      if (k && findings() !== before) k.clean = false;
    }
  }

  /** Notes that the step running read the `source:` file `abs` (`bytes`, undefined when unreadable). */
  readSource(abs: string, bytes: Uint8Array | undefined): void {
    if (this.current === undefined) return;
    if (bytes === undefined) this.current.clean = this.current.pure = false;
    else this.current.files.push([abs, this.hashOf(abs, bytes)]);
  }

  /**
   * Notes that the step running (see `during`) read the schema file `abs` a `$ref` names (`bytes`, undefined
   * when unreadable), and with it the project folder the resolver found it inside. Without a way to find
   * that folder again, the entry keeps nothing.
   */
  readRef(abs: string, bytes: Uint8Array | undefined): void {
    const k = this.current;
    if (k === undefined) return;
    if (bytes === undefined || this.projectRoot === undefined) {
      k.clean = k.pure = false;
      return;
    }
    if (!k.files.some(([f]) => f === PROJECT)) k.files.push([PROJECT, this.projectRoot()]);
    if (!k.files.some(([f]) => f === abs)) k.files.push([abs, this.hashOf(abs, bytes)]);
  }

  /**
   * The hash of a file's bytes, once a run however many entries read it (a schema file every tool names):
   * a run reads each file once (`InputFiles.bytes`), so its bytes are the same at every ask.
   */
  private hashOf(abs: string, bytes: Uint8Array): string {
    let h = this.hashes.get(abs);
    if (h === undefined) this.hashes.set(abs, (h = bytesHash(bytes)));
    return h;
  }

  /** True when every file a record was made from still has the bytes it had (read as the run's input), in the same project folder. */
  private filesHold(record: EntryRecord): boolean {
    for (const [abs, hash] of record.files ?? []) {
      if (abs === PROJECT) {
        if (this.projectRoot?.() !== hash) return false;
        continue;
      }
      const bytes = this.sourceFile?.(abs);
      if (bytes === undefined || this.hashOf(abs, bytes) !== hash) return false;
    }
    return true;
  }

  /** `IrMemo.kept`: an entry's kept IR, handed out once. */
  kept(section: string, name: string): unknown {
    const record = this.entries.get(`${section}\0${name}`)?.record;
    const ir = record?.ir;
    if (record) delete record.ir;
    return ir;
  }

  /** `IrMemo.built`: notes an entry's IR, restored or built now. */
  built(section: string, name: string, entry: IrPrimitive): void {
    const k = this.entries.get(`${section}\0${name}`);
    if (!k) return;
    if (k.record === undefined) k.ir = entry;
    else this.restored.add(entry);
    // The files an entry serves are part of its IR: they join its key.
    const files = k.record?.files ?? k.files;
    if (k.pure) this.keys.set(entry, files.length > 0 ? `${k.key}\0${JSON.stringify(files)}` : k.key);
  }

  /**
   * A text that determines a primitive's IR entry (less its location) and its resolved manifest entry,
   * server-wide sections included: for keys of results computed from them (lint's per-primitive findings).
   */
  keyOf(p: IrPrimitive): string | undefined {
    return this.keys.get(p);
  }

  /** True when `p` was restored from the record the last run kept: the same entry as then, in the same manifest. */
  wasKept(p: IrPrimitive): boolean {
    return this.restored.has(p);
  }

  /** Keeps the records of the entries computed this run that had no finding (with the files they read). */
  keep(): void {
    for (const k of this.entries.values()) {
      if (k.record !== undefined || !k.clean || k.summary === undefined || k.ir === undefined) continue;
      const ir = keptForm(k.ir);
      if (ir === undefined) continue;
      const record: EntryRecord = { ir, summary: k.summary, ...(k.files.length > 0 ? { files: k.files } : {}) };
      // Put, not looked up: a record whose files no longer hold sits under the same key, and is replaced.
      this.cache.put(keyHash(`front-entry\0${k.key}`), record);
    }
  }
}
