/** mcp-gen's programmatic API. */
export { check, compileManifest, generate } from './pipeline.js';
export type { CheckResult, CompileResult, GenerateResult, RunOptions } from './pipeline.js';
export { emitAll } from './emit/index.js';
export { buildContract } from './contract/index.js';
export type * from './contract/types.js';
export type { EmittedFile, Owner } from './emit/index.js';
export type { Diagnostic, Severity, SourceLocation } from './diagnostics.js';
export { UserError } from './diagnostics.js';
export type * from './ir/types.js';
