import { defineConfig, devices } from "@playwright/test";
import { E2E } from "./scripts/lib/e2e-ports.mjs";
import { ensureFakeMedia, fakeAudio, fakeVideo } from "./scripts/lib/fake-media.mjs";

// Debian's Chromium (never a downloaded browser) with a fake camera and microphone playing files.
ensureFakeMedia();

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Bounds far above the slowest run seen with two busy processes beside the suite (npm run test:stress): a wait
  // for what a user sees gets 20 s, a test 180 s, so a slow run fails on the expectation that did not come true.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/e2e.json" }]] : [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: E2E.appUrl,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    permissions: ["camera", "microphone"],
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            `--use-file-for-fake-video-capture=${fakeVideo}`,
            `--use-file-for-fake-audio-capture=${fakeAudio}`,
          ],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/e2e-stack.mjs",
    url: `${E2E.appUrl}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
