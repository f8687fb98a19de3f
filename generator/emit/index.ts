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
import type { Pieces } from './pieces.js';

export type { EmittedFile, Owner, PieceTexts } from './context.js';

/**
 * Every file generated for one server from its IR and contract, sorted by path; the same with or without
 * `cache`. With `texts`, generator-owned files are laid out from pieces (emit/pieces.ts) and hold markers
 * in place of their texts, for `write/splice.ts` to fill (emit/refs.ts); a file the last run left as this
 * run would lay it out comes `kept`, its content on disk.
 */
export async function emitAll(ir: Ir, contract: Contract, compiler?: TypeCompiler, cache?: GenerationCache, texts?: PieceTexts): Promise<EmittedFile[]> {
  return (await emitLaidOut(ir, contract, compiler, cache, texts)).files;
}

/** `emitAll`, with the pieces the files were laid out from (with `texts`), for write/splice.ts. */
export async function emitLaidOut(ir: Ir, contract: Contract, compiler?: TypeCompiler, cache?: GenerationCache, texts?: PieceTexts): Promise<{ files: EmittedFile[]; pieces: Pieces | undefined }> {
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
  ctx.pieces?.flush();
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), pieces: ctx.pieces };
}
