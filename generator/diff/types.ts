/** The data `mcp-gen diff` works on: lock files in, classified changes out. */

/** The primitive kinds a lock file records, by their section name. */
export type DiffKind = 'tool' | 'resource' | 'prompt';

/** What a change is about: a primitive, or the server as a whole (discovery and listing cache hints). */
export type ChangeKind = DiffKind | 'server';

/** Breaking for existing clients, or safe for them. */
export type Severity = 'breaking' | 'compatible';

/**
 * One classified change. `path` is dotted from the lock's section
 * (`tools.issues.create.input.repo.owner`); `change` is a stable code
 * (`property-removed`); `detail` is the sentence a person reads.
 */
export interface Change {
  /** For `server`, `name` is the server's name and `path` starts at the lock's top level (`cacheHints.…`). */
  readonly kind: ChangeKind;
  readonly name: string;
  readonly path: string;
  readonly change: string;
  readonly detail: string;
  readonly severity: Severity;
}

/** Every change between a baseline and the current contract, split by severity. */
export interface DiffResult {
  readonly breaking: readonly Change[];
  readonly compatible: readonly Change[];
}

/** One primitive's entry in `mcp.lock.json`. */
export interface LockEntry {
  readonly hash: string;
  readonly contract: Readonly<Record<string, unknown>>;
}

/** The parts of `mcp.lock.json` a diff reads. */
export interface Lock {
  readonly lockVersion: number;
  readonly server?: { readonly name?: string; readonly version?: string };
  readonly tools: Readonly<Record<string, LockEntry>>;
  readonly resources: Readonly<Record<string, LockEntry>>;
  readonly prompts: Readonly<Record<string, LockEntry>>;
  /** The hints of discovery and each list method (`tools/list` → `{ttlMs, cacheScope}`); absent in older locks. */
  readonly cacheHints?: Readonly<Record<string, unknown>>;
}

/** Current names mapped to the baseline names they were renamed from (`renamedFrom:`), per kind. */
export type Renames = Readonly<Record<DiffKind, ReadonlyMap<string, string>>>;

/** The lock section of each kind. */
export const SECTIONS: Readonly<Record<DiffKind, 'tools' | 'resources' | 'prompts'>> = {
  tool: 'tools',
  resource: 'resources',
  prompt: 'prompts',
};

/** A change found below a primitive, before it is tagged with the primitive's kind and name. */
export interface Finding {
  /** Dotted path below the primitive (`input.repo.owner`). */
  readonly path: string;
  readonly change: string;
  readonly detail: string;
  readonly severity: Severity;
}
