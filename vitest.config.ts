import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __STORE_ADMIN_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/worker-home.ts'],
    // Three files at a time on a 2-core machine (vitest would take cores - 1): most of a test's time
    // is a spawned CLI, a terminal or a socket, not this process's CPU. Measured on 2 cores, the
    // whole suite: 186 s with two workers, 160 s with three, 155 s with four (not worth the load).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
