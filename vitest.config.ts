import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // The CLI tests run the built `laneway`: build it once, before any test, when stale.
    globalSetup: ['test/vitest-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start real services and child processes; two cores, so keep it modest.
    maxWorkers: 2,
    // Every service a test starts (in process or as a child) checks its answers against their
    // response schemas: a hole between a presenter and its descriptor fails the test (response-check.ts).
    env: { LANEWAY_VALIDATE_RESPONSES: '1' },
    server: { deps: { inline: ['graphql-ws'] } },
  },
});
