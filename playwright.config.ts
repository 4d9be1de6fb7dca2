import { defineConfig, devices } from "@playwright/test";
import { E2E } from "./scripts/lib/e2e-ports.mjs";
import { ensureFakeMedia, fakeAudio, fakeVideo } from "./scripts/lib/fake-media.mjs";

// Debian's Chromium (never a downloaded browser) with a fake camera and microphone playing files, and Debian's
// Firefox ESR over WebDriver BiDi (Playwright's `_bidiFirefox`) with Firefox's own fake camera and microphone.
ensureFakeMedia();

/**
 * The candidate's journeys, run in every browser: interview, its upload faults, the review of what was recorded, and
 * the device check under CPU load.
 */
const candidateJourneys = ["interview.spec.ts", "interview-faults.spec.ts", "review.spec.ts", "device-check-load.spec.ts"];

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
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        permissions: ["camera", "microphone"],
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
    {
      // Firefox ESR from Debian (scripts/lib/deps.mjs installs `firefox-esr`), driven over WebDriver BiDi by the
      // Playwright the project pins. Its fake devices are a test pattern and a tone; the camera is allowed by a pref,
      // as --use-fake-ui-for-media-stream does for Chromium (BiDi's permissions.setPermission knows no camera).
      name: "firefox",
      // and right to left in Firefox ESR (the recorded and per-language journeys run in Chromium only)
      testMatch: [...candidateJourneys, "candidate-languages-rtl.spec.ts"],
      use: {
        browserName: "_bidiFirefox" as "firefox",
        viewport: { width: 1280, height: 720 },
        deviceScaleFactor: 1,
        launchOptions: {
          executablePath: process.env.FIREFOX_PATH || "/usr/bin/firefox-esr",
          firefoxUserPrefs: {
            "media.navigator.streams.fake": true,
            "media.navigator.permission.disabled": true,
            // the review's candidate plays a speech clip into the recording from an <audio> element (e2e/review-support.ts)
            "media.autoplay.default": 0,
          },
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
