import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Two projects: the server suite (node, real HTTP, a fresh database per file) and the web suite
// (jsdom, Testing Library). Browser flows run under Playwright, not here.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Files share one process and its loaded modules instead of a fresh process each: loading
          // the server's modules again was about a third of a small file's time (8 files: 86 s
          // isolated, 59 s shared). Each file still starts its own servers and databases; a file
          // must not rely on module state another left (no module mocks: spy on what is shared).
          isolate: false,
        },
      },
      {
        // Two real app processes + PostgreSQL + s3rver (tests/multi-process); needs TEST_DATABASE_URL.
        test: {
          name: 'multi-process',
          environment: 'node',
          include: ['tests/multi-process/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test-setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
