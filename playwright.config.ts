import { defineConfig } from '@playwright/test';

// Every service a test starts (the CLI's child) checks each answer against its response schema,
// as in vitest runs (src/service/http/response-check.ts); a hole answers 500 and logs INTERNAL,
// and test/e2e/fixtures.ts fails the test on either.
process.env.LANEWAY_VALIDATE_RESPONSES = '1';

// Debian's Chromium: Playwright cannot download its own browser here (MACHINE.md).
export default defineConfig({
  testDir: 'test/e2e',
  // `laneway start --browser` runs the built CLI and app: build them once first when stale.
  globalSetup: './test/build-bundles.ts',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
  },
});
