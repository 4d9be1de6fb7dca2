// Issue 15 on the review screen, in real Chromium against the real stack: two managers of one company, each in a
// browser of their own, rate and comment on the same candidate and see each other's changes live (PocketBase
// realtime); the decision shows who set it and when; previous / next candidate follow the pipeline's order; a
// transcript segment seeks the video; the speed and the keyboard shortcuts work.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText, answerWithVideo } from "./review-support";
import { createCompany, createQuestion, createUser, keyOf, signInBrowser, superuser } from "./support";

test.describe.configure({ timeout: 240_000 });

const SEGMENTS = [
  { start: 0, end: 3, text: "Hello, I am the candidate." },
  { start: 3, end: 6, text: "I have five years of support experience." },
  { start: 6, end: 8, text: "I like solving problems." },
];

/** An 8-second webm (test pattern, silence), as a browser would send it. */
function recording(): Uint8Array<ArrayBuffer> {
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-review-workflow-")), "answer.webm");
  execFileSync("ffmpeg", [
    "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15",
    "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono",
    "-t", "8", "-c:v", "libvpx", "-b:v", "200k", "-c:a", "libopus", path,
  ]);
  return new Uint8Array(readFileSync(path));
}

/** Maria (the owner) and Bruno (joined by invite) manage one company; a job of a video and a text question; three candidates. */
async function world() {
  const run = Date.now().toString(36);
  const maria = await createUser({ firstName: "Maria", lastName: "Manager" });
  const bruno = await createUser({ firstName: "Bruno", lastName: "Boss" });
  const company = await createCompany(maria.pb, "Review Workflow Co");
  const invite = await maria.pb.collection("manager_invites").create({ company: company.id, email: bruno.email });
  const accepted = await fetch(`${E2E.appUrl}/api/screenroom/invites/${invite.id}/accept`, {
    method: "POST",
    headers: { Authorization: bruno.pb.authStore.token },
  });
  expect(accepted.status, "the co-manager joins through the invite").toBe(200);

  const video = await createQuestion(maria.pb, company.id, "video", { title: "Introduce yourself" });
  const text = await createQuestion(maria.pb, company.id, "text", { title: "Why us?" });
  const job = await maria.pb.collection("jobs").create({
    company: company.id,
    title: "Support engineer",
    description: "Help our customers",
    location: "Remote",
    questions: [video.id, text.id],
  });
  // by e-mail: ann < bea < cid
  const candidates: RecordModel[] = [];
  for (const name of ["ann", "bea", "cid"]) {
    candidates.push(await maria.pb.collection("candidates").create({ job: job.id, email: `${name}-${run}@review-workflow.test` }));
  }
  const [ann, bea, cid] = candidates as [RecordModel, RecordModel, RecordModel];

  // Bea answers both questions through the answers route, with her key
  const key = await keyOf(bea.id);
  const { videoAnswer } = await answerWithVideo(key, video.id, recording());
  await answerWithText(key, text.id, "Because I enjoy helping people.");
  // the media worker makes the file seekable and transcribes it; then the timed transcript is set as the worker
  // would store it (the recording is silence), so the segments are known
  const su = await superuser();
  await expect
    .poll(async () => (await su.collection("video_answers").getOne(videoAnswer.id)).transcriptStatus, { timeout: 120_000 })
    .not.toBe("pending");
  await su.collection("video_answers").update(videoAnswer.id, {
    transcriptStatus: "done",
    transcript: SEGMENTS.map((s) => s.text).join(" "),
    transcriptSegments: SEGMENTS,
  });
  return { maria, bruno, company, job, ann, bea, cid };
}

async function openAs(browser: Browser, manager: Awaited<ReturnType<typeof createUser>>, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInBrowser(page, manager.pb);
  await page.goto(path);
  return page;
}

const textAnswer = (page: Page) => page.getByRole("region", { name: "2. Why us?" });
const videoAnswer = (page: Page) => page.getByRole("region", { name: "1. Introduce yourself" });
const thread = (page: Page) => page.getByRole("region", { name: "Comments" });

