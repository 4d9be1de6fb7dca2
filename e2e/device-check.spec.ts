// Issue 17 points 3 and 4 in real Chromium with the fake camera and microphone: the device check before the first
// video question passes; a blocked camera shows the steps for this browser and 'Try again' works once it is allowed,
// without a reload; a practice take never reaches the server (neither on the network nor in its collections).
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { recordTake, seedInterview } from "./interview-support";
import { superuser } from "./support";

async function seed() {
  return seedInterview([
    { kind: "video", title: "Introduce yourself", timeout: 90, takes: 1 },
    { kind: "text", title: "Why this job", timeout: 60 },
  ]);
}

/** Every request the page sends, as 'METHOD path'. */
function networkLog(page: Page): string[] {
  const log: string[] = [];
  page.on("request", (request) => log.push(`${request.method()} ${new URL(request.url()).pathname}`));
  return log;
}

async function expectChecksPass(page: Page) {
  await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
  await expect(page.getByLabel("Camera preview")).toBeVisible();
  await expect(page.getByText("Camera: we see you")).toBeVisible();
  // the fake microphone plays speech: the meter moves and the screen says it hears the candidate
  await expect(page.getByText("Microphone: we hear you")).toBeVisible();
  await expect.poll(async () => Number(await page.getByRole("meter", { name: "Microphone level" }).getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  await expect(page.getByText(/^Recording: works\. Your answers will be recorded as WebM \(VP\d, OPUS\)\.$/)).toBeVisible();
  await expect(page.getByText("Connection: Your connection is good")).toBeVisible();
}

test("the device check passes and leads to the first question", async ({ page }) => {
  const { key, questions } = await seed();
  const log = networkLog(page);
  await page.goto(`/candidates/${key}`);
  await page.getByLabel("I agree").check();
  await page.getByRole("button", { name: "Start Interview" }).click();
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/check$`));
  await expectChecksPass(page);
  expect(log).toContain(`POST /api/screenroom/interviews/${key}/connection-check`);
  await expectAccessible(page, "device check");
  await page.screenshot({ path: "test-results/device-check-desktop.png", fullPage: true });

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[0]!.id}$`));
  await expect(page.getByRole("heading", { name: "Introduce yourself" })).toBeVisible();
});

test("the device check on a phone-sized screen", async ({ page }) => {
  const { key } = await seed();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/candidates/${key}/check`);
  await expectChecksPass(page);
  await expectAccessible(page, "device check at 390×844");
  await page.screenshot({ path: "test-results/device-check-phone.png", fullPage: true });
  await page.screenshot({ path: "test-results/device-check-phone-viewport.png" });
});

test("a blocked camera shows this browser's steps, and Try again works once it is allowed", async ({ playwright, baseURL }) => {
  const { key } = await seed();
  // Chromium without the fake permission UI (which accepts every prompt), in a context with no permission: the
  // camera prompt of a headless browser is dismissed, so getUserMedia is refused as for a candidate who clicked Block.
  const launch = test.info().project.use.launchOptions ?? {};
  const browser = await playwright.chromium.launch({
    ...launch,
    args: (launch.args ?? []).filter((arg) => arg !== "--use-fake-ui-for-media-stream"),
  });
  try {
    const context = await browser.newContext({ baseURL, permissions: [] });
    const page = await context.newPage();
    await page.goto(`/candidates/${key}/check`);
    const alert = page.getByRole("alert").filter({ hasText: "Your browser blocks the camera and microphone for this page" });
    await expect(alert).toBeVisible();
    await expect(alert.getByText("The video questions need both. To allow them in Chrome:")).toBeVisible();
    await expect(alert.getByText(/^Click the camera icon in the address bar/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
    await expectAccessible(page, "device check, camera blocked");
    await page.screenshot({ path: "test-results/device-check-blocked.png", fullPage: true });

    // the candidate allows the camera and microphone, and presses Try again: no reload
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await context.grantPermissions(["camera", "microphone"], { origin: new URL(baseURL!).origin });
    await alert.getByRole("button", { name: "Try again" }).click();
    await expectChecksPass(page);
    await expect(page.getByRole("button", { name: "Continue" })).toBeEnabled();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await browser.close();
  }
});

test("a practice take is played back on the device and never reaches the server", async ({ page }) => {
  const { key, candidate } = await seed();
  await page.goto(`/candidates/${key}/check`);
  await expect(page.getByText("Camera: we see you")).toBeVisible();
  const log = networkLog(page);
  await page.getByRole("link", { name: "Try a practice question" }).click();
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/practice$`));
  await expect(page.getByText("Practice — not sent to the company")).toBeVisible();
  await expect(page.getByText("Practice take 1")).toBeVisible();
  await expect(page.getByRole("timer")).toBeVisible();
  await expectAccessible(page, "practice question");

  await recordTake(page);
  await expect(page.getByRole("button", { name: "Submit answer" })).toHaveCount(0);
  // played back from the device's memory
  expect(await page.getByLabel("Your recording").getAttribute("src")).toMatch(/^blob:/);
  await page.getByRole("button", { name: "Record again" }).click();
  await expect(page.getByText("Practice take 2")).toBeVisible();
  await recordTake(page);
  // the job's question allows one take; practice has no limit
  await page.getByRole("button", { name: "Record again" }).click();
  await expect(page.getByText("Practice take 3")).toBeVisible();
  await recordTake(page);
  await page.screenshot({ path: "test-results/practice-review.png", fullPage: true });
  await page.getByRole("link", { name: "Back to the interview" }).click();
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/check$`));

  // the network: no staged part, no answer, no take at all
  expect(log.filter((entry) => /^PUT .*\/parts\//.test(entry))).toEqual([]);
  expect(log.filter((entry) => entry.startsWith("POST /api/screenroom/answers"))).toEqual([]);
  expect(log.filter((entry) => entry.includes("/api/screenroom/takes"))).toEqual([]);
  // the server: nothing staged or answered for the candidate
  const su = await superuser();
  const staged = await su.collection("staged_takes").getList(1, 1, { filter: su.filter("candidate = {:c}", { c: candidate.id }) });
  const answers = await su.collection("answers").getList(1, 1, { filter: su.filter("candidate = {:c}", { c: candidate.id }) });
  expect(staged.totalItems).toBe(0);
  expect(answers.totalItems).toBe(0);
  // and nothing kept on the device for later (issue 22's drafts)
  const drafts = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open("screenroom");
        open.onsuccess = () => {
          const db = open.result;
          const names = Array.from(db.objectStoreNames);
          if (!names.length) return resolve(0);
          let count = 0;
          let left = names.length;
          for (const name of names) {
            const req = db.transaction(name).objectStore(name).count();
            req.onsuccess = () => {
              count += req.result;
              if (--left === 0) resolve(count);
            };
          }
        };
        open.onerror = () => resolve(-1);
      }),
  );
  expect(drafts).toBe(0);
});
