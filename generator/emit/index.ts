/** Runs every emitter over one IR and returns the complete file map; writes nothing. */
import type { Contract } from '../contract/types.js';
import type { Ir } from '../ir/types.js';
import { emitCards } from './cards.js';
import { emitClient } from './client.js';
import { type EmittedFile, type PieceTexts, createContext } from './context.js';
import { emitContract } from './contract.js';
import { emitHandlerIndex, emitHandlerStubs, emitMain } from './handlers.js';
import { emitLock } from './lock.js';
import { emitSchemas } from './schemas.js';
import { emitServer } from './server.js';
import type { TypeCompiler } from './type-compiler.js';
import type { GenerationCache } from '../cache.js';
import { emitTypes } from './types.js';
import { emitUpstream } from './upstream.js';

export type { EmittedFile, Owner, PieceTexts } from './context.js';

/**
 * Every file generated for one server from its IR and contract, sorted by path; the same with or without
 * `cache`. With `texts`, the pieces rendered for one primitive are kept in the cache and generator-owned
 * files hold markers in place of their texts, for `write/splice.ts` to fill (emit/refs.ts).
 */
export async function emitAll(ir: Ir, contract: Contract, compiler?: TypeCompiler, cache?: GenerationCache, texts?: PieceTexts): Promise<EmittedFile[]> {
  const ctx = createContext(ir, contract, compiler, cache, texts);
  // Types are compiled asynchronously (on another thread when the type compiler runs): the others meanwhile.
  const types = emitTypes(ctx);
  const files: EmittedFile[] = [
    emitServer(ctx),
    emitSchemas(ctx),
    emitHandlerIndex(ctx),
    emitMain(ctx),
    emitClient(ctx),
    ...emitContract(ctx),
    emitLock(ctx),
    emitCards(ctx),
    ...emitHandlerStubs(ctx),
    ...emitUpstream(ctx),
    await types,
  ];
  ctx.fragments.flush();
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
