// Issue 7's journey: a candidate answers with the fake microphone playing a LibriVox clip; the manager's review
// shows the answer, the video plays and seeks with a finite duration, and the media worker's transcript appears
// without a reload. Nobody but the company's managers can fetch the video.
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectedCodecs, isFirefox } from "./interview-support";
import { answerWithText, answerWithVideo, recordedCodecs, recordInBrowser, reviewWorld } from "./review-support";
import { client, createCompany, createUser, signInBrowser } from "./support";

test.describe.configure({ timeout: 300_000 });

async function videoState(page: Page) {
  return page.getByLabel("Answer video").evaluate((node) => {
    const video = node as HTMLVideoElement;
    return { duration: video.duration, currentTime: video.currentTime, readyState: video.readyState, src: video.currentSrc };
  });
}

test("the manager reviews a recorded answer: the video plays and seeks, the transcript arrives live", async ({ page, browser, browserName }) => {
  const world = await reviewWorld();

  // The candidate records in a real browser (fake camera; the fake microphone plays a LibriVox clip).
  const candidateContext = await browser.newContext();
  const candidatePage = await candidateContext.newPage();
  await candidatePage.goto(`/candidates/${world.key}`);
  const recording = await recordInBrowser(candidatePage, 7_000, { clipAsMicrophone: isFirefox(browserName) });
  await candidateContext.close();
  expect(recording.byteLength).toBeGreaterThan(10_000);
  expect(recordedCodecs(recording), "the review plays what this browser recorded").toEqual(expectedCodecs(browserName));

  // The manager opens the review before the candidate submits: the page must update by itself.
  await signInBrowser(page, world.manager.pb);
  await page.clock.install(); // time flows as usual; fast-forwarded below to the file token's refresh
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  await expect(page.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  const videoSection = page.getByRole("region", { name: "1. Introduce yourself" });
  await expect(videoSection.getByText("No answer")).toBeVisible();
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const { answer, videoAnswer } = await answerWithVideo(world.key, world.questions.video.id, recording);
  await answerWithText(world.key, world.questions.text.id, "Because I enjoy helping people.");

  await expect(videoSection.getByText(answer.id)).toBeVisible({ timeout: 40_000 });
  const transcript = videoSection.getByTestId("transcript");
  await expect(transcript).not.toHaveText("Transcript pending", { timeout: 180_000 });
  await expect(transcript).toHaveText(/\b(leisure|consider|power|john|much)\b/i);
  console.log(`transcript of the browser recording: ${await transcript.textContent()}`);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // The text answer came in live too.
  await expect(page.getByRole("region", { name: "2. Why us?" }).getByText("Because I enjoy helping people.")).toBeVisible();
  await expect(page.getByRole("region", { name: "3. Anything else?" }).getByText("No answer")).toBeVisible();

  // The player was switched to the worker's seekable copy in place: it knows its duration, plays and seeks.
  const player = page.getByLabel("Answer video");
  const stored = await world.manager.pb.collection("video_answers").getOne(videoAnswer.id);
  expect(stored.file).not.toBe(videoAnswer.file);
  await expect.poll(async () => (await videoState(page)).src, { timeout: 30_000 }).toContain(`/${stored.file}?token=`);
  await expect.poll(async () => (await videoState(page)).readyState, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  const { duration } = await videoState(page);
  expect(Number.isFinite(duration)).toBe(true);
  expect(duration).toBeGreaterThan(5);
  await player.evaluate((node) => {
    const video = node as HTMLVideoElement;
    video.muted = true;
    return video.play();
  });
  await expect.poll(async () => (await videoState(page)).currentTime, { timeout: 20_000 }).toBeGreaterThan(0.5);
  const target = Math.round(duration / 2);
  await player.evaluate(
    (node, to) =>
      new Promise<void>((resolve) => {
        const video = node as HTMLVideoElement;
        video.pause();
        video.addEventListener("seeked", () => resolve(), { once: true });
        video.currentTime = to;
      }),
    target,
  );
  expect(Math.abs((await videoState(page)).currentTime - target)).toBeLessThan(0.5);

  // Two minutes on, the file token is replaced in the player without losing the manager's place.
  const before = await videoState(page);
  await page.clock.fastForward("02:05");
  await expect.poll(async () => (await videoState(page)).src, { timeout: 30_000 }).not.toBe(before.src);
  expect((await videoState(page)).src).toContain(`/${stored.file}?token=`);
  await expect.poll(async () => Math.abs((await videoState(page)).currentTime - target), { timeout: 20_000 }).toBeLessThan(0.5);
  await page.screenshot({ path: "test-results/review.png", fullPage: true });
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // Only the company's managers can fetch the file: not another manager (even with a file token), nor anonymous.
  const fileUrl = (token?: string) =>
    `${E2E.appUrl}/api/files/${videoAnswer.collectionId}/${videoAnswer.id}/${encodeURIComponent(String(videoAnswer.file))}` +
    (token ? `?token=${token}` : "");
  const currentUrl = (token?: string) =>
    `${E2E.appUrl}/api/files/${stored.collectionId}/${stored.id}/${encodeURIComponent(String(stored.file))}` + (token ? `?token=${token}` : "");
  expect((await fetch(currentUrl(await world.manager.pb.files.getToken()))).status).toBe(200);

  const other = await createUser({ firstName: "Oscar", lastName: "Other" });
  await createCompany(other.pb, "Other Co");
  const otherToken = await other.pb.files.getToken();
  for (const url of [currentUrl(otherToken), currentUrl(), fileUrl(otherToken), fileUrl()]) {
    expect([403, 404], url).toContain((await fetch(url)).status);
  }
  expect((await client().collection("video_answers").getList(1, 10)).items).toEqual([]);
});
