import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start real services and child processes; two cores, so keep it modest.
    maxWorkers: 2,
    server: { deps: { inline: ['graphql-ws'] } },
  },
});
