// Issue 15 point 6, in real Chromium: a manager shares a candidate's review from the review screen; a colleague opens
// the link in a fresh browser with no session, watches the video (streamed through the link) and seeks it from the
// transcript; ratings and comments show only when the link includes them; opening it signs nobody in; once the
// manager revokes it, reloading the shared page says so.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText, answerWithVideo, recordInBrowser, reviewWorld } from "./review-support";
import { signInBrowser, superuser } from "./support";

test.describe.configure({ timeout: 300_000 });

function videoState(player: Locator) {
  return player.evaluate((node) => {
    const video = node as HTMLVideoElement;
    return { currentTime: video.currentTime, readyState: video.readyState, src: video.currentSrc, paused: video.paused };
  });
}

/** 'Share' → the dialog → 'Create link' (with or without the feedback): the URL it shows once. */
async function createLink(page: Page, { includeFeedback }: { includeFeedback: boolean }) {
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this candidate" });
  await expect(dialog.getByLabel("Expires after")).toHaveValue("14");
  if (includeFeedback) await dialog.getByRole("checkbox", { name: "Include ratings and comments" }).check();
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = await dialog.getByLabel("Share link").inputValue();
  await page.screenshot({ path: `test-results/share-dialog${includeFeedback ? "-feedback" : ""}.png` });
  await expectAccessible(page, "the Share dialog with a new link");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  return url;
}

