/** The worker thread of `type-compiler.ts`: loads json-schema-to-typescript at once, then compiles on request. */
import { parentPort } from 'node:worker_threads';
import { compile } from 'json-schema-to-typescript';
import { JSTT_OPTIONS, PLACEHOLDER, type TypeAnswer, type TypeRequest } from './type-compiler.js';

parentPort?.on('message', (r: TypeRequest) => {
  compile(r.body as never, PLACEHOLDER, JSTT_OPTIONS as never).then(
    (code) => parentPort?.postMessage({ id: r.id, code } satisfies TypeAnswer),
    () => parentPort?.postMessage({ id: r.id, failed: true } satisfies TypeAnswer),
  );
});
