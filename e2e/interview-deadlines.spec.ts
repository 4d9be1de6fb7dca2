// Issue 17 points 5-9 in real Chromium with the fake camera: a deadline that passes closes the link; a withdrawn
// invite shows the polite closed page; extra time shows the longer countdown; a reload during the preparation resumes
// it with what is left (the server's clock from the first opening), never a fresh one; and a phone-sized journey
// (390×844) goes from the start page through consent and the device check, a video and a text question, to the end.
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { recordTake, seedInterview, waitForAnswers } from "./interview-support";
import { superuser } from "./support";

/** The seconds a "m:ss" on the screen says. */
function seconds(text: string): number {
  const match = /(\d+):(\d\d)/.exec(text);
  if (!match) throw new Error(`no time in "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** PocketBase's date text for `ms`. */
const dbTime = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** Nothing on the page is wider than the screen: no horizontal scrolling. */
async function expectNoHorizontalScroll(page: Page) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.scroll, "page width against the screen's").toBeLessThanOrEqual(widths.view);
}

async function setPreparation(questionId: string, preparation: number) {
  const su = await superuser();
  const row = await su.collection("video_questions").getFirstListItem(su.filter("question = {:q}", { q: questionId }));
  await su.collection("video_questions").update(row.id, { preparation });
}

test("a deadline that passes closes the link: every candidate screen shows when it closed", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([{ kind: "text", title: "Why this job", timeout: 60 }]);
  const su = await superuser();
  // a manager may only set a future deadline; then, as a superuser's tool may, it is moved into the past
  const future = Date.now() + 3 * 24 * 3600_000;
  await su.collection("candidates").update(candidate.id, { deadline: dbTime(future) });
  await page.goto(`/candidates/${key}`);
  await expect(page.getByTestId("interview-deadline")).toHaveText(/^Please finish by .+\.$/);
  await expect(page.getByTestId("interview-deadline")).toContainText(String(new Date(future).getUTCFullYear()));

  const past = Date.now() - 60_000;
  await su.collection("candidates").update(candidate.id, { deadline: dbTime(past) });
  await page.reload();
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(past);
  await expect(page.getByRole("heading", { name: `This interview closed on ${date}` })).toBeVisible();
  await expect(page.getByText("Thank you for your interest in Globex Hiring.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Interview" })).toHaveCount(0);
  await expectAccessible(page, "closed interview (deadline)");

  // a question's own link closes too
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await expect(page.getByRole("heading", { name: `This interview closed on ${date}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "View question" })).toHaveCount(0);
});

test("a withdrawn invite shows a polite closed page, never the word withdrawn", async ({ page }) => {
  const { candidate, key } = await seedInterview([{ kind: "text", title: "Why this job", timeout: 60 }]);
  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("button", { name: "Start Interview" })).toBeVisible();
  await (await superuser()).collection("candidates").update(candidate.id, { withdrawn: true });
  await page.reload();
  await expect(page.getByRole("heading", { name: "This interview is no longer open" })).toBeVisible();
  await expect(page.getByText("Globex Hiring has closed this invitation. Thank you for your time.")).toBeVisible();
  await expect(page.getByTestId("interview-brand")).toContainText("Globex Hiring");
  await expect(page.locator("main")).not.toContainText(/withdrawn/i);
  await expectAccessible(page, "closed interview (withdrawn)");
});

test("extra time (×2) shows the doubled preparation and answer countdowns", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "video", title: "Introduce yourself", timeout: 60, takes: 1 },
    { kind: "text", title: "Why this job", timeout: 45 },
  ]);
  await (await superuser()).collection("candidates").update(candidate.id, { extraTime: "2" });
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  // 30 s of preparation and 60 s of answer, doubled
  await expect(page.getByTestId("answer-time")).toHaveText("You've 120 seconds to answer");
  await expect(page.getByTestId("answer-kind")).toHaveText("You'll answer on video. First you have 1 minute to prepare, then recording starts by itself.");
  await expect(page.getByText("You'll answer on video")).toBeVisible();
  await expectAccessible(page, "question intro");
  await page.getByRole("button", { name: "View question" }).click();
  const preparation = page.getByTestId("preparation");
  // 1:00 (doubled), less what a busy machine took to show it: bounds, not the exact second
  await expect(preparation).toHaveText(/^Recording starts in \d:\d\d$/);
  expect(seconds((await preparation.textContent()) ?? "")).toBeLessThanOrEqual(60);
  expect(seconds((await preparation.textContent()) ?? "")).toBeGreaterThan(30);
  await expect(page.getByRole("button", { name: "Start recording now" })).toBeEnabled();
  await expectAccessible(page, "preparation");
  await page.getByRole("button", { name: "Start recording now" }).click();
  await expect(page.getByRole("button", { name: "Stop Recording" })).toBeVisible();
  // the answer's countdown starts at 2:00 (doubled) when the recording starts
  const timerSeconds = async () => seconds((await page.getByRole("timer").textContent()) ?? "");
  await expect(page.getByRole("timer")).toHaveText(/^\d:\d\d$/);
  expect(await timerSeconds()).toBeLessThanOrEqual(120);
  expect(await timerSeconds()).toBeGreaterThan(60);
  // a few seconds recorded (a take of nothing fails its check at Stop), counted by the countdown itself
  await expect.poll(timerSeconds, { timeout: 60_000 }).toBeLessThanOrEqual(117);
  await page.getByRole("button", { name: "Stop Recording" }).click();
  await page.getByLabel("Your recording").waitFor();
  await page.getByRole("button", { name: "Submit answer" }).click();

  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
  await expect(page.getByText("You'll type your answer")).toBeVisible();
  await expect(page.getByTestId("answer-time")).toHaveText("You've 90 seconds to answer");
  await expect(page.getByTestId("answer-kind")).toHaveText("You'll type your answer. The time runs from when you view the question.");
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByRole("timer")).toHaveText(/^\d:\d\d$/);
  expect(seconds((await page.getByRole("timer").textContent()) ?? "")).toBeLessThanOrEqual(90);
  expect(seconds((await page.getByRole("timer").textContent()) ?? "")).toBeGreaterThan(45);
});

