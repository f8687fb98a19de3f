import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'generated/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**', '**/.tmp-*/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