test("two managers rate, comment and decide on one candidate and see each other live; previous / next follow the pipeline; a transcript segment seeks", async ({ browser }) => {
  const w = await world();
  const pipeline = "?sort=email&dir=asc";
  const reviewOf = (candidate: RecordModel, i: number) => `/companies/${w.company.id}/jobs/${w.job.id}/candidates/${candidate.id}${pipeline}&i=${i}`;

  const maria = await openAs(browser, w.maria, reviewOf(w.bea, 1));
  const bruno = await openAs(browser, w.bruno, reviewOf(w.bea, 1));
  for (const page of [maria, bruno]) {
    await expect(page.getByRole("heading", { level: 1, name: w.bea.email })).toBeVisible();
    await expect(thread(page).getByText("No comments yet")).toBeVisible();
    await expect(page.getByTestId("overall-score")).toContainText("Not rated yet");
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  }
  await expectAccessible(maria, "the candidate review");

  // --- ratings, live both ways ---
  await textAnswer(maria).getByRole("radio", { name: "4 stars" }).click();
  await expect(textAnswer(maria).getByRole("radio", { name: "4 stars" })).toBeChecked();
  await expect(textAnswer(bruno).getByTestId("answer-average")).toHaveText("Average 4 from 1 manager");
  // Maria's stars are not Bruno's
  await expect(textAnswer(bruno).getByRole("radio", { checked: true })).toHaveCount(0);

  // Bruno rates with the keyboard: focus the first star, arrow to 5
  await textAnswer(bruno).getByRole("radio", { name: "1 star" }).focus();
  await bruno.keyboard.press("Space");
  await bruno.keyboard.press("ArrowRight");
  await bruno.keyboard.press("ArrowRight");
  await bruno.keyboard.press("ArrowRight");
  await bruno.keyboard.press("ArrowRight");
  await expect(textAnswer(bruno).getByRole("radio", { name: "5 stars" })).toBeChecked();
  await expect(textAnswer(maria).getByTestId("answer-average")).toHaveText("Average 4.5 from 2 managers");
  await expect(maria.getByTestId("overall-score")).toContainText("4.5 out of 5");
  // the server keeps the candidate's score from the same ratings
  await expect.poll(async () => {
    const candidate = await w.maria.pb.collection("candidates").getOne(w.bea.id);
    return [candidate.averageRating, candidate.ratingsCount];
  }).toEqual([4.5, 2]);
  const stored = await w.maria.pb.collection("ratings").getFullList({ filter: `candidate = "${w.bea.id}"`, sort: "stars" });
  expect(stored.map((r) => [r.manager, r.stars])).toEqual([[w.maria.user.id, 4], [w.bruno.user.id, 5]]);

  // Bruno clears his; Maria sees the average go back
  await textAnswer(bruno).getByRole("button", { name: "Clear" }).click();
  await expect(textAnswer(maria).getByTestId("answer-average")).toHaveText("Average 4 from 1 manager");
  // the shortcuts: P moves to the previous answer (the video one), 3 rates it
  await bruno.keyboard.press("p");
  await expect(videoAnswer(bruno).getByRole("article")).toHaveAttribute("aria-current", "true");
  await bruno.keyboard.press("3");
  await expect(videoAnswer(bruno).getByRole("radio", { name: "3 stars" })).toBeChecked();
  await expect(videoAnswer(maria).getByTestId("answer-average")).toHaveText("Average 3 from 1 manager");
  await expect(maria.getByTestId("overall-score")).toContainText("3.5 out of 5");

  // --- comments, live both ways ---
  await thread(maria).getByLabel("Add a comment").fill("Strong answers, clear and kind.");
  await thread(maria).getByRole("button", { name: "Add comment" }).click();
  const mariasInBruno = thread(bruno).getByRole("article", { name: "Comment by Maria Manager" });
  await expect(mariasInBruno).toContainText("Strong answers, clear and kind.");
  await expect(mariasInBruno).toContainText("just now");
  // not his to edit or delete
  await expect(mariasInBruno.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(mariasInBruno.getByRole("button", { name: "Delete" })).toHaveCount(0);

  await thread(bruno).getByLabel("Add a comment").fill("   ");
  await thread(bruno).getByRole("button", { name: "Add comment" }).click();
  await expect(thread(bruno).getByRole("alert")).toHaveText("Please enter a comment");
  await thread(bruno).getByLabel("Add a comment").fill("Agreed. Let us advance her.");
  await thread(bruno).getByRole("button", { name: "Add comment" }).click();
  await expect(thread(maria).getByRole("article")).toHaveCount(2);
  await expect(thread(maria).getByRole("article").nth(1)).toHaveAccessibleName("Comment by Bruno Boss");
  await expect(thread(maria).getByRole("article").nth(1)).toContainText("Agreed. Let us advance her.");

  // Maria edits hers, then deletes it
  const mariasOwn = thread(maria).getByRole("article", { name: "Comment by Maria Manager" });
  await mariasOwn.getByRole("button", { name: "Edit" }).click();
  await mariasOwn.getByLabel("Edit comment").fill("Strong answers; a good fit for the senior role.");
  await mariasOwn.getByRole("button", { name: "Save" }).click();
  await expect(mariasInBruno).toContainText("Strong answers; a good fit for the senior role.");
  await expect(mariasInBruno).toContainText("edited");
  await mariasOwn.getByRole("button", { name: "Delete" }).click();
  await maria.getByRole("alertdialog", { name: "Delete this comment?" }).getByRole("button", { name: "Delete comment" }).click();
  await expect(thread(bruno).getByRole("article")).toHaveCount(1);
  await expect(thread(bruno).getByRole("article")).toHaveAccessibleName("Comment by Bruno Boss");

  // --- the decision: who and when, live ---
  await maria.getByRole("radiogroup", { name: "Decision" }).getByRole("radio", { name: "Advance" }).click();
  await expect(maria.getByTestId("decision-byline")).toHaveText("Advance, set by Maria Manager just now");
  await expect(bruno.getByTestId("decision-byline")).toHaveText("Advance, set by Maria Manager just now");
  await expect(bruno.getByRole("radiogroup", { name: "Decision" }).getByRole("radio", { name: "Advance" })).toHaveAttribute("aria-checked", "true");
  const decided = await w.maria.pb.collection("candidates").getOne(w.bea.id);
  expect([decided.decision, decided.decisionBy]).toEqual(["advance", w.maria.user.id]);
  // the exact time for machines and on hover
  await expect(bruno.getByTestId("decision-byline").locator("time")).toHaveAttribute("datetime", String(decided.decisionAt).replace(" ", "T"));
  await bruno.getByRole("radiogroup", { name: "Decision" }).getByRole("radio", { name: "Hold" }).click();
  await expect(maria.getByTestId("decision-byline")).toHaveText("Hold, set by Bruno Boss just now");
  await maria.getByRole("button", { name: "Clear decision" }).click();
  await expect(bruno.getByTestId("decision-byline")).toHaveText("No decision yet");

  for (const page of [maria, bruno]) {
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), "no reload").toBe(true);
  }
  await maria.screenshot({ path: "test-results/review-workflow.png", fullPage: true });

  // --- the timed transcript seeks the video ---
  const player = videoAnswer(maria).getByLabel("Answer video");
  const segments = videoAnswer(maria).getByRole("list", { name: "Transcript segments" });
  await expect(segments.getByRole("button")).toHaveText(["0:00 Hello, I am the candidate.", "0:03 I have five years of support experience.", "0:06 I like solving problems."]);
  await expect.poll(() => player.evaluate((node) => (node as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(1);
  await segments.getByRole("button", { name: /five years/ }).click();
  await expect.poll(() => player.evaluate((node) => (node as HTMLVideoElement).currentTime)).toBeGreaterThanOrEqual(3);
  await expect(segments.getByRole("button", { name: /five years/ })).toHaveAttribute("aria-current", "time");
  // K pauses the current answer (the one just played)
  await maria.keyboard.press("k");
  await expect.poll(() => player.evaluate((node) => (node as HTMLVideoElement).paused)).toBe(true);
  expect(await player.evaluate((node) => (node as HTMLVideoElement).currentTime)).toBeLessThan(6);
  // played on (here: moved) into the last segment, the highlight follows
  await player.evaluate((node) => ((node as HTMLVideoElement).currentTime = 6.5));
  await expect(segments.getByRole("button", { name: /solving problems/ })).toHaveAttribute("aria-current", "time");
  await expect(segments.locator("[aria-current]")).toHaveCount(1);

  // --- playback speed, remembered for Maria ---
  await videoAnswer(maria).getByLabel("Playback speed").selectOption({ label: "1.5×" });
  expect(await player.evaluate((node) => (node as HTMLVideoElement).playbackRate)).toBe(1.5);

  // --- previous / next candidate in the pipeline's order (e-mail, ascending) ---
  await maria.getByRole("link", { name: "Next candidate" }).click();
  await expect(maria.getByRole("heading", { level: 1, name: w.cid.email })).toBeVisible();
  expect(new URL(maria.url()).search).toBe(`${pipeline}&i=2`);
  // at the end of the list, next is still a link, announced as disabled
  await expect(maria.getByRole("link", { name: "Next candidate" })).toBeDisabled();
  await expect(maria.getByRole("button", { name: "Next candidate" })).toHaveCount(0);
  // [ and ] move once the neighbour is known (its link is enabled)
  await expect(maria.getByRole("link", { name: "Previous candidate" })).toBeEnabled();
  await maria.keyboard.press("[");
  await expect(maria.getByRole("heading", { level: 1, name: w.bea.email })).toBeVisible();
  // the speed came along
  await expect(videoAnswer(maria).getByLabel("Playback speed")).toHaveValue("1.5");
  await expect(maria.getByRole("link", { name: "Previous candidate" })).toBeEnabled();
  await maria.keyboard.press("[");
  await expect(maria.getByRole("heading", { level: 1, name: w.ann.email })).toBeVisible();
  expect(new URL(maria.url()).search).toBe(`${pipeline}&i=0`);
  await expect(maria.getByRole("link", { name: "Previous candidate" })).toBeDisabled();
  await expect(maria.getByRole("link", { name: "Next candidate" })).toBeEnabled();
  await maria.keyboard.press("]");
  await expect(maria.getByRole("heading", { level: 1, name: w.bea.email })).toBeVisible();

  // the shortcuts' help
  await maria.keyboard.press("?");
  await expect(maria.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText("Next candidate");
  await maria.screenshot({ path: "test-results/review-workflow-shortcuts.png" });
  await expectAccessible(maria, "the review's keyboard shortcuts");
  await maria.keyboard.press("Escape");
  await expect(maria.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);
});
