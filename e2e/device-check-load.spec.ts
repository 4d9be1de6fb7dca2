// The device check under CPU load, as the stress run has it: two busy processes (`yes`, not niced) beside the
// browser for the whole test, so its recorder starts late and its uploads stall as they did when the check cried
// wolf. In Chromium and Firefox ESR: no alarm, every line fine. A real failure under the same load still raises
// the alarm: a stream without a video track, a recorder that hands over nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { seedInterview } from "./interview-support";

let busy: ChildProcess[] = [];

test.beforeEach(() => {
  busy = [0, 1].map(() => spawn("yes", [], { stdio: "ignore" }));
});

test.afterEach(() => {
  // by their own ids, never by name: other `yes` on the machine are not this test's
  for (const child of busy) child.kill("SIGKILL");
  busy = [];
});

/**
 * Every alert the page shows, however briefly (one that came and went is still a false alarm), kept in
 * window.__alerts; and when each recorder was asked to start and said it started, in window.__recorders.
 */
async function watch(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __alerts: string[]; __recorders: { asked: number; started?: number }[] };
    w.__alerts = [];
    w.__recorders = [];
    const look = () =>
      document.querySelectorAll('[role="alert"]').forEach((element) => {
        const text = element.textContent ?? "";
        if (!w.__alerts.includes(text)) w.__alerts.push(text);
      });
    new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    if (typeof MediaRecorder === "undefined") return;
    const start = MediaRecorder.prototype.start;
    MediaRecorder.prototype.start = function (this: MediaRecorder, timeslice?: number) {
      const entry: { asked: number; started?: number } = { asked: performance.now() };
      w.__recorders.push(entry);
      this.addEventListener("start", () => (entry.started = performance.now()), { once: true });
      return start.call(this, timeslice);
    };
  });
}

const alertsOf = (page: Page) => page.evaluate(() => (window as unknown as { __alerts: string[] }).__alerts);

/**
 * Whether Web Audio runs in this page: Firefox's waits for an audio output, which this machine lacks (README,
 * "Firefox runs over WebDriver BiDi"), so its context stays suspended and the microphone's meter can hear nothing.
 */
async function webAudioRuns(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const context = new AudioContext();
    await Promise.race([context.resume(), new Promise((resolve) => setTimeout(resolve, 2000))]);
    const running = context.state === "running";
    await context.close();
    return running;
  });
}

/** The browsers a candidate in this engine is sent to when it cannot record (another engine, no Safari on Linux). */
const othersFor = (browserName: string) => (/firefox/i.test(browserName) ? "Chrome or Edge" : "Firefox");

test("under CPU load no alarm: camera, microphone, recording and connection are all fine", async ({ page, browserName }) => {
  const { key } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 90, takes: 1 }]);
  await watch(page);
  await page.goto(`/candidates/${key}/check`);
  await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
  await expect(page.getByText("Camera: we see you")).toBeVisible();
  // a slow start and a retry stay inside the check's own bounds (10 s to start, 8 s for data, twice)
  await expect(page.getByText(/^Recording: works\. Your answers will be recorded as WebM \(VP\d, OPUS\)\.$/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("Connection: Your connection is good")).toBeVisible({ timeout: 90_000 });
  if (await webAudioRuns(page)) {
    await expect(page.getByText("Microphone: we hear you")).toBeVisible();
    await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  } else {
    // Without an audio output the meter hears nothing: the line says so as a status, not an alarm, and its Try
    // again is the only one on the page. A machine with an audio output takes the branch above.
    const silent = page.getByText("Microphone: we hear nothing yet — speak or check it is not muted");
    await expect(silent).toBeVisible();
    await expect(silent).toHaveAttribute("aria-live", "polite");
    await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(1);
    test.info().annotations.push({ type: "microphone", description: "Firefox's Web Audio is suspended here (no audio output)" });
  }
  await expect(page.getByRole("button", { name: "Continue" })).toBeEnabled();
  expect(await alertsOf(page)).toEqual([]);

  const recorders = await page.evaluate(() => (window as unknown as { __recorders: { asked: number; started?: number }[] }).__recorders);
  const starts = recorders.map((r) => (r.started === undefined ? "never" : `${Math.round(r.started - r.asked)} ms`));
  test.info().annotations.push({ type: "recorder start after start()", description: `${browserName}: ${starts.join(", ")}` });
  console.log(`device check under load, ${browserName}: recorder start event after start(): ${starts.join(", ")}`);
});

test("under CPU load a stream without a video track still raises the alarm, and blocks Continue", async ({ page }) => {
  const { key } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 90, takes: 1 }]);
  await watch(page);
  await page.addInitScript(() => {
    if (!navigator.mediaDevices) return; // about:blank before the app: Firefox has no mediaDevices there
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      for (const track of stream.getVideoTracks()) {
        stream.removeTrack(track);
        track.stop();
      }
      return stream;
    };
  });
  await page.goto(`/candidates/${key}/check`);
  const alert = page.getByRole("alert").filter({ hasText: "Camera: We get no picture from your camera." });
  await expect(alert).toBeVisible();
  await expect(page.getByRole("listitem").filter({ has: alert }).getByRole("button", { name: "Try again" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
});

test("under CPU load a recorder that hands over nothing still raises the alarm after its retry, with Try again", async ({ page, browserName }) => {
  const { key } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 90, takes: 1 }]);
  await watch(page);
  await page.addInitScript(() => {
    if (typeof MediaRecorder === "undefined") return;
    // every piece arrives empty: a browser that records nothing, as WebKitGTK on Debian
    const descriptor = Object.getOwnPropertyDescriptor(MediaRecorder.prototype, "ondataavailable")!;
    Object.defineProperty(MediaRecorder.prototype, "ondataavailable", {
      ...descriptor,
      set(this: MediaRecorder, handler: ((event: BlobEvent) => void) | null) {
        descriptor.set!.call(this, handler ? () => handler({ data: new Blob([]) } as BlobEvent) : null);
      },
    });
  });
  await page.goto(`/candidates/${key}/check`);
  const line = `Recording: This browser recorded nothing, even on a second try, so it cannot record your answers here. Open this link in ${othersFor(browserName)}.`;
  const alert = page.getByRole("alert").filter({ hasText: line });
  await expect(alert).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("listitem").filter({ has: alert }).getByRole("button", { name: "Try again" })).toBeVisible();
  // the one alarm on the page, said only after the check's own second take
  expect(await alertsOf(page)).toEqual([line]);
  expect(await page.evaluate(() => (window as unknown as { __recorders: unknown[] }).__recorders.length)).toBe(2);
});
