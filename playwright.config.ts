import { defineConfig } from '@playwright/test';

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