test("a reload during the preparation resumes it with less time, not a fresh one", async ({ page }) => {
  const { key, questions } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 60, takes: 1 }]);
  await setPreparation(questions[0]!.id, 120);
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await expect(page.getByTestId("answer-time")).toHaveText("You've 60 seconds to answer");
  await expect(page.getByTestId("answer-kind")).toHaveText("You'll answer on video. First you have 2 minutes to prepare, then recording starts by itself.");
  await page.getByRole("button", { name: "View question" }).click();
  const preparation = page.getByTestId("preparation");
  await expect(preparation).toHaveText(/^Recording starts in \d:\d\d$/);
  expect(seconds((await preparation.textContent()) ?? "")).toBeLessThanOrEqual(120);
  expect(seconds((await preparation.textContent()) ?? "")).toBeGreaterThan(60);
  // some of it runs out on the page
  await expect.poll(async () => seconds((await preparation.textContent()) ?? ""), { timeout: 60_000 }).toBeLessThanOrEqual(117);
  const before = seconds((await preparation.textContent()) ?? "");

  await page.reload();
  // the intro says the time kept running; 'View question' goes on with what is left
  await expect(page.getByText("You opened this question before. Its time kept running: you continue with the time that is left.")).toBeVisible();
  await page.getByRole("button", { name: "View question" }).click();
  await expect(preparation).toBeVisible();
  const after = seconds((await preparation.textContent()) ?? "");
  expect(after).toBeLessThanOrEqual(before);
  expect(after).toBeLessThan(120);

  // a new tab on the same link (a reopened link) resumes the same way
  const again = await page.context().newPage();
  await again.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await again.getByRole("button", { name: "View question" }).click();
  const reopened = seconds((await again.getByTestId("preparation").textContent()) ?? "");
  expect(reopened).toBeLessThanOrEqual(after);
  await again.close();
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the whole journey: start, consent, device check, a video and a text question, finish", async ({ page }) => {
    const { candidate, key, questions } = await seedInterview(
      [
        { kind: "video", title: "Introduce yourself", timeout: 90, takes: 1 },
        { kind: "text", title: "Why this job", timeout: 120 },
      ],
      { consent: false, welcomeMessage: "Hello! We look forward to meeting you.\nTake your time." },
    );
    await (await superuser()).collection("candidates").update(candidate.id, { deadline: dbTime(Date.now() + 7 * 24 * 3600_000) });

    await page.goto(`/candidates/${key}`);
    await expect(page.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
    await expect(page.getByTestId("interview-deadline")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "start (phone)");
    await page.screenshot({ path: "test-results/phone-start.png", fullPage: true });
    await page.getByLabel("I agree").check();
    await page.getByRole("button", { name: "Start Interview" }).click();

    await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
    await expect(page.getByText("Camera: we see you")).toBeVisible();
    await expect(page.getByText("Connection: Your connection is good")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "device check (phone)");
    await page.screenshot({ path: "test-results/phone-device-check.png", fullPage: true });
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(new RegExp(`/questions/${questions[0]!.id}$`));
    await expect(page.getByText("You'll answer on video")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole("button", { name: "View question" }).click();
    await expect(page.getByTestId("preparation")).toBeVisible();
    // the preview fits the screen in portrait, and the button is on it
    const preview = page.getByLabel("Camera preview");
    await expect(preview).toBeVisible();
    const box = await preview.boundingBox();
    expect(box, "the camera preview's box").not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expectNoHorizontalScroll(page);
    await expect(page.getByRole("button", { name: "Start recording now" })).toBeInViewport();
    await expectAccessible(page, "video question (phone)");
    await page.screenshot({ path: "test-results/phone-video-question.png", fullPage: true });
    await recordTake(page, 1500);
    await expectNoHorizontalScroll(page);
    await page.getByRole("button", { name: "Submit answer" }).click();

    await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
    await expect(page.getByText("You'll type your answer")).toBeVisible();
    await page.getByRole("button", { name: "View question" }).click();
    await page.getByLabel("Your answer").fill("I like helping people.");
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "text question (phone)");
    await page.getByRole("button", { name: "Submit answer" }).click();

    await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    const answers = await waitForAnswers(candidate.id, 2);
    expect(answers.map((a) => a.question)).toEqual(questions.map((q) => q.id));
  });
});
