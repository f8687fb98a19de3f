/** Absolute paths of the repository, shared by the generator, golden and end-to-end tests. */
import { fileURLToPath } from 'node:url';

/** The repository root (no trailing slash). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

/** The CLI entry point (runs the compiled `dist/`, so `npm run build` must have run). */
export const binPath = `${repoRoot}/bin/mcp-gen.js`;

/** Fixture manifests for golden files: one folder per case. */
export const goldenFixturesDir = `${repoRoot}/test/fixtures/golden`;

/** Committed golden output: `test/golden/<case>/<emitted path>`. */
export const goldenDir = `${repoRoot}/test/golden`;