test("a manager shares a review; a colleague without an account watches it until the link is revoked", async ({ page, browser }) => {
  const world = await reviewWorld();

  // The candidate records in a real browser (fake camera; the fake microphone plays a LibriVox clip) and answers.
  const candidateContext = await browser.newContext();
  const candidatePage = await candidateContext.newPage();
  await candidatePage.goto(`/candidates/${world.key}`);
  const recording = await recordInBrowser(candidatePage, 6_000);
  await candidateContext.close();
  const { videoAnswer, answer } = await answerWithVideo(world.key, world.questions.video.id, recording);
  await answerWithText(world.key, world.questions.text.id, "Because I enjoy helping people.");
  // the manager's feedback, which only a link that includes it shows
  const manager = world.manager;
  await manager.pb.collection("ratings").create({ answer: answer.id, candidate: world.candidate.id, manager: manager.user.id, stars: 4 });
  await manager.pb.collection("comments").create({ candidate: world.candidate.id, author: manager.user.id, text: "Clear and friendly, invite to a call." });

  // The manager makes two links on the review screen: one without the feedback, one with it.
  await signInBrowser(page, manager.pb);
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  await expect(page.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  const plainUrl = await createLink(page, { includeFeedback: false });
  const feedbackUrl = await createLink(page, { includeFeedback: true });
  for (const url of [plainUrl, feedbackUrl]) expect(url).toMatch(new RegExp(`^${E2E.appUrl}/shared/[A-Za-z0-9]{43}$`));
  expect(plainUrl).not.toBe(feedbackUrl);

  // The media worker's transcript, with its timed segments, before the colleague opens the link (the page is not live).
  const su = await superuser();
  await expect
    .poll(async () => (await su.collection("video_answers").getOne(videoAnswer.id)).transcriptStatus, { timeout: 180_000 })
    .toBe("done");
  const stored = await su.collection("video_answers").getOne(videoAnswer.id);
  const segments = (stored.transcriptSegments ?? []) as { start: number; end: number; text: string }[];
  expect(segments.length).toBeGreaterThan(1);

  // A colleague with no account, in a fresh browser: the review without the feedback.
  const colleague = await browser.newContext();
  const shared = await colleague.newPage();
  await shared.goto(plainUrl);
  await expect(shared.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  await expect(shared.getByText("Review Co")).toBeVisible();
  await expect(shared.getByText("Support engineer")).toBeVisible();
  await expect(shared.getByRole("region", { name: "2. Why us?" }).getByText("Because I enjoy helping people.")).toBeVisible();
  await expect(shared.getByRole("region", { name: "3. Anything else?" }).getByText("No answer")).toBeVisible();
  await expect(shared.getByTestId("answer-ratings")).toHaveCount(0);
  await expect(shared.getByRole("heading", { name: "Comments" })).toHaveCount(0);
  await expect(shared.getByText("Clear and friendly, invite to a call.")).toHaveCount(0);
  // no app shell, no sign-in
  await expect(shared.getByRole("link", { name: /sign in/i })).toHaveCount(0);

  // The video plays, streamed through the link.
  const videoSection = shared.getByRole("region", { name: "1. Introduce yourself" });
  const player = videoSection.getByLabel("Answer video");
  expect((await videoState(player)).src).toBe(`${plainUrl.replace("/shared/", "/api/screenroom/shared/")}/videos/${videoAnswer.id}`);
  await player.evaluate((node) => {
    const video = node as HTMLVideoElement;
    video.muted = true;
    return video.play();
  });
  await expect.poll(async () => (await videoState(player)).currentTime, { timeout: 20_000 }).toBeGreaterThan(0.5);
  await player.evaluate((node) => (node as HTMLVideoElement).pause());

  // A transcript segment moves the video there.
  const last = segments[segments.length - 1]!;
  const segmentButton = videoSection.getByRole("list", { name: "Transcript segments" }).getByRole("button").last();
  await expect(segmentButton).toContainText(last.text);
  await segmentButton.click();
  await expect.poll(async () => (await videoState(player)).currentTime, { timeout: 20_000 }).toBeGreaterThanOrEqual(last.start - 0.05);
  await expect(segmentButton).toHaveAttribute("aria-current", "time");

  // Opening it signed nobody in: no session stored, no cookie.
  expect(await shared.evaluate(() => window.localStorage.getItem("pocketbase_auth"))).toBeNull();
  expect(await colleague.cookies()).toEqual([]);

  // The link that includes the feedback shows the rating and the comment.
  await shared.goto(feedbackUrl);
  await expect(shared.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  await expect(shared.getByRole("region", { name: "1. Introduce yourself" }).getByTestId("answer-ratings")).toContainText("Maria Manager: ★★★★☆ 4 stars");
  await expect(shared.getByRole("region", { name: "Comments" }).getByRole("article", { name: "Comment by Maria Manager" })).toContainText(
    "Clear and friendly, invite to a call.",
  );
  await shared.screenshot({ path: "test-results/shared-review.png", fullPage: true });
  await expectAccessible(shared, "the shared review with ratings and comments");

  // The manager sees both links, the first one opened, and revokes it.
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this candidate" });
  const rows = dialog.getByRole("table", { name: "Share links" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  // newest first: the link with the feedback, then the first one
  const first = rows.nth(2);
  await expect(first).toContainText("Maria Manager");
  await expect(first).toContainText("Active");
  await expect(first.getByRole("cell").nth(2)).not.toHaveText("Never");
  await first.getByRole("button", { name: /Revoke/ }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke this link?" });
  await confirm.getByRole("button", { name: "Revoke link" }).click();
  await expect(confirm).toBeHidden();
  await expect(first).toContainText("Revoked");
  await expect(rows.nth(1)).toContainText("Active");
  await page.screenshot({ path: "test-results/share-dialog-revoked.png" });
  await expectAccessible(page, "the Share dialog's list of links");

  // Reloading the shared page now says the link was revoked, and its video no longer streams.
  await shared.goto(plainUrl);
  await expect(shared.getByRole("heading", { level: 1, name: "This link was revoked." })).toBeVisible();
  await expect(shared.getByText(world.candidate.email)).toHaveCount(0);
  await shared.screenshot({ path: "test-results/shared-review-revoked.png" });
  await expectAccessible(shared, "a revoked share link");
  const videoStatus = await shared.evaluate(async (url) => (await fetch(url)).status, `${plainUrl.replace("/shared/", "/api/screenroom/shared/")}/videos/${videoAnswer.id}`);
  expect(videoStatus).toBe(410);
  // the other link still works
  await shared.goto(feedbackUrl);
  await expect(shared.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  await colleague.close();
});
