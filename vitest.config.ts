import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'test/fixtures/**', '**/.tmp-*/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'mcp-gen', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', 'test/fixtures/**', '**/.tmp-*/**', 'test/golden/**'] } },
      // The generated contract suites (the examples' and the goldens'), run as a project set up by
      // `mcp-gen init` runs them: a test that makes no assertion fails (test/contract/assertions.test.ts).
      { extends: true, test: { name: 'generated', include: ['generated/**/*.test.ts', 'test/golden/**/*.test.ts'], expect: { requireAssertions: true } } },
    ],
  },
});
